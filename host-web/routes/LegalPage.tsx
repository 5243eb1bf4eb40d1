import { Fragment, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { TERMS_VERSION } from '../../lib/contract/constants';
import { usePageTitle } from '../site';
import { useTourSettings } from './tourSettings';
import type { LegalDocument, LegalDocumentId, LegalTexts } from './legal/types';
import styles from './Legal.module.css';

export type { LegalDocumentId } from './legal/types';

/**
 * Each language's texts are a chunk of their own, fetched when an information page first
 * shows in that language: the long legal texts cost neither the first load nor the other
 * language anything.
 */
const loaders: Record<'en' | 'cs', () => Promise<{ default: LegalTexts }>> = {
  en: () => import('./legal/legalTexts.en'),
  cs: () => import('./legal/legalTexts.cs'),
};
const loaded = new Map<string, LegalTexts>();

function useLegalTexts(language: 'en' | 'cs'): { texts: LegalTexts | null; failed: boolean } {
  const [state, setState] = useState<{ language: string; texts: LegalTexts | null; failed: boolean }>(() => ({ language, texts: loaded.get(language) ?? null, failed: false }));
  useEffect(() => {
    if (loaded.has(language)) {
      setState({ language, texts: loaded.get(language) ?? null, failed: false });
      return;
    }
    let live = true;
    loaders[language]().then(
      (module) => {
        loaded.set(language, module.default);
        if (live) setState({ language, texts: module.default, failed: false });
      },
      () => {
        if (live) setState({ language, texts: null, failed: true });
      },
    );
    return () => {
      live = false;
    };
  }, [language]);
  return state.language === language ? state : { texts: loaded.get(language) ?? null, failed: false };
}

/** The other information pages, linked under each one. */
const related: readonly { path: string; key: string; id: LegalDocumentId | 'contact' | 'faq' }[] = [
  { path: '/terms', key: 'footer.terms', id: 'terms' },
  { path: '/privacy', key: 'footer.privacy', id: 'privacy' },
  { path: '/cookie-policy', key: 'footer.cookiePolicy', id: 'cookiePolicy' },
  { path: '/terms2257', key: 'footer.terms2257', id: 'terms2257' },
  { path: '/tour-faq', key: 'footer.faq', id: 'faq' },
  { path: '/contact', key: 'footer.contact', id: 'contact' },
];

/**
 * `/terms`, `/terms-for-ag`, `/terms2257`, `/privacy` and `/cookie-policy` (SPEC §2): the legal
 * texts in the reader's language, naming the operator from the server's configuration
 * (OPERATOR_NAME, OPERATOR_ADDRESS, SUPPORT_EMAIL, in `/papi/settings`).
 */
export default function LegalPage({ doc }: { doc: LegalDocumentId }) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? i18n.language)?.startsWith('cs') ? 'cs' : 'en';
  const { texts, failed } = useLegalTexts(language);
  const { settings } = useTourSettings();
  const document = texts?.[doc] ?? null;
  usePageTitle(document?.title ?? t(`legal.titles.${doc}`));

  if (document === null) {
    return (
      <p className={styles.loading} role={failed ? 'alert' : 'status'}>
        {failed ? t('legal.failed') : t('app.loading')}
      </p>
    );
  }
  const operator = settings?.operator;
  const values = {
    operatorName: operator?.name ?? '…',
    operator: operator === undefined ? '…' : operator.address === '' ? operator.name : `${operator.name}, ${operator.address}`,
    email: operator?.email ?? '…',
    site: window.location.host,
  };
  return (
    <article className={styles.page} aria-labelledby="legal-title" data-testid="legal-page" data-document={doc} lang={language}>
      <header className={styles.intro}>
        <h1 id="legal-title" className={styles.heading}>
          {document.title}
        </h1>
        <p className={styles.lead}>{fill(document.lead, values)}</p>
        {doc === 'terms' ? <p className={styles.updated}>{t('legal.updated', { date: termsDate(language) })}</p> : null}
      </header>
      <Contents document={document} />
      {document.sections.map((section, index) => (
        <section key={section.heading} className={styles.section} aria-labelledby={`legal-${index}`}>
          <h2 id={`legal-${index}`} className={styles.sectionTitle}>
            {section.heading}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{linkEmail(fill(paragraph, values), values.email)}</p>
          ))}
          {section.items ? (
            <ul className={styles.list}>
              {section.items.map((item) => (
                <li key={item}>{linkEmail(fill(item, values), values.email)}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
      <footer className={styles.operator} aria-labelledby="legal-operator">
        <h2 id="legal-operator" className={styles.operatorTitle}>
          {t('legal.operator')}
        </h2>
        <address className={styles.address}>
          <span>{values.operatorName}</span>
          {operator?.address ? <span>{operator.address}</span> : null}
          <a href={`mailto:${values.email}`}>{values.email}</a>
        </address>
        <nav aria-label={t('legal.related')}>
          <ul className={styles.related}>
            {related
              .filter((link) => link.id !== doc)
              .map((link) => (
                <li key={link.path}>
                  <Link href={link.path}>{t(link.key)}</Link>
                </li>
              ))}
          </ul>
        </nav>
      </footer>
    </article>
  );
}

/** The section list of a long text, as in-page links. */
function Contents({ document }: { document: LegalDocument }) {
  const { t } = useTranslation();
  if (document.sections.length < 4) return null;
  return (
    <nav className={styles.contents} aria-label={t('legal.contents')}>
      <ol>
        {document.sections.map((section, index) => (
          <li key={section.heading}>
            <a
              href={`#legal-${index}`}
              onClick={(event) => {
                // The site's router owns the address: scroll without touching it.
                event.preventDefault();
                const target = window.document.getElementById(`legal-${index}`);
                target?.scrollIntoView({ block: 'start' });
                target?.setAttribute('tabindex', '-1');
                target?.focus({ preventScroll: true });
              }}
            >
              {section.heading.replace(/^\d+\.\s*/, '')}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The support address, wherever a text names it, as a mail link. */
function linkEmail(text: string, email: string) {
  if (email === '…' || !text.includes(email)) return text;
  const parts = text.split(email);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 ? <a href={`mailto:${email}`}>{email}</a> : null}
    </Fragment>
  ));
}

/** The date of the terms' version (TERMS_VERSION, yyyymmdd), in the reader's language. */
function termsDate(language: string): string {
  const date = new Date(Date.UTC(Number(TERMS_VERSION.slice(0, 4)), Number(TERMS_VERSION.slice(4, 6)) - 1, Number(TERMS_VERSION.slice(6, 8))));
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

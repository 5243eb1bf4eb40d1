import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { TERMS_VERSION } from '../../lib/contract/constants';
import { Dialog } from '../../lib/ui';
import { useSite } from '../site';
import { LogoMark } from '../layout/icons';
import styles from './AgeGate.module.css';

/** Written by the server for `POST /papi/users/cookie {name: 'accept'}`, holding the terms version. */
const CONSENT_COOKIE = 'accept_18';

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/**
 * Whether the person agreed to the current terms. A consent to older terms does not count
 * (SPEC §9 stamps the version). The embed sign-in page is left alone: the sign-up form there
 * asks for the same agreement itself, and a small popup has no room for a page behind a gate.
 */
export function useTermsAgreed(location: string): { agreed: boolean; olderConsent: boolean; markAgreed: () => void } {
  const [consent] = useState(() => readCookie(CONSENT_COOKIE));
  const [agreed, setAgreed] = useState(() => consent === TERMS_VERSION);
  const exempt = location === '/embed' || location.startsWith('/embed/');
  const markAgreed = useCallback(() => setAgreed(true), []);
  // Someone who agreed to earlier terms is an adult we know: they get the changed-terms question.
  return { agreed: agreed || exempt, olderConsent: consent !== null && consent !== TERMS_VERSION, markAgreed };
}

export type Category = 'preferences' | 'statistics' | 'marketing';
export const categories: readonly Category[] = ['preferences', 'statistics', 'marketing'];

/** The `preference` cookie's value: the server accepts plain tokens only, so flags, not JSON. */
export function preferenceValue(choice: Record<Category, boolean>): string {
  return categories.map((category) => `${category}=${choice[category] ? 1 : 0}`).join(',');
}

/**
 * SPEC §2: the age-and-terms agreement, over a blurred page, with Agree-all and the advanced
 * cookie preferences (necessary always on). It cannot be dismissed: the modal keeps the page
 * inert until the person agrees.
 */
export function AgeGate({ onAgreed }: { onAgreed: () => void }) {
  const { t } = useTranslation();
  const { fanstage } = useSite();
  const [agreed, setAgreed] = useState(false);
  const [advanced, setAdvanced] = useState(false);
  // Only what the person ticks: statistics and marketing start unticked (consent is opted into).
  const [choice, setChoice] = useState<Record<Category, boolean>>({ preferences: true, statistics: false, marketing: false });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function agree(selected: Record<Category, boolean>) {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    try {
      await fanstage.client.post('/papi/users/cookie', { name: 'accept', value: TERMS_VERSION });
      await fanstage.client.post('/papi/users/cookie', { name: 'preference', value: preferenceValue(selected) });
      setAgreed(true);
      onAgreed();
    } catch {
      setFailed(true);
      setBusy(false);
    }
  }

  const all = { preferences: true, statistics: true, marketing: true };

  return (
    <Dialog
      open={!agreed}
      title={t('consent.title')}
      description={t('consent.text')}
      icon={<LogoMark size={44} />}
      // It cannot be dismissed: Escape would leave an inert, blurred page with nothing to do.
      dismissible={false}
      // The first control would be the Terms link; the answer it asks for comes first.
      initialFocus="[data-agree-all]"
      onClose={() => undefined}
      data-testid="age-gate"
      className={styles.gate}
    >
      <div className={styles.content}>
        <p className={styles.links}>
          <Link href="/terms">{t('footer.terms')}</Link>
          <Link href="/privacy">{t('footer.privacy')}</Link>
          <Link href="/cookie-policy">{t('footer.cookiePolicy')}</Link>
        </p>
        {failed ? (
          <p className={styles.error} role="alert">
            {t('consent.failed')}
          </p>
        ) : null}
        <button type="button" className={styles.primary} data-agree-all onClick={() => void agree(all)} aria-busy={busy}>
          {t('consent.agreeAll')}
        </button>
        <button type="button" className={styles.toggle} aria-expanded={advanced} onClick={() => setAdvanced((open) => !open)}>
          {advanced ? t('consent.hideAdvanced') : t('consent.showAdvanced')}
        </button>
        {advanced ? (
          <fieldset className={styles.cookies}>
            <legend className={styles.legend}>{t('consent.cookiesTitle')}</legend>
            <label className={styles.option}>
              <input type="checkbox" checked disabled />
              <span>
                <strong>{t('consent.necessary')}</strong>
                <small>{t('consent.necessaryText')}</small>
              </span>
            </label>
            {categories.map((category) => (
              <label key={category} className={styles.option}>
                <input
                  type="checkbox"
                  checked={choice[category]}
                  onChange={(event) => setChoice((current) => ({ ...current, [category]: event.target.checked }))}
                />
                <span>
                  <strong>{t(`consent.${category}`)}</strong>
                  <small>{t(`consent.${category}Text`)}</small>
                </span>
              </label>
            ))}
            <button type="button" className={styles.secondary} onClick={() => void agree(choice)} aria-busy={busy}>
              {t('consent.agreeSelected')}
            </button>
          </fieldset>
        ) : null}
      </div>
    </Dialog>
  );
}

import { Suspense, useState, type ComponentProps } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from './LanguagePicker';
import { lazyPart } from './lazyPart';
import type { CookiePreferences as CookiePreferencesPart } from '../overlays/CookiePreferences';
import { useModelProgram } from '../routes/tourSettings';
import styles from './Footer.module.css';

// Fetched the first time someone opens it: most visits never do.
const CookiePreferences = lazyPart<ComponentProps<typeof CookiePreferencesPart>>(() => import('../overlays/CookiePreferences').then((m) => ({ default: m.CookiePreferences })));

/**
 * The information pages of SPEC §2; the model program only when offered. SPEC §2 lists Contact
 * in the phone's footer and in the web's footer menu: this list is both, so it shows at every width.
 */
const links = [
  { path: '/terms', key: 'footer.terms' },
  { path: '/privacy', key: 'footer.privacy' },
  { path: '/terms2257', key: 'footer.terms2257' },
  { path: '/contact', key: 'footer.contact' },
  { path: '/cookie-policy', key: 'footer.cookiePolicy' },
  { path: '/tour-faq', key: 'footer.faq' },
  { path: '/tour-partners', key: 'footer.modelProgram', modelProgram: true },
] as const;

export function FooterLinks({ className, onNavigate }: { className?: string; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const modelProgram = useModelProgram();
  return (
    <ul className={`${styles.links} ${className ?? ''}`}>
      {links.filter((link) => modelProgram || !('modelProgram' in link)).map((link) => (
        <li key={link.path}>
          <Link href={link.path} className={styles.link} onClick={onNavigate}>
            {t(link.key)}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function Footer() {
  const { t } = useTranslation();
  const [cookiePreferences, setCookiePreferences] = useState(false);
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <nav aria-label={t('footer.label')}>
          <FooterLinks />
        </nav>
        {/* The cookie consent can be changed, or withdrawn, at any time (SPEC §2 overlays). */}
        <button type="button" className={`${styles.link} ${styles.button}`} aria-haspopup="dialog" onClick={() => setCookiePreferences(true)}>
          {t('footer.cookiePreferences')}
        </button>
        {cookiePreferences ? (
          <Suspense fallback={null}>
            <CookiePreferences onClose={() => setCookiePreferences(false)} />
          </Suspense>
        ) : null}
        <div className={styles.meta}>
          <LanguagePicker />
          <p className={styles.copyright}>
            {t('footer.copyright', { year: new Date().getFullYear() })}
            <span className={styles.version}>v{__FANSTAGE_VERSION__}</span>
          </p>
        </div>
      </div>
    </footer>
  );
}

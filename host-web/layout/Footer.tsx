import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from './LanguagePicker';
import { useModelProgram } from '../routes/tourSettings';
import styles from './Footer.module.css';

/** The information pages of SPEC §2; Contact is listed on phones only, the model program only when offered. */
const links = [
  { path: '/terms', key: 'footer.terms' },
  { path: '/privacy', key: 'footer.privacy' },
  { path: '/terms2257', key: 'footer.terms2257' },
  { path: '/contact', key: 'footer.contact', phoneOnly: true },
  { path: '/cookie-policy', key: 'footer.cookiePolicy' },
  { path: '/tour-faq', key: 'footer.faq' },
  { path: '/tour-partners', key: 'footer.modelProgram', modelProgram: true },
] as const;

/** In a menu (`onNavigate` given) every link shows: Contact is phone-only in the footer alone (SPEC §2: "menu with contact"). */
export function FooterLinks({ className, onNavigate }: { className?: string; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const modelProgram = useModelProgram();
  return (
    <ul className={`${styles.links} ${className ?? ''}`}>
      {links.filter((link) => modelProgram || !('modelProgram' in link)).map((link) => (
        <li key={link.path} className={'phoneOnly' in link && onNavigate === undefined ? 'phone-only' : undefined}>
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
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <nav aria-label={t('footer.label')}>
          <FooterLinks />
        </nav>
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

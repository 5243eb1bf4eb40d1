import { useTranslation } from 'react-i18next';
import { PartnerRegistration as PartnerRegistrationPanel } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { LoginNeeded } from './Settings';
import styles from './Money.module.css';

/** The `C-` partner code the `affcode` cookie holds (set by check-code, SPEC §5), or undefined. */
function partnerCodeCookie(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== 'affcode') continue;
    const value = decodeURIComponent(rest.join('=')).toUpperCase();
    return /^C-[A-Z0-9]{8}$/.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * `/partner-registration` (login; SPEC §2, docs/partners.md): the partner form, the identity
 * check at the provider (left for in the same tab; it sends the person to `/verify-request`),
 * the waiting states, badge confirmation and cancelling.
 */
export default function PartnerRegistration() {
  const { loggedIn } = useSite();
  return <AfterSessionCheck>{loggedIn ? <Registration /> : <LoginNeeded />}</AfterSessionCheck>;
}

function Registration() {
  const { t } = useTranslation();
  usePageTitle(t('partner.title'));
  return (
    <section className={styles.screen} aria-labelledby="partner-title">
      <h1 id="partner-title" className={styles.title}>
        {t('partner.title')}
      </h1>
      <PartnerRegistrationPanel initialCode={partnerCodeCookie()} />
    </section>
  );
}

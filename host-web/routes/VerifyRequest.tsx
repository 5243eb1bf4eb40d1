import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { IdCheckStatus } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { LoginNeeded } from './Settings';
import styles from './Money.module.css';

/**
 * `/verify-request` (login; SPEC §2): where the identity provider sends the person back
 * (`?check=`). It shows the check's result as it arrives and leads back to the registration.
 */
export default function VerifyRequest() {
  const { loggedIn } = useSite();
  return <AfterSessionCheck>{loggedIn ? <Result /> : <LoginNeeded />}</AfterSessionCheck>;
}

function Result() {
  const { t } = useTranslation();
  usePageTitle(t('partner.result.title'));
  return (
    <section className={styles.screen} aria-labelledby="verify-title">
      <h1 id="verify-title" className={styles.title}>
        {t('partner.result.title')}
      </h1>
      <IdCheckStatus />
      <div className={styles.actions}>
        <Link href="/partner-registration" className={styles.secondary}>
          {t('partner.result.back')}
        </Link>
      </div>
    </section>
  );
}

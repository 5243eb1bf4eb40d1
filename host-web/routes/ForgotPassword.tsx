import { useTranslation } from 'react-i18next';
import { ForgotPasswordForm } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import styles from './Account.module.css';

/** `/sign-up/forgotpassword` (SPEC §2): asks for the reset link by e-mail. */
export default function ForgotPassword() {
  const { t } = useTranslation();
  const { openLoginPrompt } = useSite();
  usePageTitle(t('auth.forgot.title'), { inHeader: false });
  return (
    <div className={styles.screen}>
      <ForgotPasswordForm headingLevel={1} autoFocus />
      <p className={styles.aside}>
        <button type="button" className={styles.textButton} aria-haspopup="dialog" onClick={openLoginPrompt}>
          {t('account.backToLogin')}
        </button>
      </p>
    </div>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResetPasswordForm } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import styles from './Account.module.css';

/**
 * `/reset-password/{hash}` from the reset mail (SPEC §2). Saving ends every session of the
 * account (docs/auth.md), so the way on is a fresh login.
 */
export default function ResetPassword({ hash }: { hash: string }) {
  const { t } = useTranslation();
  const { loggedIn, openLoginPrompt } = useSite();
  const [done, setDone] = useState(false);
  usePageTitle(t('auth.reset.title'), { inHeader: false });
  return (
    <div className={styles.screen}>
      <ResetPasswordForm hash={hash} headingLevel={1} autoFocus onSuccess={() => setDone(true)} />
      {done && !loggedIn ? (
        <p className={styles.aside}>
          <button type="button" className={styles.action} aria-haspopup="dialog" onClick={openLoginPrompt}>
            {t('account.resetPassword.login')}
          </button>
        </p>
      ) : null}
    </div>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { Dialog, LoginForm } from '../../lib/ui';
import { clearOAuthOutcome, oauthOutcome } from '../oauthOutcome';
import { useSite } from '../site';
import { Icon } from '../layout/icons';
import styles from './LoginPrompt.module.css';

/**
 * SPEC §2 and §6: what a visitor sees when they try something that needs an account
 * (a tab other than Discover, a new post, ...).
 */
export function LoginPrompt() {
  const { t } = useTranslation();
  const { loginPromptOpen, closeLoginPrompt } = useSite();
  const [, navigate] = useLocation();
  // Opened for a failed external sign-in, the prompt says why (host-web/oauthOutcome.ts).
  const [outcome, setOutcome] = useState(oauthOutcome);
  // The reason belongs to the opening it came with.
  useEffect(() => {
    if (loginPromptOpen) return;
    clearOAuthOutcome();
    setOutcome(null);
  }, [loginPromptOpen]);

  return (
    <Dialog
      open={loginPromptOpen}
      title={t('loginPrompt.title')}
      description={t('loginPrompt.text')}
      icon={<Icon name="lock" size={28} />}
      closeLabel={t('loginPrompt.close')}
      size="small"
      // The person came to log in: the e-mail field, not the close button, takes focus.
      initialFocus="input[type='email']"
      onClose={closeLoginPrompt}
      data-testid="login-prompt"
    >
      <div className={styles.content}>
        {/* Mounted only while open, so every opening starts with an empty form and focus in it. */}
        {loginPromptOpen ? (
          <LoginForm
            className={styles.form}
            headingLevel={3}
            autoFocus
            onSuccess={closeLoginPrompt}
            notice={outcome === null ? null : t(`oauth.outcome.${outcome}`)}
            onForgotPassword={() => {
              closeLoginPrompt();
              navigate('/sign-up/forgotpassword');
            }}
          />
        ) : null}
        <p className={styles.switch}>
          {t('loginPrompt.noAccount')}{' '}
          <Link href="/sign-up" onClick={closeLoginPrompt}>
            {t('loginPrompt.signUp')}
          </Link>
        </p>
        <button type="button" className={styles.secondary} onClick={closeLoginPrompt}>
          {t('loginPrompt.notNow')}
        </button>
      </div>
    </Dialog>
  );
}

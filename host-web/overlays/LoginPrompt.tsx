import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { LoginForm } from '../../lib/ui';
import { useSite } from '../site';
import { Icon } from '../layout/icons';
import { useModalDialog } from './useModalDialog';
import styles from './LoginPrompt.module.css';

/**
 * SPEC §2 and §6: what a visitor sees when they try something that needs an account
 * (a tab other than Discover, a new post, ...).
 */
export function LoginPrompt() {
  const { t } = useTranslation();
  const { loginPromptOpen, closeLoginPrompt } = useSite();
  const dialog = useModalDialog(loginPromptOpen, closeLoginPrompt);
  const titleId = useId();
  const textId = useId();
  const [, navigate] = useLocation();
  const close = () => dialog.ref.current?.close();

  // Opening a modal dialog focuses its first control (the close button); the person came to
  // log in, so the e-mail field gets it. Runs after the dialog hook's own effect has opened it.
  useEffect(() => {
    if (loginPromptOpen) dialog.ref.current?.querySelector<HTMLInputElement>('input[type="email"]')?.focus();
  }, [loginPromptOpen, dialog.ref]);

  return (
    <dialog
      ref={dialog.ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onClose={dialog.onClose}
      onClick={dialog.onClick}
      onKeyDown={dialog.onKeyDown}
      data-testid="login-prompt"
    >
      <div className={styles.content}>
        <button type="button" className={styles.close} aria-label={t('loginPrompt.close')} onClick={close}>
          <Icon name="close" />
        </button>
        <div className={styles.badge}>
          <Icon name="lock" size={28} />
        </div>
        <h2 id={titleId} className={styles.title}>
          {t('loginPrompt.title')}
        </h2>
        <p id={textId} className={styles.text}>
          {t('loginPrompt.text')}
        </p>
        {/* Mounted only while open, so every opening starts with an empty form and focus in it. */}
        {loginPromptOpen ? (
          <LoginForm
            className={styles.form}
            headingLevel={3}
            autoFocus
            onSuccess={close}
            onForgotPassword={() => {
              close();
              navigate('/sign-up/forgotpassword');
            }}
          />
        ) : null}
        <p className={styles.switch}>
          {t('loginPrompt.noAccount')}{' '}
          <Link href="/sign-up" onClick={close}>
            {t('loginPrompt.signUp')}
          </Link>
        </p>
        <button type="button" className={styles.secondary} onClick={close}>
          {t('loginPrompt.notNow')}
        </button>
      </div>
    </dialog>
  );
}

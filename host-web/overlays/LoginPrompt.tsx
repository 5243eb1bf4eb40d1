import { useId } from 'react';
import { useTranslation } from 'react-i18next';
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
        <button type="button" className={styles.close} aria-label={t('loginPrompt.close')} onClick={() => dialog.ref.current?.close()}>
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
        <button type="button" className={styles.secondary} onClick={() => dialog.ref.current?.close()}>
          {t('loginPrompt.notNow')}
        </button>
      </div>
    </dialog>
  );
}

import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSite } from '../site';
import { Icon } from '../layout/icons';
import { useModalDialog } from './useModalDialog';
import styles from './LoginPrompt.module.css';

/**
 * SPEC §2 and §4: asks before logging out; logging out ends the session on the server, then
 * the whole page loads afresh at `/`, so nothing of the account stays in memory.
 */
export function LogoutConfirm() {
  const { t } = useTranslation();
  const { fanstage, logoutConfirmOpen, closeLogoutConfirm } = useSite();
  const dialog = useModalDialog(logoutConfirmOpen, closeLogoutConfirm);
  const titleId = useId();
  const [busy, setBusy] = useState(false);

  async function logout() {
    if (busy) return;
    setBusy(true);
    // The session clears itself even when the server cannot be reached.
    await fanstage.session.logout().catch(() => undefined);
    window.location.assign('/');
  }

  return (
    <dialog
      ref={dialog.ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      onClose={dialog.onClose}
      onClick={dialog.onClick}
      onKeyDown={dialog.onKeyDown}
      data-testid="logout-confirm"
    >
      <div className={styles.content}>
        <button type="button" className={styles.close} aria-label={t('loginPrompt.close')} onClick={() => dialog.ref.current?.close()}>
          <Icon name="close" />
        </button>
        <div className={styles.badge}>
          <Icon name="logout" size={28} />
        </div>
        <h2 id={titleId} className={styles.title}>
          {t('logout.title')}
        </h2>
        <div className={styles.buttons}>
          <button type="button" className={styles.secondary} onClick={() => dialog.ref.current?.close()}>
            {t('logout.cancel')}
          </button>
          <button type="button" className={styles.primary} onClick={() => void logout()} aria-busy={busy}>
            {busy ? t('logout.busy') : t('logout.confirm')}
          </button>
        </div>
      </div>
    </dialog>
  );
}

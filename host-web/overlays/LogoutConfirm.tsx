import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSite } from '../site';
import { Icon } from '../layout/icons';
import { Dialog } from '../../lib/ui';
import styles from './LoginPrompt.module.css';

/**
 * SPEC §2 and §4: asks before logging out; logging out ends the session on the server, then
 * the whole page loads afresh at `/`, so nothing of the account stays in memory.
 */
export function LogoutConfirm() {
  const { t } = useTranslation();
  const { fanstage, logoutConfirmOpen, closeLogoutConfirm } = useSite();
  const [busy, setBusy] = useState(false);

  async function logout() {
    if (busy) return;
    setBusy(true);
    // The session clears itself even when the server cannot be reached.
    await fanstage.session.logout().catch(() => undefined);
    window.location.assign('/');
  }

  return (
    <Dialog
      open={logoutConfirmOpen}
      title={t('logout.title')}
      icon={<Icon name="logout" size={28} />}
      closeLabel={t('loginPrompt.close')}
      size="small"
      onClose={closeLogoutConfirm}
      data-testid="logout-confirm"
    >
      <div className={styles.buttons}>
        <button type="button" className={styles.secondary} onClick={closeLogoutConfirm}>
          {t('logout.cancel')}
        </button>
        <button type="button" className={styles.primary} onClick={() => void logout()} aria-busy={busy}>
          {busy ? t('logout.busy') : t('logout.confirm')}
        </button>
      </div>
    </Dialog>
  );
}

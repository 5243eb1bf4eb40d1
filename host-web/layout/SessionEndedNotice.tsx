import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { useSite } from '../site';
import styles from './SessionEndedNotice.module.css';

/** The reasons a session ends without the user asking: each is a message of SPEC §8. */
const told = new Set(['banned', 'disconnected-password', 'refresh-token-failed']);

/**
 * Why this device was logged out when the server ended the session (SPEC §6, §8): an
 * administrator's block (`banned`), the password changed on another device
 * (`disconnected-password`), or a refresh the server refused. It stays until dismissed or the
 * next login, since the page it appears on is not the one the user was reading.
 */
export function SessionEndedNotice() {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const reason = fanstage.session.logoutReason.value;
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => {
    if (loggedIn) setDismissed(null);
  }, [loggedIn]);
  if (loggedIn || reason === null || !told.has(reason) || dismissed === reason) return null;
  return (
    <div className={styles.notice} role="alert" data-testid="session-ended">
      <p className={styles.text}>{t(`errors.${reason}`)}</p>
      <button type="button" className={styles.close} onClick={() => setDismissed(reason)}>
        {t('dialog.close')}
      </button>
    </div>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { RECONNECT_WARNING_MS } from '../../lib/ui';
import { useSite } from '../site';
import styles from './RealtimeNotice.module.css';

/**
 * SPEC §8 trying-to-reconnect: a warning for 3.5 s from the second reconnection attempt on,
 * shown again with each further attempt. The site reloads itself after too many (lib/sdk/socket/).
 */
export function RealtimeNotice() {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const trying = fanstage.socket.tryingToReconnect.value;
  const attempts = fanstage.socket.attempts.value;
  const [shown, setShown] = useState(false);

  useEffect(() => {
    if (!trying) {
      setShown(false);
      return;
    }
    setShown(true);
    const timer = setTimeout(() => setShown(false), RECONNECT_WARNING_MS);
    return () => clearTimeout(timer);
  }, [trying, attempts]);

  return (
    <div className={styles.region} role="status">
      {loggedIn && shown ? <p className={styles.notice}>{t('realtime.trying-to-reconnect')}</p> : null}
    </div>
  );
}

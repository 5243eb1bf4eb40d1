import { useSignals } from '@preact/signals-react/runtime';
import { Link, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { IncomingCall } from '../../lib/ui';
import { useSite } from '../site';
import styles from './CallOverlay.module.css';
import { useCallNotifications } from './useCallNotifications';

/**
 * The incoming-call screen anywhere on the site while signed in (SPEC §2 overlays); accepting
 * opens `/videocall/{id}`. A call under way while the person looks at another page keeps a way
 * back to it. While a call rings the tab's title and icon show it; a ring's notification (web
 * push) is answered here and closed when the ring stops.
 */
export function CallOverlay() {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const [location, navigate] = useLocation();
  const notice = useCallNotifications(fanstage);
  if (!loggedIn) return null;
  const call = fanstage.calls.current.value;
  const away = call && (call.phase === 'calling' || call.phase === 'connecting' || call.phase === 'live') && location !== `/videocall/${call.callId}`;
  return (
    <>
      <IncomingCall onAccepted={(callId) => navigate(`/videocall/${encodeURIComponent(callId)}`)} />
      {notice ? (
        <p className={styles.notice} role="status" data-testid="call-notice">
          {t(`errors.${notice}`)}
        </p>
      ) : null}
      {away ? (
        <Link href={`/videocall/${encodeURIComponent(call.callId)}`} className={styles.back} data-testid="back-to-call">
          {t('calls.backToCall', { name: call.peer.displayName.trim() || call.peer.username })}
        </Link>
      ) : null}
    </>
  );
}

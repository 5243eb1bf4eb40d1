import { useSignals } from '@preact/signals-react/runtime';
import { Link, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { IncomingCall } from '../../lib/ui';
import { useSite } from '../site';
import styles from './CallOverlay.module.css';

/**
 * The incoming-call screen anywhere on the site while signed in (SPEC §2 overlays); accepting
 * opens `/videocall/{id}`. A call under way while the person looks at another page keeps a way
 * back to it.
 */
export function CallOverlay() {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const [location, navigate] = useLocation();
  if (!loggedIn) return null;
  const call = fanstage.calls.current.value;
  const away = call && (call.phase === 'calling' || call.phase === 'connecting' || call.phase === 'live') && location !== `/videocall/${call.callId}`;
  return (
    <>
      <IncomingCall onAccepted={(callId) => navigate(`/videocall/${encodeURIComponent(callId)}`)} />
      {away ? (
        <Link href={`/videocall/${encodeURIComponent(call.callId)}`} className={styles.back} data-testid="back-to-call">
          {t('calls.backToCall', { name: call.peer.displayName.trim() || call.peer.username })}
        </Link>
      ) : null}
    </>
  );
}

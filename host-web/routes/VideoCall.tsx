import { useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { CallWindow } from '../../lib/ui';
import { getPreviousLocation } from '../navigation';
import { useSite, usePageTitle } from '../site';
import styles from './VideoCall.module.css';

/**
 * `/videocall/{id}` (SPEC §2, login): the call window for that call. A call placed or answered
 * on this page shows live; any other id (a reload, an old link) shows what the server recorded.
 * Closing the ended call goes back to where the person came from.
 */
export default function VideoCall({ id }: { id: string }) {
  const { t } = useTranslation();
  const { loggedIn } = useSite();
  const [, navigate] = useLocation();
  usePageTitle(t('calls.title'));
  return (
    <div className={styles.page}>
      <h1 className="visually-hidden">{t('calls.title')}</h1>
      {loggedIn ? (
        <CallWindow
          callId={id}
          headingLevel={2}
          onClosed={() => {
            const previous = getPreviousLocation();
            if (previous && !previous.startsWith('/videocall/')) window.history.back();
            else navigate('/timeline');
          }}
        />
      ) : null}
    </div>
  );
}

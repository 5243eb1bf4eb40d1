import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { useSite } from '../site';
import styles from './NotificationBadge.module.css';

/** How often the count is asked for while the page stays open, until the websocket pushes it. */
const REFRESH_MS = 60_000;

/**
 * The Notifications tab's badge (SPEC §2: the total count, `GET /api/count/`). Asked for on
 * login, on every navigation and every minute; the Notifications screen clears it.
 */
export function NotificationBadge({ children }: { children: ReactNode }) {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const [location] = useLocation();
  const store = fanstage.notifications;

  useEffect(() => {
    // The next person to log in on this page must not see the last one's notifications.
    if (!loggedIn) {
      store.reset();
      return;
    }
    // The screen itself marks everything read; asking then would race with that.
    if (!location.startsWith('/notifications')) store.refreshCount().catch(() => undefined);
    const id = setInterval(() => store.refreshCount().catch(() => undefined), REFRESH_MS);
    return () => clearInterval(id);
  }, [store, loggedIn, location]);

  const count = loggedIn ? store.unreadCount.value : 0;
  return (
    <span className={styles.wrap}>
      {children}
      {count > 0 ? (
        <>
          <span className={styles.badge} aria-hidden="true" data-testid="notifications-badge">
            {count > 99 ? '99+' : count}
          </span>
          <span className="visually-hidden">{count > 99 ? t('notifications.badgeMore') : t('notifications.badge', { count })}</span>
        </>
      ) : null}
    </span>
  );
}

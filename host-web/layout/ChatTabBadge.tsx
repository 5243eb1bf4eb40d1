import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { useSite } from '../site';
import styles from './NotificationBadge.module.css';

/**
 * The Chat tab's badge (SPEC §2: conversations plus reactions). The counts come with the
 * Notifications badge's `GET /api/count/` and live with the websocket's `updateCount`.
 */
export function ChatTabBadge({ children }: { children: ReactNode }) {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const count = loggedIn ? fanstage.chat.badgeCount.value : 0;
  return (
    <span className={styles.wrap}>
      {children}
      {count > 0 ? (
        <>
          <span className={styles.badge} aria-hidden="true" data-testid="chat-badge">
            {count > 99 ? '99+' : count}
          </span>
          <span className="visually-hidden">{count > 99 ? t('siteChat.badgeMore') : t('siteChat.badge', { count })}</span>
        </>
      ) : null}
    </span>
  );
}

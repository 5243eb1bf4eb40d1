import { useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { NotificationList } from '../../lib/ui';
import { isNotificationTab } from '../../lib/sdk';
import { useSite, usePageTitle } from '../site';
import { useInAppLinks } from '../useInAppLinks';
import { PushPrompt } from '../components/PushPrompt';
import styles from './Notifications.module.css';

/**
 * `/notifications` (SPEC §2, login): tabs all, follow, subscriptions, replies, grouped by age.
 * Opening it marks everything read, which clears the tab's badge.
 */
export default function Notifications() {
  const { t } = useTranslation();
  const { loggedIn } = useSite();
  const onClick = useInAppLinks();
  const requested = new URLSearchParams(useSearch()).get('tab');
  usePageTitle(t('notifications.title'));

  return (
    <div className={styles.page}>
      <h1 className="visually-hidden">{t('notifications.title')}</h1>
      {/* The login guard sends visitors away; until the session is known there is nothing to ask for. */}
      {loggedIn ? <PushPrompt /> : null}
      {loggedIn ? <NotificationList onClick={onClick} {...(isNotificationTab(requested) ? { initialTab: requested } : {})} /> : null}
    </div>
  );
}

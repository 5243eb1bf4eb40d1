import { useEffect, useId, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import {
  avatarUrl,
  notificationHref,
  notificationMessage,
  notificationTabs,
  notificationTarget,
  relativeTime,
  relativeTimeRefreshMs,
  type Notification,
  type NotificationGroup,
  type NotificationTab,
  type NotificationTarget,
} from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

export interface NotificationRow {
  id: number;
  type: Notification['type'];
  text: string;
  href: string | null;
  time: string;
  dateTime: string;
  unread: boolean;
  avatar: string | null;
  initial: string;
}

export interface NotificationListState {
  ids: { tab: (tab: NotificationTab) => string; panel: string };
  tab: NotificationTab;
  tabs: { id: NotificationTab; label: string; selected: boolean }[];
  sections: { group: NotificationGroup; title: string; rows: NotificationRow[] }[];
  statusText: string;
  errorText: string | null;
  emptyText: string | null;
  loadMoreLabel: string | null;
  retryLabel: string;
  unreadLabel: string;
  busy: boolean;
  onTab: (tab: NotificationTab) => void;
  onLoadMore: () => void;
  labels: { tabs: string };
}

export interface UseNotificationListOptions {
  /** SPEC §2: opening the screen marks everything read and clears the badge (default true). */
  markReadOnOpen?: boolean;
  /** Where a notification leads; defaults to the site's routes. */
  hrefFor?: (target: NotificationTarget) => string;
  /** The tab shown first (default all). */
  initialTab?: NotificationTab;
  /** Clock for the groups and times, e.g. fixed in tests. */
  now?: () => number;
}

/** The notifications of the logged-in viewer by tab, grouped by age, as render-ready rows. */
export function useNotificationList({ markReadOnOpen = true, hrefFor = notificationHref, initialTab, now = Date.now }: UseNotificationListOptions = {}): NotificationListState {
  useSignals();
  const { t, i18n } = useTranslation();
  const { notifications, settings } = useFanstage();
  const base = useId();
  const [, setTick] = useState(0);

  useEffect(() => {
    if (initialTab) notifications.setTab(initialTab);
    const shown = notifications.current.peek();
    // Coming back to the screen shows what is new since, not the list as it was.
    if (shown.status.peek() === 'idle') void shown.start();
    else if (shown.status.peek() !== 'loading') void shown.reload();
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
    if (markReadOnOpen) notifications.markRead().catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [notifications]);

  // A notification that comes while the screen is open (the badge's count rising over the
  // socket) shows in the list at once, above what is shown, and is read as on opening.
  const unread = notifications.unreadCount.value;
  const unreadBefore = useRef(unread);
  useEffect(() => {
    const rose = unread > unreadBefore.current;
    unreadBefore.current = unread;
    const shown = notifications.current.peek();
    // The first page on its way counts it already.
    if (!rose || (shown.status.peek() === 'loading' && shown.items.peek().length === 0)) return;
    void shown.refresh();
    if (markReadOnOpen) notifications.markRead().catch(() => undefined);
  }, [unread, notifications, markReadOnOpen]);

  const list = notifications.current.value;
  const items = list.items.value;
  const status = list.status.value;
  const canLoadMore = list.canLoadMore.value;
  const cdn = settings.settings.value?.mediaCDN ?? null;
  const at = now();

  // Relative times age while the screen stays open: refresh at the pace the newest needs.
  const newest = items[0]?.createdDate;
  useEffect(() => {
    if (newest === undefined) return;
    const every = relativeTimeRefreshMs(newest, Date.now());
    if (every === null) return;
    const id = setInterval(() => setTick((n) => n + 1), every);
    return () => clearInterval(id);
  }, [newest]);

  const language = i18n.resolvedLanguage ?? i18n.language;
  const dateFormat = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: 'numeric' });

  function timeOf(createdDate: number): string {
    const relative = relativeTime(createdDate, at);
    if (relative.key === 'date') return dateFormat.format(relative.date);
    if (relative.key === 'justNow') return t('time.justNow');
    return t(`time.${relative.key}`, { count: relative.count });
  }

  function rowOf(n: Notification): NotificationRow {
    const message = notificationMessage(n);
    const name = message.name || t('notifications.someone');
    const target = notificationTarget(n);
    return {
      id: n.id,
      type: n.type,
      text: t(`notifications.text.${message.key}`, { name, count: message.others }),
      href: target ? hrefFor(target) : null,
      time: timeOf(n.createdDate),
      dateTime: new Date(n.createdDate).toISOString(),
      unread: n.unread,
      avatar: cdn && n.fromUser ? avatarUrl(cdn, n.fromUser.avatarMedia, 60) : null,
      initial: Array.from(name)[0]?.toLocaleUpperCase() ?? '?',
    };
  }

  const tab = notifications.tab.value;
  return {
    ids: { tab: (id) => `${base}-tab-${id}`, panel: `${base}-panel` },
    tab,
    tabs: notificationTabs.map((id) => ({ id, label: t(`notifications.tabs.${id}`), selected: id === tab })),
    sections: notifications.sections(at).map((section) => ({
      group: section.group,
      title: t(`notifications.groups.${section.group}`),
      rows: section.items.map(rowOf),
    })),
    statusText: status === 'loading' ? t('notifications.loading') : status === 'ended' && items.length > 0 ? t('notifications.end') : '',
    errorText: status === 'error' ? t('notifications.error') : null,
    emptyText: status === 'ended' && items.length === 0 ? t('notifications.empty') : null,
    loadMoreLabel: canLoadMore ? t('notifications.loadMore') : null,
    retryLabel: t('app.retry'),
    unreadLabel: t('notifications.unread'),
    busy: status === 'loading' || status === 'idle',
    onTab: (id) => notifications.setTab(id),
    onLoadMore: () => void list.nextPage(),
    labels: { tabs: t('notifications.tabsLabel') },
  };
}

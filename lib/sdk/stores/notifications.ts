import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { Counts, Notification } from '../../contract';
import type { FanstageClient } from '../client';
import { notificationsApi } from '../api-discover';
import type { SdkError } from '../errors';
import { asSdkError } from './shared/errors';
import { pageSizes } from '../rules/constants';
import { groupNotifications, notificationTypesOf, type NotificationTab } from '../rules/notifications';
import { createPagedList, type PagedList } from './shared/paged';

export interface NotificationsStoreOptions {
  isLoggedIn?: () => boolean;
  /**
   * Told every answer of `GET /api/count/`, which carries the chat's counts too: the Chat tab's
   * badge shares the request the Notifications badge makes.
   */
  onCounts?: (counts: Counts) => void;
}

/**
 * The viewer's notifications: one list per tab in pages of 30 (SPEC §9), grouped by age, and
 * the unread count that the Notifications tab shows as its badge.
 */
export function createNotificationsStore(client: FanstageClient, options: NotificationsStoreOptions = {}) {
  const api = notificationsApi(client);
  const loggedIn = () => options.isLoggedIn?.() ?? true;
  const tab = signal<NotificationTab>('all');
  const unreadCount = signal(0);
  const countError = signal<SdkError | null>(null);
  const lists = new Map<NotificationTab, PagedList<Notification>>();
  let readSerial = 0;

  function listFor(which: NotificationTab): PagedList<Notification> {
    let list = lists.get(which);
    if (!list) {
      const types = notificationTypesOf(which);
      list = createPagedList<Notification>({
        pageSize: pageSizes.notifications,
        idOf: (n) => n.id,
        fetchPage: async ({ offset, limit }, signal) => {
          const asOf = readSerial;
          const page = await api.page({ ...(types ? { types } : {}), limit, ...(offset ? { offset } : {}) }, signal);
          // A page asked for before a mark-read may count what is read by now.
          if (asOf === readSerial) unreadCount.value = page.unreadCount;
          return page.notifications;
        },
      });
      lists.set(which, list);
    }
    return list;
  }

  // Bumped when the lists are forgotten, so `current` hands out a fresh one.
  const generation = signal(0);
  const current = computed(() => (generation.value, listFor(tab.value)));

  /** The current tab's list in groups (today, this week, this month, older), as of `now`. */
  function sections(now: number = Date.now()) {
    return groupNotifications(current.value.items.value, now);
  }

  /** Switches tab; its list loads the first time it is shown and is kept for coming back. */
  function setTab(next: NotificationTab): void {
    tab.value = next;
    void listFor(next).start();
  }

  /**
   * Marks everything read (SPEC §2: opening the screen does) and clears the badge at once;
   * the rows keep their unread look until the list is loaded again.
   */
  async function markRead(): Promise<void> {
    if (!loggedIn()) return;
    const before = unreadCount.peek();
    readSerial += 1;
    unreadCount.value = 0;
    try {
      await api.markRead();
    } catch (error) {
      unreadCount.value = before;
      throw error;
    }
  }

  let counting: Promise<number> | null = null;

  /**
   * The badge count from `GET /api/count/`. Callers at the same moment (the bottom and the
   * side navigation both show the badge) share one request.
   */
  function refreshCount(): Promise<number> {
    if (!loggedIn()) {
      unreadCount.value = 0;
      return Promise.resolve(0);
    }
    if (counting) return counting;
    const asOf = readSerial;
    const pending = api
      .counts()
      .then(
        (counts) => {
          batch(() => {
            if (asOf === readSerial) unreadCount.value = counts.notifications;
            countError.value = null;
            options.onCounts?.(counts);
          });
          return counts.notifications;
        },
        (error: unknown) => {
          countError.value = asSdkError(error);
          throw error;
        },
      )
      .finally(() => {
        if (counting === pending) counting = null;
      });
    counting = pending;
    return pending;
  }

  /** A count pushed by the server (`updateCount` over the websocket). */
  function setUnreadCount(count: number): void {
    unreadCount.value = Math.max(0, Math.floor(count));
  }

  /** Forgets every list, e.g. after a logout, so the next viewer does not see them. */
  function reset(): void {
    for (const list of lists.values()) list.dispose();
    lists.clear();
    batch(() => {
      unreadCount.value = 0;
      tab.value = 'all';
      generation.value += 1;
    });
  }

  return {
    tab: tab as ReadonlySignal<NotificationTab>,
    /** The list of the current tab. */
    current,
    list: listFor,
    sections,
    unreadCount: unreadCount as ReadonlySignal<number>,
    countError: countError as ReadonlySignal<SdkError | null>,
    setTab,
    markRead,
    refreshCount,
    setUnreadCount,
    reset,
  };
}

export type NotificationsStore = ReturnType<typeof createNotificationsStore>;

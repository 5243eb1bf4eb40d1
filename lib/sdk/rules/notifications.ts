import type { Notification, NotificationType } from '../../contract/notifications';
import { NotificationTabs } from '../../contract/constants';

/**
 * Notification grouping (SPEC §9): today, this week (7 days), this month (30 days), older.
 * Today is the reader's calendar day, not the last 24 hours: a notification from 23:50
 * yesterday read at 00:10 is yesterday's.
 */
export const notificationGroups = ['today', 'thisWeek', 'thisMonth', 'older'] as const;
export type NotificationGroup = (typeof notificationGroups)[number];

const DAY = 24 * 60 * 60 * 1000;

function startOfDay(now: number): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/** The group of a notification created at `createdDate` (epoch ms), read at `now`. */
export function notificationGroup(createdDate: number, now: number = Date.now()): NotificationGroup {
  // A clock a little ahead of the reader's still means today.
  if (createdDate >= startOfDay(now)) return 'today';
  const age = now - createdDate;
  if (age < 7 * DAY) return 'thisWeek';
  if (age < 30 * DAY) return 'thisMonth';
  return 'older';
}

export interface NotificationSection<T> {
  group: NotificationGroup;
  items: T[];
}

/**
 * The non-empty groups in their fixed order, each keeping the list's own order (newest
 * first as the server sends it), so a page appended later joins its group, never a new one.
 */
export function groupNotifications<T extends Pick<Notification, 'createdDate'>>(list: readonly T[], now: number = Date.now()): NotificationSection<T>[] {
  const buckets = new Map<NotificationGroup, T[]>();
  for (const item of list) {
    const group = notificationGroup(item.createdDate, now);
    const bucket = buckets.get(group);
    if (bucket) bucket.push(item);
    else buckets.set(group, [item]);
  }
  return notificationGroups.filter((g) => buckets.has(g)).map((group) => ({ group, items: buckets.get(group) ?? [] }));
}

/** The tabs of /notifications (SPEC §2); `all` shows every type. */
export const notificationTabs = ['all', 'follow', 'subscriptions', 'replies'] as const;
export type NotificationTab = (typeof notificationTabs)[number];

export function isNotificationTab(value: unknown): value is NotificationTab {
  return typeof value === 'string' && (notificationTabs as readonly string[]).includes(value);
}

/** The `types` query of a tab: absent for all, else the tab's types comma-separated. */
export function notificationTypesOf(tab: NotificationTab): string | undefined {
  return tab === 'all' ? undefined : NotificationTabs[tab].join(',');
}

/** Where a notification leads: the post (or comment thread), the sender's profile, the chat or the settings. */
export type NotificationTarget =
  | { kind: 'post'; postId: number; commentId?: number }
  | { kind: 'profile'; username: string }
  | { kind: 'chat'; username: string }
  | { kind: 'settings' };

const postTypes: ReadonlySet<NotificationType> = new Set(['timeline', 'postLike', 'postGift', 'postMediaUnlock', 'postComment', 'postCommentReply', 'postCommentLike']);
const commentTypes: ReadonlySet<NotificationType> = new Set(['postComment', 'postCommentReply', 'postCommentLike']);
const chatTypes: ReadonlySet<NotificationType> = new Set(['chatGift', 'chatMediaUnlock', 'missedCall']);
const accountTypes: ReadonlySet<NotificationType> = new Set(['verificationApproved', 'partnerApproved', 'notificationDeletedByAdmin', 'actionGirlOffer']);

export function notificationTarget(n: Pick<Notification, 'type' | 'postId' | 'commentId' | 'fromUser'>): NotificationTarget | null {
  if (postTypes.has(n.type) && n.postId !== null) {
    return commentTypes.has(n.type) && n.commentId !== null ? { kind: 'post', postId: n.postId, commentId: n.commentId } : { kind: 'post', postId: n.postId };
  }
  if (accountTypes.has(n.type)) return { kind: 'settings' };
  if (!n.fromUser) return null;
  if (chatTypes.has(n.type)) return { kind: 'chat', username: n.fromUser.username };
  return { kind: 'profile', username: n.fromUser.username };
}

/** The site's address of a target (SPEC §2 routes). */
export function notificationHref(target: NotificationTarget): string {
  switch (target.kind) {
    case 'post':
      return target.commentId !== undefined ? `/post/${target.postId}/${target.commentId}` : `/post/${target.postId}`;
    case 'profile':
      return `/${encodeURIComponent(target.username)}`;
    case 'chat':
      return `/chat/${encodeURIComponent(target.username)}`;
    case 'settings':
      return '/settings';
  }
}

/**
 * What a row says, as a translation key under `notifications.text` and its values: merged
 * events (likes, missed calls) name the latest sender and count the others, so four likes
 * read "Lucy and 3 others liked your post".
 */
export function notificationMessage(n: Pick<Notification, 'type' | 'count' | 'fromUser'>): { key: string; others: number; name: string } {
  const name = n.fromUser ? n.fromUser.displayName.trim() || n.fromUser.username : '';
  const others = mergedTypes.has(n.type) ? Math.max(0, n.count - 1) : 0;
  return { key: others > 0 ? `${n.type}Others` : n.type, others, name };
}

/** The types the server merges on one target within an hour (SPEC §9). */
export const mergedTypes: ReadonlySet<NotificationType> = new Set(['postLike', 'postCommentLike', 'missedCall']);

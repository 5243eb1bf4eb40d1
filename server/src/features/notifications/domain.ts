import { NotificationTypes, type NotificationType } from '../../../../lib/contract/notifications';

/** SPEC §9: notifications come 30 a page. */
export const notificationsPageSize = 30;

/** SPEC §9: likes and missed calls on the same target within an hour become one notification. */
export const mergeWindowMs = 60 * 60_000;

/**
 * The types merged into an earlier row, and what "the same target" means for each: likes of
 * one post (whoever liked it), missed calls from one caller.
 */
export const mergedTypes: Readonly<Partial<Record<NotificationType, 'post' | 'fromUser'>>> = {
  postLike: 'post',
  missedCall: 'fromUser',
};

/**
 * A followed creator's new post notifies at most this many followers (the most recent ones).
 * One INSERT … SELECT writes them, so a post costs a bounded amount of work however famous
 * its author is; followers beyond the cap still see the post on their private timeline.
 */
export const timelineFanOutLimit = 5_000;

export function isNotificationType(value: string): value is NotificationType {
  return (NotificationTypes as readonly string[]).includes(value);
}

/**
 * The `types` query: a comma-separated list of types. Null for "every type"; a string for
 * the first unknown type, which the route answers as invalid-request.
 */
export function parseTypes(raw: string | undefined): { types: NotificationType[] | null } | { unknown: string } {
  if (raw === undefined) return { types: null };
  const parts = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) return { types: null };
  const types: NotificationType[] = [];
  for (const part of parts) {
    if (!isNotificationType(part)) return { unknown: part };
    if (!types.includes(part)) types.push(part);
  }
  return { types };
}

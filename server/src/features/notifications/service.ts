import { and, desc, eq, gt, inArray, isNull, lte, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { Counts, Notification, NotificationPage, NotificationType } from '../../../../lib/contract/notifications';
import type { AppContext } from '../../context';
import { rowsOf, type Database } from '../../db';
import { TtlCache } from '../../http/ttl-cache';
import { blocks, follows, media, notifications, posts, profileVisits, users } from '../../db/schema';
import { profileColumns } from '../users/service';
import { toPublicProfile, type ProfileRow } from '../users/domain';
import { mergedTypes, mergeWindowMs, timelineFanOutLimit } from './domain';
import { UNREAD_COUNT_CAP } from '../../../../lib/contract/constants';
import { notificationRecorded, notificationToPush } from '../../realtime/after-commit';
import { chatCounts } from '../chat/counts';

/** The database or an open transaction: notifications are written with the change they tell of. */
export type Writer = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface NotificationInput {
  /** Who is notified. */
  userId: number;
  type: NotificationType;
  /** Who caused it; null for platform notifications (verification approved, …). */
  fromUserId?: number | null;
  postId?: number | null;
  commentId?: number | null;
  mediaId?: number | null;
  giftId?: number | null;
}

/**
 * Records a notification; every feature notifies through here. Nobody is notified of their
 * own doing, nor by someone in a block with them. Likes of one post and missed calls from one
 * caller within an hour of the last one grow that row's `count` and move its time instead of
 * adding rows (SPEC §9); the row then names the latest person.
 *
 * Two merges racing may leave two rows for one hour; that is harmless, and cheaper than
 * locking on every like.
 */
export async function recordNotification(db: Writer, input: NotificationInput): Promise<void> {
  const fromUserId = input.fromUserId ?? null;
  if (fromUserId !== null && fromUserId === input.userId) return;
  if (fromUserId !== null) {
    const blocked = await db
      .select({ one: sql<number>`1` })
      .from(blocks)
      .where(
        or(
          and(eq(blocks.blockerId, input.userId), eq(blocks.blockedId, fromUserId)),
          and(eq(blocks.blockerId, fromUserId), eq(blocks.blockedId, input.userId)),
        ),
      )
      .limit(1);
    if (blocked.length > 0) return;
  }
  // Times come from this process, like the read mark, so "unread" never depends on two clocks.
  const now = new Date();
  const target = mergedTypes[input.type];
  if (target !== undefined) {
    const sameTarget =
      target === 'post'
        ? input.postId == null
          ? isNull(notifications.postId)
          : eq(notifications.postId, input.postId)
        : fromUserId === null
          ? isNull(notifications.fromUserId)
          : eq(notifications.fromUserId, fromUserId);
    const latest = db
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, input.userId),
          eq(notifications.type, input.type),
          sameTarget,
          gt(notifications.updatedAt, new Date(now.getTime() - mergeWindowMs)),
          lte(notifications.updatedAt, now),
        ),
      )
      .orderBy(desc(notifications.updatedAt))
      .limit(1);
    const merged = await db
      .update(notifications)
      .set({ count: sql`${notifications.count} + 1`, updatedAt: now, fromUserId })
      .where(inArray(notifications.id, latest))
      .returning({ id: notifications.id });
    if (merged.length > 0) {
      notificationRecorded(db, input.userId);
      return;
    }
  }
  await db.insert(notifications).values({
    userId: input.userId,
    type: input.type,
    fromUserId,
    postId: input.postId ?? null,
    commentId: input.commentId ?? null,
    mediaId: input.mediaId ?? null,
    giftId: input.giftId ?? null,
    count: 1,
    createdAt: now,
    updatedAt: now,
  });
  // The user's open sockets get the new badge count once this write has committed.
  notificationRecorded(db, input.userId);
  notificationToPush(db, { userId: input.userId, type: input.type, fromUserId, postId: input.postId ?? null });
}

/**
 * Tells the author's followers of a new post (type `timeline`), in one statement and for at
 * most `timelineFanOutLimit` of the most recent followers. A scheduled post's rows carry its
 * publication time; lists leave out rows from the future, so they appear when the post does
 * and nothing has to wake up at that moment.
 */
export async function notifyFollowersOfPost(db: Writer, authorId: number, postId: number, publishedAt: Date): Promise<void> {
  await db.execute(sql`
    insert into ${notifications} (user_id, type, from_user_id, post_id, count, created_at, updated_at)
    select f.follower_id, 'timeline', ${authorId}, ${postId}, 1, ${publishedAt.toISOString()}::timestamptz, ${publishedAt.toISOString()}::timestamptz
    from ${follows} f
    where f.followed_id = ${authorId}
    order by f.created_at desc
    limit ${timelineFanOutLimit}`);
}

export interface NotificationsRequest {
  viewerId: number;
  types: readonly NotificationType[] | null;
  limit: number;
  offset: number;
}

export function createNotificationService(ctx: AppContext) {
  const { db } = ctx;
  /** Where each page this node served ended, for the page after it (offsets are kept by the client). */
  const cursors = new TtlCache<string, { id: number; updatedAt: Date }>(10 * 60_000, 20_000);

  /**
   * What the viewer may see: not from the future (scheduled posts), not from someone in a
   * block with them or whose account is gone, not about a deleted post.
   */
  function visible(viewerId: number, now: Date): SQL {
    return and(
      eq(notifications.userId, viewerId),
      lte(notifications.updatedAt, now),
      or(
        isNull(notifications.fromUserId),
        and(
          isNull(users.deletedAt),
          notExists(
            db
              .select({ one: sql`1` })
              .from(blocks)
              .where(
                or(
                  and(eq(blocks.blockerId, viewerId), eq(blocks.blockedId, notifications.fromUserId)),
                  and(eq(blocks.blockerId, notifications.fromUserId), eq(blocks.blockedId, viewerId)),
                ),
              ),
          ),
        ),
      ),
      or(isNull(notifications.postId), isNull(posts.deletedAt)),
    )!;
  }

  async function readMark(viewerId: number): Promise<Date | null> {
    const [row] = await db.select({ readAt: users.notificationsReadAt }).from(users).where(eq(users.id, viewerId)).limit(1);
    return row?.readAt ?? null;
  }

  /**
   * Unread notifications, counted up to UNREAD_COUNT_CAP (the badge shows "99+" beyond 99): the
   * walk down the viewer's index stops there, so a creator with half a million notifications
   * costs what one with a hundred does.
   */
  async function unreadCount(viewerId: number, readAt: Date | null, now: Date): Promise<number> {
    const unread = db
      .select({ one: sql`1` })
      .from(notifications)
      .leftJoin(users, eq(users.id, notifications.fromUserId))
      .leftJoin(posts, eq(posts.id, notifications.postId))
      .where(and(visible(viewerId, now), readAt === null ? undefined : gt(notifications.updatedAt, readAt)))
      .orderBy(desc(notifications.updatedAt), desc(notifications.id))
      .limit(UNREAD_COUNT_CAP)
      .as('unread');
    const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(unread);
    return row?.count ?? 0;
  }

  /**
   * The ids of one page, newest first. Each list is a walk down an index in the page's order —
   * (user, updatedAt, id) for every type, (user, type, updatedAt, id) for each asked type, merged
   * — reading the rows it skips and shows and no others. A page after one this node served starts
   * where that one ended (`cursors`) instead of counting its offset again.
   */
  async function pageIds(request: NotificationsRequest, now: Date): Promise<{ id: number; updatedAt: Date }[]> {
    const key = `${request.viewerId}|${request.types?.join(',') ?? '*'}|${request.limit}`;
    const after = request.offset > 0 ? cursors.get(`${key}|${request.offset}`) : undefined;
    const offset = after === undefined ? request.offset : 0;
    const older = after === undefined ? undefined : sql`(${notifications.updatedAt}, ${notifications.id}) < (${after.updatedAt.toISOString()}::timestamptz, ${after.id}::int)`;
    const walk = (type: SQL | undefined, rows: number) =>
      db
        .select({ id: notifications.id, updatedAt: notifications.updatedAt })
        .from(notifications)
        .leftJoin(users, eq(users.id, notifications.fromUserId))
        .leftJoin(posts, eq(posts.id, notifications.postId))
        .where(and(visible(request.viewerId, now), type, older))
        .orderBy(desc(notifications.updatedAt), desc(notifications.id))
        .limit(rows);
    let rows: { id: number; updatedAt: Date }[];
    if (request.types === null) {
      rows = await walk(undefined, request.limit).offset(offset);
    } else {
      const lists = rowsOf<{ id: number; updated_at: string | Date }>(
        await db.execute(sql`select n.id, n.updated_at from unnest(${`{${request.types.join(',')}}`}::text[]) as asked(type)
          cross join lateral (${walk(sql`${notifications.type} = asked.type`, offset + request.limit)}) n
          order by n.updated_at desc, n.id desc limit ${request.limit} offset ${offset}`),
      );
      rows = lists.map((row) => ({ id: row.id, updatedAt: new Date(row.updated_at) }));
    }
    const last = rows.at(-1);
    if (last !== undefined && rows.length === request.limit) cursors.set(`${key}|${request.offset + rows.length}`, last);
    return rows;
  }

  return {
    async page(request: NotificationsRequest): Promise<NotificationPage> {
      const now = new Date();
      const readAt = await readMark(request.viewerId);
      const ids = await pageIds(request, now);
      const rows =
        ids.length === 0
          ? []
          : await db
              .select({
                id: notifications.id,
                type: notifications.type,
                updatedAt: notifications.updatedAt,
                giftId: notifications.giftId,
                postId: notifications.postId,
                commentId: notifications.commentId,
                mediaId: notifications.mediaId,
                count: notifications.count,
                fromUser: profileColumns,
              })
              .from(notifications)
              .leftJoin(users, eq(users.id, notifications.fromUserId))
              .leftJoin(media, eq(media.id, users.avatarMediaId))
              .where(inArray(notifications.id, ids.map((row) => row.id)))
              .orderBy(desc(notifications.updatedAt), desc(notifications.id));
      const nowMs = now.getTime();
      const list: Notification[] = rows.map((row) => ({
        id: row.id,
        type: row.type as NotificationType,
        createdDate: row.updatedAt.getTime(),
        // A notification without a sender (platform news) has a row of nulls from the left join.
        fromUser: row.fromUser === null || row.fromUser.id === null ? null : toPublicProfile(row.fromUser as ProfileRow, nowMs),
        giftId: row.giftId,
        postId: row.postId,
        commentId: row.commentId,
        mediaId: row.mediaId,
        count: row.count,
        unread: readAt === null || row.updatedAt.getTime() > readAt.getTime(),
      }));
      return { notifications: list, unreadCount: await unreadCount(request.viewerId, readAt, now) };
    },

    /** Everything up to now counts as read (the `notificationsRead` of SPEC §7). */
    async markRead(viewerId: number, options: { exceptConnection?: string } = {}): Promise<void> {
      await db.update(users).set({ notificationsReadAt: new Date() }).where(eq(users.id, viewerId));
      // The viewer's other devices clear their badge too (the socket that asked is left out).
      ctx.realtime.publish(viewerId, { type: 'notificationsRead' }, { except: options.exceptConnection });
    },

    async counts(viewerId: number): Promise<Counts> {
      const now = new Date();
      const [notificationsCount, chat] = await Promise.all([readMark(viewerId).then((readAt) => unreadCount(viewerId, readAt, now)), chatCounts(db, viewerId)]);
      return { notifications: notificationsCount, ...chat };
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;


/**
 * A logged-in viewer opened someone else's profile: one visit per viewer, profile and day
 * (UTC), and a `profileVisit` notification with the first visit of the day (SPEC §5: a
 * profile visit counts once, never one's own).
 */
export async function recordProfileVisit(db: Database, visitorId: number, profileId: number, now = new Date()): Promise<void> {
  if (visitorId === profileId) return;
  const day = now.toISOString().slice(0, 10);
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(profileVisits)
      .values({ visitorId, profileId, day, createdAt: now })
      .onConflictDoNothing()
      .returning({ day: profileVisits.day });
    if (inserted.length > 0) await recordNotification(tx, { userId: profileId, type: 'profileVisit', fromUserId: visitorId });
  });
}

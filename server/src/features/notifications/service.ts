import { and, eq, gt, isNull, lte, notExists, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Counts, Notification, NotificationPage, NotificationType } from '../../../../lib/contract/notifications';
import type { AppContext } from '../../context';
import { rowsOf, type Database } from '../../db';
import { pgArray } from '../../db/arrays';
import type { Tx as Writer } from '../../db/tx';
import { preparedStatement } from '../../db/prepared';
import { PageCursors } from '../../http/page-cursors';
import { blocks, follows, media, notifications, posts, profileVisits, users } from '../../db/schema';
import { profileColumns } from '../users/service';
import { toPublicProfile, type ProfileRow } from '../users/domain';
import { mergedTypes, mergeWindowMs, timelineFanOutLimit } from './domain';
import { UNREAD_COUNT_CAP } from '../../../../lib/contract/constants';
import { notificationRecorded, notificationToPush } from '../../realtime/after-commit';
import { chatCounts } from '../chat/counts';

/** The database or an open transaction: notifications are written with the change they tell of. */
export type { Writer };

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
  // Times come from this process, like the read mark, so "unread" never depends on two clocks.
  const now = new Date();
  const at = sql`${now.toISOString()}::timestamptz`;
  // One statement (it runs inside every gift's and like's transaction): the block check, the
  // merge into the latest row of the same target, or else the new row.
  const blocked =
    fromUserId === null
      ? sql`false`
      : sql`exists (select 1 from ${blocks} where (${blocks.blockerId} = ${input.userId}::int and ${blocks.blockedId} = ${fromUserId}::int) or (${blocks.blockerId} = ${fromUserId}::int and ${blocks.blockedId} = ${input.userId}::int))`;
  const target = mergedTypes[input.type];
  let merge = sql`select null::integer as id where false`;
  if (target !== undefined) {
    const sameTarget =
      target === 'post'
        ? input.postId == null
          ? sql`post_id is null`
          : sql`post_id = ${input.postId}::int`
        : fromUserId === null
          ? sql`from_user_id is null`
          : sql`from_user_id = ${fromUserId}::int`;
    merge = sql`update ${notifications} set count = count + 1, updated_at = ${at}, from_user_id = ${fromUserId}::int
      where id in (
        select id from ${notifications}
        where user_id = ${input.userId}::int and type = ${input.type} and ${sameTarget}
          and updated_at > ${new Date(now.getTime() - mergeWindowMs).toISOString()}::timestamptz and updated_at <= ${at}
        order by updated_at desc limit 1)
        and not (select blocked from b)
      returning id`;
  }
  const [row] = rowsOf<{ blocked: boolean; inserted: boolean }>(
    await db.execute(sql`
      with b as (select ${blocked} as blocked), m as (${merge}), i as (
        insert into ${notifications} (user_id, type, from_user_id, post_id, comment_id, media_id, gift_id, count, created_at, updated_at)
        select ${input.userId}::int, ${input.type}, ${fromUserId}::int, ${input.postId ?? null}::int, ${input.commentId ?? null}::int, ${input.mediaId ?? null}::int,
          ${input.giftId ?? null}::int, 1, ${at}, ${at}
        where not (select blocked from b) and not exists (select 1 from m)
        returning id
      )
      select (select blocked from b) as blocked, exists (select 1 from i) as inserted`),
  );
  if (row === undefined || row.blocked) return;
  // The user's open sockets get the new badge count once this write has committed.
  notificationRecorded(db, input.userId);
  if (row.inserted) notificationToPush(db, { userId: input.userId, type: input.type, fromUserId, postId: input.postId ?? null });
}

/**
 * `recordNotification` for many notifications of kinds that never merge (a batch of gifts on
 * posts), one row each: one statement. The same rules hold: nobody is notified of their own
 * doing, nor by someone in a block with them.
 */
export async function recordNotifications(db: Writer, inputs: readonly NotificationInput[]): Promise<void> {
  if (inputs.length === 0) return;
  for (const input of inputs) if (mergedTypes[input.type] !== undefined) throw new Error(`Notifications of type ${input.type} merge: record them one by one`);
  const at = new Date().toISOString();
  const inserted = rowsOf<{ user_id: number; type: string; from_user_id: number | null; post_id: number | null }>(
    await db.execute(sql`
      insert into ${notifications} (user_id, type, from_user_id, post_id, comment_id, media_id, gift_id, count, created_at, updated_at)
      select v.user_id, v.type, v.from_user_id, v.post_id, v.comment_id, v.media_id, v.gift_id, 1, ${at}::timestamptz, ${at}::timestamptz
      from unnest(${pgArray(inputs.map((i) => i.userId))}::int[], ${pgArray(inputs.map((i) => i.type))}::text[], ${pgArray(inputs.map((i) => i.fromUserId ?? null))}::int[], ${pgArray(inputs.map((i) => i.postId ?? null))}::int[],
        ${pgArray(inputs.map((i) => i.commentId ?? null))}::int[], ${pgArray(inputs.map((i) => i.mediaId ?? null))}::int[], ${pgArray(inputs.map((i) => i.giftId ?? null))}::int[]) as v(user_id, type, from_user_id, post_id, comment_id, media_id, gift_id)
      where v.from_user_id is distinct from v.user_id
        and not exists (select 1 from ${blocks} where (${blocks.blockerId} = v.user_id and ${blocks.blockedId} = v.from_user_id) or (${blocks.blockerId} = v.from_user_id and ${blocks.blockedId} = v.user_id))
      returning user_id, type, from_user_id, post_id`),
  );
  for (const row of inserted) {
    notificationRecorded(db, Number(row.user_id));
    notificationToPush(db, { userId: Number(row.user_id), type: row.type, fromUserId: row.from_user_id === null ? null : Number(row.from_user_id), postId: row.post_id === null ? null : Number(row.post_id) });
  }
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
  const cursors = new PageCursors<{ id: number; updatedAt: Date }>();

  /** The lists' index order (`desc nulls last`, as the indexes are built: docs/performance.md). */
  const newestNotificationsFirst = [sql`${notifications.updatedAt} desc nulls last`, sql`${notifications.id} desc nulls last`];
  const viewer = sql.placeholder('viewer');
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  /** The viewer's read mark, in the statement that needs it: notifications after it are unread. */
  const readMark = sql`coalesce((select ${users.notificationsReadAt} from ${users} where ${users.id} = ${viewer}), '-infinity'::timestamptz)`;

  /**
   * What the viewer may see: not from the future (scheduled posts), not from someone in a
   * block with them or whose account is gone, not about a deleted post. (With `users` and
   * `posts` joined to the sender and the post.)
   */
  const visible: SQL = and(
    eq(notifications.userId, viewer),
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
                and(eq(blocks.blockerId, viewer), eq(blocks.blockedId, notifications.fromUserId)),
                and(eq(blocks.blockerId, notifications.fromUserId), eq(blocks.blockedId, viewer)),
              ),
            ),
        ),
      ),
    ),
    or(isNull(notifications.postId), isNull(posts.deletedAt)),
  )!;

  /** A walk down the viewer's visible notifications, newest first, `where` narrowing it; at most `rows`. */
  const walk = (where: SQL | undefined, rows: number | Placeholder) =>
    db
      .select({ id: notifications.id, updatedAt: notifications.updatedAt })
      .from(notifications)
      .leftJoin(users, eq(users.id, notifications.fromUserId))
      .leftJoin(posts, eq(posts.id, notifications.postId))
      .where(and(visible, where))
      .orderBy(...newestNotificationsFirst)
      .limit(rows);
  const older = sql`(${notifications.updatedAt}, ${notifications.id}) < (${sql.placeholder('afterAt')}::timestamptz, ${sql.placeholder('afterId')}::int)`;

  /**
   * Unread notifications, counted up to UNREAD_COUNT_CAP (the badge shows "99+" beyond 99): the
   * walk down the viewer's index stops there, so a creator with half a million notifications
   * costs what one with a hundred does.
   */
  async function unreadCount(viewerId: number, at: Date): Promise<number> {
    const [row] = await preparedStatement(db, 'notifications:unread', () =>
      db.select({ count: sql<number>`count(*)::int` }).from(walk(gt(notifications.updatedAt, readMark), UNREAD_COUNT_CAP).as('unread')),
    ).execute({ viewer: viewerId, now: at.toISOString() });
    return row?.count ?? 0;
  }

  /**
   * The ids of one page, newest first. Each list is a walk down an index in the page's order —
   * (user, updatedAt, id) for every type, (user, type, updatedAt, id) for each asked type, merged
   * — reading the rows it skips and shows and no others. A page after one this node served starts
   * where that one ended (`cursors`) instead of counting its offset again.
   */
  async function pageIds(request: NotificationsRequest, at: Date): Promise<{ id: number; updatedAt: Date }[]> {
    const list = `${request.viewerId}|${request.types?.join(',') ?? '*'}|${request.limit}`;
    const after = cursors.after(list, request.offset);
    const values = {
      viewer: request.viewerId,
      now: at.toISOString(),
      limit: request.limit,
      offset: after === undefined ? request.offset : 0,
      reach: (after === undefined ? request.offset : 0) + request.limit,
      ...(after === undefined ? {} : { afterAt: after.updatedAt.toISOString(), afterId: after.id }),
      ...(request.types === null ? {} : { types: `{${request.types.join(',')}}` }),
    };
    // A page counted from an offset is planned for that offset (an unnamed statement): a plan
    // made once for every offset would read the whole list to skip it.
    const counted = after === undefined && request.offset > 0;
    const variant = `${request.types === null ? 'all' : 'types'}:${after === undefined ? (counted ? 'deep' : 'first') : 'after'}`;
    const keyset = after === undefined ? undefined : older;
    const rows: { id: number; updatedAt: Date | string }[] = await preparedStatement(db, `notifications:page:${variant}`, () => {
      if (request.types === null) return walk(keyset, sql.placeholder('limit')).offset(sql.placeholder('offset'));
      const merged = sql`(select n.id, n.updated_at from unnest(${sql.placeholder('types')}::text[]) as asked(type)
        cross join lateral (${walk(and(sql`${notifications.type} = asked.type`, keyset), sql.placeholder('reach'))}) n
        order by n.updated_at desc, n.id desc limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}) page`;
      return db.select({ id: sql<number>`page.id`, updatedAt: sql<Date | string>`page.updated_at` }).from(merged);
    }, !counted).execute(values);
    const page = rows.map((row) => ({ id: row.id, updatedAt: new Date(row.updatedAt) }));
    cursors.served(list, request.offset, request.limit, page.length, page.at(-1));
    return page;
  }

  return {
    async page(request: NotificationsRequest): Promise<NotificationPage> {
      const at = new Date();
      const ids = await pageIds(request, at);
      const rows =
        ids.length === 0
          ? []
          : await preparedStatement(db, 'notifications:rows', () =>
              db
                .select({
                  id: notifications.id,
                  type: notifications.type,
                  updatedAt: notifications.updatedAt,
                  giftId: notifications.giftId,
                  postId: notifications.postId,
                  commentId: notifications.commentId,
                  mediaId: notifications.mediaId,
                  count: notifications.count,
                  unread: sql<boolean>`${notifications.updatedAt} > ${readMark}`,
                  fromUser: profileColumns,
                })
                .from(notifications)
                .leftJoin(users, eq(users.id, notifications.fromUserId))
                .leftJoin(media, eq(media.id, users.avatarMediaId))
                .where(sql`${notifications.id} = any(${sql.placeholder('ids')}::int[])`)
                .orderBy(...newestNotificationsFirst),
            ).execute({ viewer: request.viewerId, ids: `{${ids.map((row) => row.id).join(',')}}` });
      const nowMs = at.getTime();
      const list: Notification[] = rows.map((row) => ({
        id: row.id,
        type: row.type as NotificationType,
        createdDate: new Date(row.updatedAt).getTime(),
        // A notification without a sender (platform news) has a row of nulls from the left join.
        fromUser: row.fromUser === null || row.fromUser.id === null ? null : toPublicProfile(row.fromUser as ProfileRow, nowMs),
        giftId: row.giftId,
        postId: row.postId,
        commentId: row.commentId,
        mediaId: row.mediaId,
        count: row.count,
        unread: row.unread,
      }));
      return { notifications: list, unreadCount: await unreadCount(request.viewerId, at) };
    },

    /** Everything up to now counts as read (the `notificationsRead` of SPEC §7). */
    async markRead(viewerId: number, options: { exceptConnection?: string } = {}): Promise<void> {
      await db.update(users).set({ notificationsReadAt: new Date() }).where(eq(users.id, viewerId));
      // The viewer's other devices clear their badge too (the socket that asked is left out).
      ctx.realtime.publish(viewerId, { type: 'notificationsRead' }, { except: options.exceptConnection });
    },

    async counts(viewerId: number): Promise<Counts> {
      const [notificationsCount, chat] = await Promise.all([unreadCount(viewerId, new Date()), chatCounts(db, viewerId)]);
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

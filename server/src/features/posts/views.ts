import { and, eq, inArray, isNull, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { MediaView } from '../../../../lib/contract/media';
import type { Post } from '../../../../lib/contract/posts';
import type { AppContext } from '../../context';
import type { Database } from '../../db';
import { preparedStatement } from '../../db/prepared';
import {
  follows,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransfers,
  media,
  mediaUnlocks,
  postLikes,
  postMedia,
  posts,
  subscriptions,
  users,
  type MediaRow,
} from '../../db/schema';
import type { UnlockKeys } from '../../media/unlock-keys';
import { profileColumns } from '../users/service';
import { toPublicProfile } from '../users/domain';
import { RENEWAL_GRACE_MS } from '../subscriptions/domain';

/**
 * Turning post ids into the posts a viewer sees. Every list of posts (timelines, profile
 * grids, search, single posts) selects ids with its own query — filters, order, paging —
 * and hands them here, so the shape of a post and its lock rules live in one place.
 */

/** The media fields a view needs. */
export type MediaViewRow = Pick<
  MediaRow,
  'id' | 'hash' | 'format' | 'ownerId' | 'status' | 'mediaType' | 'price' | 'aspectRatio' | 'dominantColor' | 'filter' | 'duration' | 'nsfw' | 'rejectReason'
>;

/**
 * A media as `viewerId` sees it. A priced media is locked unless the viewer owns it or
 * unlocked it (a paid unlock, or an active subscription to its owner); only then does the
 * view carry the `k` key that opens the original. `earnedCents` is what its owner earned
 * from unlocks of it, shown to the owner only.
 */
export function toMediaView(row: MediaViewRow, viewerId: number | null, unlocked: boolean, keys: UnlockKeys, now = Date.now(), earnedCents = 0): MediaView {
  const isOwner = viewerId !== null && row.ownerId === viewerId;
  const open = row.price > 0 && viewerId !== null && (isOwner || unlocked);
  const view: MediaView = {
    mediaId: row.id,
    mediaHash: row.hash,
    format: row.format,
    mediaUnlockHash: open ? keys.issue(row.hash, viewerId, now) : null,
    mediaStatus: row.status,
    mediaType: row.mediaType as MediaView['mediaType'],
    mediaPrice: row.price,
    mediaIsOwner: isOwner,
    mediaAspectRatio: row.aspectRatio,
    mediaDominantColor: row.dominantColor,
    mediaFilter: row.filter,
    mediaDuration: row.duration,
    earnedCents: isOwner ? earnedCents : 0,
    nsfw: row.nsfw,
  };
  if (row.status === 4 && row.rejectReason !== null) view.rejectReason = row.rejectReason as NonNullable<MediaView['rejectReason']>;
  return view;
}

export const mediaViewColumns = {
  id: media.id,
  hash: media.hash,
  format: media.format,
  ownerId: media.ownerId,
  status: media.status,
  mediaType: media.mediaType,
  price: media.price,
  aspectRatio: media.aspectRatio,
  dominantColor: media.dominantColor,
  filter: media.filter,
  duration: media.duration,
  nsfw: media.nsfw,
  rejectReason: media.rejectReason,
};

/**
 * Subscription statuses that open the creator's locked post media (SPEC §4, 20–30 is an active
 * subscriber): active and cancelled until the period ends; a failed renewal (23) through the
 * grace in which it is retried.
 */
export const unlockingSubscriptionStatuses: readonly number[] = [21, 23, 24];

type Reader = Pick<Database, 'select'>;

/**
 * The condition "`viewerId` may open the media in `media`": a paid unlock of it, or — for a
 * post media — a subscription to its owner that is active at `now`.
 */
function openedBy(viewerId: number | Placeholder, now: Date | ClockPlaceholders): SQL {
  const [at, graceStart] =
    now instanceof Date
      ? [sql`${now.toISOString()}::timestamptz`, sql`${new Date(now.getTime() - RENEWAL_GRACE_MS).toISOString()}::timestamptz`]
      : [sql`${now.now}::timestamptz`, sql`${now.graceStart}::timestamptz`];
  return or(
    sql`exists(select 1 from ${mediaUnlocks} where ${mediaUnlocks.userId} = ${viewerId} and ${mediaUnlocks.mediaId} = ${media.id})`,
    and(
      eq(media.kind, 'post'),
      sql`exists(select 1 from ${subscriptions} where ${subscriptions.subscriberId} = ${viewerId} and ${subscriptions.creatorId} = ${media.ownerId}
        and ${inArray(subscriptions.status, [...unlockingSubscriptionStatuses])}
        and ${subscriptions.periodEnd} > case when ${subscriptions.status} = 23 then ${graceStart} else ${at} end)`,
    ),
  )!;
}

/** The moment a prepared statement's subscription check is made at, as its parameters. */
interface ClockPlaceholders {
  now: Placeholder;
  graceStart: Placeholder;
}

/** Media named by id, or the media of some posts. */
type MediaSet = { mediaIds: readonly number[] } | { postIds: readonly number[] };

function mediaIdsOf(set: MediaSet) {
  return 'mediaIds' in set ? [...set.mediaIds] : sql`(select ${postMedia.mediaId} from ${postMedia} where ${inArray(postMedia.postId, [...set.postIds])})`;
}

/** Ids of the media in `set` that `viewerId` unlocked or is subscribed to; one query. */
function unlockedQuery(db: Reader, viewerId: number, set: MediaSet, now: Date) {
  return db
    .select({ mediaId: media.id })
    .from(media)
    .where(and(inArray(media.id, mediaIdsOf(set)), openedBy(viewerId, now)));
}

/**
 * Ids of the media in `mediaIds` that `viewerId` may open: unlocked by a payment, or post media
 * of a creator the viewer has an active subscription to. `db` is the transaction when called
 * inside one.
 */
export async function unlockedMediaIds(ctx: AppContext, viewerId: number, mediaIds: readonly number[], db: Reader = ctx.db): Promise<Set<number>> {
  if (mediaIds.length === 0) return new Set();
  const rows = await unlockedQuery(db, viewerId, { mediaIds }, ctx.clock.now());
  return new Set(rows.map((r) => r.mediaId));
}

/**
 * What `ownerId` earned from unlocks of each media in `set`, read from the ledger: the entries
 * on the owner's earnings account of `unlock` transfers naming the media. One query. (The
 * owner is matched as `coalesce(user_id, 0)`, the expression of the accounts' owner index.)
 * Chat media earn through `chat-media` unlocks, post media through `unlock`.
 */
function earnedQuery(db: Reader, ownerId: number, set: MediaSet) {
  const mediaId = sql<string>`${ledgerTransfers.meta}->>'mediaId'`;
  const ids =
    'mediaIds' in set
      ? sql`(${sql.join(set.mediaIds.map((id) => sql`${String(id)}`), sql`, `)})`
      : sql`(select ${postMedia.mediaId}::text from ${postMedia} where ${inArray(postMedia.postId, [...set.postIds])})`;
  return db
    .select({ mediaId, cents: sql<string>`sum(${ledgerEntries.amount})` })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, and(eq(ledgerAccounts.id, ledgerEntries.accountId), eq(ledgerAccounts.kind, 'earnings'), sql`coalesce(${ledgerAccounts.userId}, 0) = ${ownerId}`))
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
    .where(and(inArray(ledgerTransfers.kind, ['unlock', 'chat-media']), eq(ledgerTransfers.counterpartyId, ownerId), sql`${mediaId} in ${ids}`))
    .groupBy(mediaId);
}

/** Cents `ownerId` earned from unlocks of each of `mediaIds` (absent: nothing earned). */
export async function earnedCentsByMedia(ctx: AppContext, ownerId: number, mediaIds: readonly number[], db: Reader = ctx.db): Promise<Map<number, number>> {
  if (mediaIds.length === 0) return new Map();
  const rows = await earnedQuery(db, ownerId, { mediaIds });
  return new Map(rows.map((r) => [Number(r.mediaId), Number(r.cents)]));
}

/** A media of the post view's statement, with what the viewer may do with it. */
type MediaViewJson = MediaViewRow & { unlocked: boolean; earned: number };

/**
 * The statement behind every list of posts: the posts `which` selects (a condition on `posts`),
 * each with its author, its media as a JSON array in their order and, for a logged-in viewer,
 * whether they liked it, follow its author, may open each media and what each of their own
 * media earned. One statement, one round trip: on PostgreSQL every query costs a socket write
 * and a wake-up of both processes, which under load cost more than the queries themselves.
 *
 * The viewer and the moment are placeholders (`viewer`, `now`, `graceStart`: see
 * {@link viewerValues}), so each kind of list builds its statement once and prepares it.
 */
function postViewQuery(db: Database, which: SQL, forViewer: boolean) {
  const viewer = sql.placeholder('viewer');
  const viewerMedia = forViewer
    ? sql`, 'unlocked', ${openedBy(viewer, { now: sql.placeholder('now'), graceStart: sql.placeholder('graceStart') })},
      'earned', case when ${media.ownerId} = ${viewer} then (${earnedByOne(viewer)}) else 0 end`
    : sql``;
  const mediaJson = sql<MediaViewJson[]>`coalesce((
    select json_agg(json_build_object(
      'id', ${media.id}, 'hash', ${media.hash}, 'format', ${media.format}, 'ownerId', ${media.ownerId}, 'status', ${media.status},
      'mediaType', ${media.mediaType}, 'price', ${media.price}, 'aspectRatio', ${media.aspectRatio}, 'dominantColor', ${media.dominantColor},
      'filter', ${media.filter}, 'duration', ${media.duration}, 'nsfw', ${media.nsfw}, 'rejectReason', ${media.rejectReason}${viewerMedia}
    ) order by ${postMedia.position})
    from ${postMedia} join ${media} on ${media.id} = ${postMedia.mediaId}
    where ${postMedia.postId} = ${posts.id}), '[]'::json)`;
  return db
    .select({
      post: {
        id: posts.id,
        text: posts.text,
        userId: posts.userId,
        startDate: posts.startDate,
        publishedAt: posts.publishedAt,
        likesCount: posts.likesCount,
        commentsCount: posts.commentsCount,
        rootCommentsCount: posts.rootCommentsCount,
        giftsCount: posts.giftsCount,
      },
      author: profileColumns,
      media: mediaJson,
      liked: forViewer
        ? sql<boolean>`exists(select 1 from ${postLikes} where ${postLikes.userId} = ${viewer} and ${postLikes.postId} = ${posts.id})`
        : sql<boolean>`false`,
      followed: forViewer
        ? sql<boolean>`exists(select 1 from ${follows} where ${follows.followerId} = ${viewer} and ${follows.followedId} = ${posts.userId})`
        : sql<boolean>`false`,
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.userId))
    .leftJoin(media, eq(media.id, users.avatarMediaId))
    .where(and(which, isNull(posts.deletedAt), isNull(users.deletedAt)));
}

/** What `ownerId` earned from unlocks of the media in scope (`media`), as earnedQuery reads it for one. */
function earnedByOne(ownerId: Placeholder): SQL {
  return sql`select coalesce(sum(${ledgerEntries.amount}), 0) from ${ledgerEntries}
    join ${ledgerAccounts} on ${ledgerAccounts.id} = ${ledgerEntries.accountId} and ${ledgerAccounts.kind} = 'earnings' and coalesce(${ledgerAccounts.userId}, 0) = ${ownerId}
    join ${ledgerTransfers} on ${ledgerTransfers.id} = ${ledgerEntries.transferId}
    where ${inArray(ledgerTransfers.kind, ['unlock', 'chat-media'])} and ${ledgerTransfers.counterpartyId} = ${ownerId}
      and ${ledgerTransfers.meta}->>'mediaId' = ${media.id}::text`;
}

type PostViewRow = Awaited<ReturnType<typeof postViewQuery>>[number];

/** The values of the viewer's placeholders in a post statement (a visitor's statement has none). */
export function viewerValues(ctx: AppContext, viewerId: number | null): Record<string, unknown> {
  if (viewerId === null) return {};
  const now = ctx.clock.now();
  return { viewer: viewerId, now: now.toISOString(), graceStart: new Date(now.getTime() - RENEWAL_GRACE_MS).toISOString() };
}

function toPost(ctx: AppContext, row: PostViewRow, viewerId: number | null, now: number): Post {
  const { post, author } = row;
  const startMs = post.startDate?.getTime() ?? null;
  return {
    id: post.id,
    text: post.text,
    user: { ...toPublicProfile(author, now), isFollowed: row.followed },
    media: row.media.map((m) => toMediaView(m, viewerId, m.unlocked === true, ctx.unlockKeys, now, Number(m.earned ?? 0))),
    totalLikesCount: post.likesCount,
    likedByMe: row.liked,
    totalCommentsCount: post.commentsCount,
    totalGiftsCount: post.giftsCount,
    commentsCount: post.rootCommentsCount,
    startDate: startMs !== null && startMs > now ? startMs : null,
    ts: post.publishedAt.getTime(),
    isMy: viewerId !== null && post.userId === viewerId,
  };
}

/**
 * The posts with the given ids as `viewerId` (null for a visitor) sees them, in the order of
 * `ids`. Deleted posts and posts whose author is deleted are left out; callers decide which
 * ids a viewer may see (scheduled posts, blocks), this function only shapes them.
 */
export async function loadPosts(ctx: AppContext, ids: readonly number[], viewerId: number | null, now = Date.now()): Promise<Post[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const statement = preparedStatement(ctx.db, `posts-by-id:${viewerId === null ? 'visitor' : 'viewer'}`, () =>
    postViewQuery(ctx.db, sql`${posts.id} = any(${sql.placeholder('ids')}::int[])`, viewerId !== null),
  );
  const rows = await statement.execute({ ids: unique, ...viewerValues(ctx, viewerId) });
  const byId = new Map<number, Post>();
  for (const row of rows) byId.set(row.post.id, toPost(ctx, row, viewerId, now));
  return unique.map((id) => byId.get(id)).filter((p): p is Post => p !== undefined);
}

/**
 * A page of posts in one statement: `ids` is a subquery of post ids, already filtered,
 * ordered and limited by its list, with its values as placeholders filled from `values`; the
 * page comes newest first, as every list orders it. `key` names the kind of list (one
 * prepared statement each, with and without a viewer).
 */
export async function loadPostsOf(
  ctx: AppContext,
  key: string,
  ids: () => SQL,
  values: Record<string, unknown>,
  viewerId: number | null,
  options: { named?: boolean; now?: number } = {},
): Promise<Post[]> {
  const now = options.now ?? Date.now();
  const statement = preparedStatement(
    ctx.db,
    `page:${key}:${viewerId === null ? 'visitor' : 'viewer'}`,
    () =>
      postViewQuery(ctx.db, sql`${posts.id} in (${ids()})`, viewerId !== null).orderBy(
        sql`${posts.publishedAt} desc nulls last`,
        sql`${posts.id} desc nulls last`,
      ),
    options.named ?? true,
  );
  const rows = await statement.execute({ ...values, ...viewerValues(ctx, viewerId) });
  return rows.map((row) => toPost(ctx, row, viewerId, now));
}

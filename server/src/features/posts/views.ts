import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { MediaView } from '../../../../lib/contract/media';
import type { Post } from '../../../../lib/contract/posts';
import type { AppContext } from '../../context';
import type { Database } from '../../db';
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
function openedBy(viewerId: number, now: Date): SQL {
  return or(
    sql`exists(select 1 from ${mediaUnlocks} where ${mediaUnlocks.userId} = ${viewerId} and ${mediaUnlocks.mediaId} = ${media.id})`,
    and(
      eq(media.kind, 'post'),
      sql`exists(select 1 from ${subscriptions} where ${subscriptions.subscriberId} = ${viewerId} and ${subscriptions.creatorId} = ${media.ownerId}
        and ${inArray(subscriptions.status, [...unlockingSubscriptionStatuses])}
        and ${subscriptions.periodEnd} > case when ${subscriptions.status} = 23 then ${new Date(now.getTime() - RENEWAL_GRACE_MS).toISOString()}::timestamptz else ${now.toISOString()}::timestamptz end)`,
    ),
  )!;
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

/**
 * The posts with the given ids as `viewerId` (null for a visitor) sees them, in the order of
 * `ids`. Deleted posts and posts whose author is deleted are left out; callers decide which
 * ids a viewer may see (scheduled posts, blocks), this function only shapes them.
 */
export async function loadPosts(ctx: AppContext, ids: readonly number[], viewerId: number | null, now = Date.now()): Promise<Post[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const { db } = ctx;
  // Every query below needs only the ids, so they run side by side: on PostgreSQL each takes
  // its own pooled connection, and a page of posts costs one round trip, not five.
  const postsQuery = db
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
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.userId))
    .leftJoin(media, eq(media.id, users.avatarMediaId))
    .where(and(inArray(posts.id, unique), isNull(posts.deletedAt), isNull(users.deletedAt)));
  const mediaQuery = db
    .select({ postId: postMedia.postId, media: mediaViewColumns })
    .from(postMedia)
    .innerJoin(media, eq(media.id, postMedia.mediaId))
    .where(inArray(postMedia.postId, unique))
    .orderBy(asc(postMedia.postId), asc(postMedia.position));
  const viewerQueries =
    viewerId === null
      ? null
      : Promise.all([
          db
            .select({ postId: postLikes.postId })
            .from(postLikes)
            .where(and(eq(postLikes.userId, viewerId), inArray(postLikes.postId, unique))),
          db
            .select({ id: follows.followedId })
            .from(follows)
            .where(
              and(
                eq(follows.followerId, viewerId),
                inArray(follows.followedId, db.select({ id: posts.userId }).from(posts).where(inArray(posts.id, unique))),
              ),
            ),
          unlockedQuery(db, viewerId, { postIds: unique }, ctx.clock.now()),
          earnedQuery(db, viewerId, { postIds: unique }),
        ]);
  const [rows, mediaRows, viewerRows] = await Promise.all([postsQuery, mediaQuery, viewerQueries]);
  if (rows.length === 0) return [];

  const liked = new Set(viewerRows?.[0].map((r) => r.postId));
  const followed = new Set(viewerRows?.[1].map((r) => r.id));
  const unlocked = new Set(viewerRows?.[2].map((r) => r.mediaId));
  const earned = new Map(viewerRows?.[3].map((r) => [Number(r.mediaId), Number(r.cents)]));

  const mediaByPost = new Map<number, MediaView[]>();
  for (const { postId, media: m } of mediaRows) {
    const list = mediaByPost.get(postId) ?? [];
    list.push(toMediaView(m, viewerId, unlocked.has(m.id), ctx.unlockKeys, now, earned.get(m.id) ?? 0));
    mediaByPost.set(postId, list);
  }

  const byId = new Map<number, Post>();
  for (const { post, author } of rows) {
    const startMs = post.startDate?.getTime() ?? null;
    byId.set(post.id, {
      id: post.id,
      text: post.text,
      user: { ...toPublicProfile(author, now), isFollowed: followed.has(post.userId) },
      media: mediaByPost.get(post.id) ?? [],
      totalLikesCount: post.likesCount,
      likedByMe: liked.has(post.id),
      totalCommentsCount: post.commentsCount,
      totalGiftsCount: post.giftsCount,
      commentsCount: post.rootCommentsCount,
      startDate: startMs !== null && startMs > now ? startMs : null,
      ts: post.publishedAt.getTime(),
      isMy: viewerId !== null && post.userId === viewerId,
    });
  }
  return unique.map((id) => byId.get(id)).filter((p): p is Post => p !== undefined);
}

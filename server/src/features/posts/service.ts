import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { CreatedPost, CreatePostBody, LikeState, Post, PostStatsBody } from '../../../../lib/contract/posts';
import type { PublicProfile } from '../../../../lib/contract/users';
import { MediaStatus } from '../../../../lib/contract/media';
import type { AppContext } from '../../context';
import { follows, media, postHashtags, postLikes, postMedia, posts, postStats, users } from '../../db/schema';
import { AppError, errors } from '../../errors';
import { notifyFollowersOfPost, recordNotification, type Writer } from '../notifications/service';
import { timelineFanOutLimit } from '../notifications/domain';
import { profileColumns } from '../users/service';
import { toPublicProfile } from '../users/domain';
import { withPricedMedia, type PricedMedia } from '../media/pricing';
import { notBlockedWith, postDoesntExist, visiblePost } from './access';
import { normaliseText, parseHashtags, planPrice, planSchedule } from './domain';
import { loadPosts } from './views';

const readyStatuses: readonly number[] = [MediaStatus.ready, MediaStatus.nsfwReady];

async function replaceHashtags(tx: Writer, postId: number, text: string, publishedAt: Date): Promise<void> {
  await tx.delete(postHashtags).where(eq(postHashtags.postId, postId));
  const tags = parseHashtags(text);
  if (tags.length > 0) await tx.insert(postHashtags).values(tags.map((tag) => ({ postId, tag, publishedAt })));
}

export function createPostService(ctx: AppContext) {
  const { db } = ctx;

  async function one(postId: number, viewerId: number | null): Promise<Post> {
    const [post] = await loadPosts(ctx, [postId], viewerId);
    if (post === undefined) throw postDoesntExist();
    return post;
  }

  /**
   * Checks the media of a new post inside its transaction and locks them, so two posts sent
   * at once cannot both take the same picture.
   */
  async function claimMedia(tx: Writer, ownerId: number, mediaIds: readonly number[]): Promise<PricedMedia[]> {
    if (mediaIds.length === 0) return [];
    const rows = await tx
      .select({ id: media.id, ownerId: media.ownerId, kind: media.kind, status: media.status, hash: media.hash, format: media.format, mediaType: media.mediaType, price: media.price })
      .from(media)
      .where(inArray(media.id, [...mediaIds]))
      .for('update');
    // Someone else's media answers like a missing one: ids must not reveal what others uploaded.
    if (rows.length !== mediaIds.length || rows.some((row) => row.ownerId !== ownerId || row.kind !== 'post')) throw new AppError('upload-not-found');
    if (rows.some((row) => !readyStatuses.includes(row.status))) throw new AppError('media-not-ready');
    const taken = await tx
      .select({ mediaId: postMedia.mediaId })
      .from(postMedia)
      .innerJoin(posts, eq(posts.id, postMedia.postId))
      .where(and(inArray(postMedia.mediaId, [...mediaIds]), isNull(posts.deletedAt)))
      .limit(1);
    if (taken.length > 0) throw errors.invalidRequest({ location: 'body', field: 'mediaIds', reason: 'in-use', value: taken[0]!.mediaId });
    return rows;
  }

  /** `newPost` to the author's most recent followers (as many as get the timeline notification). */
  async function announcePost(authorId: number, postId: number): Promise<void> {
    const rows = await db
      .select({ id: follows.followerId })
      .from(follows)
      .where(eq(follows.followedId, authorId))
      .orderBy(desc(follows.createdAt))
      .limit(timelineFanOutLimit);
    ctx.realtime.publish(
      rows.map((row) => row.id),
      { type: 'newPost', postId, userId: authorId },
    );
  }

  return {
    one,

    /**
     * The websocket's `newPost`: the author announces a published post of theirs to their
     * followers again. Someone else's post is forbidden, a scheduled one post-scheduled.
     */
    async announce(authorId: number, postId: number): Promise<void> {
      const post = await visiblePost(db, postId, authorId, { action: true });
      if (post.userId !== authorId) throw new AppError('forbidden');
      await announcePost(authorId, postId);
    },

    async create(viewerId: number, body: CreatePostBody): Promise<CreatedPost> {
      const now = Date.now();
      const text = normaliseText(body.text);
      const mediaIds = [...new Set(body.mediaIds ?? [])];
      if (text === '' && mediaIds.length === 0) throw errors.invalidRequest({ location: 'body', field: 'text', reason: 'required' });
      const schedule = planSchedule(body.startDate, now);
      if ('problem' in schedule) throw errors.invalidRequest({ location: 'body', field: 'startDate', reason: 'too-far' });
      const [author] = await db.select({ isSeller: users.isSeller }).from(users).where(eq(users.id, viewerId)).limit(1);
      if (author === undefined) throw errors.userNotFound();
      const price = planPrice(body.price, author.isSeller, mediaIds.length > 0);
      if ('problem' in price) throw new AppError('invalid-price');

      const postId = await withPricedMedia(ctx, async (tx, priceMedia) => {
        const claimed = await claimMedia(tx, viewerId, mediaIds);
        const [created] = await tx
          .insert(posts)
          .values({ userId: viewerId, text, startDate: schedule.startDate, publishedAt: schedule.publishedAt, createdAt: new Date(now) })
          .returning({ id: posts.id });
        const id = created!.id;
        if (mediaIds.length > 0) {
          await tx.insert(postMedia).values(mediaIds.map((mediaId, position) => ({ postId: id, mediaId, position })));
          if (price.price !== null) await priceMedia(claimed, price.price);
        }
        await replaceHashtags(tx, id, text, schedule.publishedAt);
        // Scheduled posts count from the start: they are the author's posts, shown to them.
        await tx
          .update(users)
          .set({ postsCount: sql`${users.postsCount} + 1` })
          .where(eq(users.id, viewerId));
        await notifyFollowersOfPost(tx, viewerId, id, schedule.publishedAt);
        return id;
      });
      // Followers with the site open hear of a post published now; scheduled ones show up on their own.
      if (schedule.publishedAt.getTime() <= Date.now()) await announcePost(viewerId, postId);
      const post = await one(postId, viewerId);
      return price.notASeller ? { ...post, notASeller: true } : post;
    },

    async update(viewerId: number, postId: number, rawText: string): Promise<Post> {
      const text = normaliseText(rawText);
      await db.transaction(async (tx) => {
        const post = await visiblePost(tx, postId, viewerId);
        if (post.userId !== viewerId) throw new AppError('forbidden');
        const [locked] = await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, postId)).for('update');
        if (locked === undefined) throw postDoesntExist();
        if (text === '') {
          const [withMedia] = await tx.select({ one: sql`1` }).from(postMedia).where(eq(postMedia.postId, postId)).limit(1);
          if (withMedia === undefined) throw errors.invalidRequest({ location: 'body', field: 'text', reason: 'required' });
        }
        await tx.update(posts).set({ text, updatedAt: new Date() }).where(eq(posts.id, postId));
        await replaceHashtags(tx, postId, text, post.publishedAt);
      });
      return one(postId, viewerId);
    },

    /** Soft delete: the row stays for the money and statistics that refer to it. */
    async remove(viewerId: number, postId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const post = await visiblePost(tx, postId, viewerId);
        if (post.userId !== viewerId) throw new AppError('forbidden');
        if (!(await softDeletePost(tx, postId, viewerId))) throw postDoesntExist();
      });
    },

    /** Likes or unlikes; doing either twice is doing it once. The count moves with the row. */
    async setLike(viewerId: number, postId: number, liked: boolean): Promise<LikeState> {
      return db.transaction(async (tx) => {
        const post = await visiblePost(tx, postId, viewerId, { action: true });
        let changed: boolean;
        if (liked) {
          const inserted = await tx.insert(postLikes).values({ postId, userId: viewerId }).onConflictDoNothing().returning({ postId: postLikes.postId });
          changed = inserted.length > 0;
        } else {
          const removed = await tx
            .delete(postLikes)
            .where(and(eq(postLikes.postId, postId), eq(postLikes.userId, viewerId)))
            .returning({ postId: postLikes.postId });
          changed = removed.length > 0;
        }
        let count: number;
        if (changed) {
          const [row] = await tx
            .update(posts)
            .set({ likesCount: liked ? sql`${posts.likesCount} + 1` : sql`greatest(${posts.likesCount} - 1, 0)` })
            .where(eq(posts.id, postId))
            .returning({ count: posts.likesCount });
          count = row!.count;
          if (liked) await recordNotification(tx, { userId: post.userId, type: 'postLike', fromUserId: viewerId, postId });
        } else {
          const [row] = await tx.select({ count: posts.likesCount }).from(posts).where(eq(posts.id, postId));
          count = row!.count;
        }
        return { totalLikesCount: count, likedByMe: liked };
      });
    },

    /** Who liked the post, newest first: for its owner only (SPEC §6). */
    async likers(viewerId: number, postId: number, limit: number, offset: number): Promise<PublicProfile[]> {
      const post = await visiblePost(db, postId, viewerId);
      if (post.userId !== viewerId) throw new AppError('forbidden');
      const rows = await db
        .select(profileColumns)
        .from(postLikes)
        .innerJoin(users, eq(users.id, postLikes.userId))
        .leftJoin(media, eq(media.id, users.avatarMediaId))
        .where(and(eq(postLikes.postId, postId), isNull(users.deletedAt), notBlockedWith(viewerId, users.id)))
        .orderBy(desc(postLikes.createdAt), asc(users.id))
        .limit(limit)
        .offset(offset);
      const now = Date.now();
      return rows.map((row) => toPublicProfile(row, now));
    },

    /** A post opened on its own (`/post/{id}`): counted, and a row kept for statistics. */
    async visit(viewerId: number | null, postId: number): Promise<void> {
      await db.transaction(async (tx) => {
        await visiblePost(tx, postId, viewerId);
        await tx.insert(postStats).values({ postId, userId: viewerId, kind: 'visit' });
        await tx
          .update(posts)
          .set({ visitsCount: sql`${posts.visitsCount} + 1` })
          .where(eq(posts.id, postId));
      });
    },

    /** What a viewer saw of a post in a list (`/papi/ga/`). */
    async seen(viewerId: number | null, body: PostStatsBody): Promise<void> {
      await visiblePost(db, body.postId, viewerId);
      await db.insert(postStats).values({
        postId: body.postId,
        userId: viewerId,
        kind: 'seen',
        durationMs: body.duration,
        visibleRatio: body.visibleRatio,
        fullscreen: body.fullscreen ?? null,
        cta: body.cta ?? null,
      });
    },
  };
}

export type PostService = ReturnType<typeof createPostService>;

/**
 * Takes a post off every list for everyone (its owner's deletion, an administrator hiding it):
 * the row stays for the money and statistics that refer to it. False when it was already gone.
 */
export async function softDeletePost(tx: Writer, postId: number, ownerId: number): Promise<boolean> {
  const deleted = await tx
    .update(posts)
    .set({ deletedAt: new Date() })
    .where(and(eq(posts.id, postId), isNull(posts.deletedAt)))
    .returning({ id: posts.id });
  if (deleted.length === 0) return false;
  await tx.delete(postHashtags).where(eq(postHashtags.postId, postId));
  await tx
    .update(users)
    .set({ postsCount: sql`greatest(${users.postsCount} - 1, 0)` })
    .where(eq(users.id, ownerId));
  return true;
}

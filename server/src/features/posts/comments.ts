import { and, asc, eq, gt, inArray, isNull, lte, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Comment, CreateCommentBody } from '../../../../lib/contract/posts';
import type { AppContext } from '../../context';
import { preparedStatement } from '../../db/prepared';
import { commentLikes, commentReports, comments, media, posts, users } from '../../db/schema';
import { AppError, errors } from '../../errors';
import { recordNotification, type Writer } from '../notifications/service';
import { profileColumns } from '../users/service';
import { toPublicProfile, type ProfileRow } from '../users/domain';
import { blockedWith, notBlockedWith, readablePost, visiblePost } from './access';
import { firstRepliesShown, normaliseText } from './domain';

const commentNotFound = () => new AppError('comment-not-found');


interface CommentRow {
  id: number;
  postId: number;
  parentId: number | null;
  userId: number;
  text: string;
  giftId: number | null;
  likesCount: number;
  childrenCount: number;
  createdAt: Date;
  isLiked: boolean;
  author: ProfileRow;
}

/**
 * Comments and replies (SPEC §3 Comment). A reply always hangs under a top-level comment:
 * replying to a reply attaches to its top-level parent, so threads are one level deep.
 * Counters (the post's comments and top-level comments, a comment's replies and likes) move
 * in the transaction that adds or removes their rows. Times are written from this process
 * in whole milliseconds, the precision of the `ts` cursors, so paging never repeats or skips.
 */
export function createCommentService(ctx: AppContext) {
  const { db } = ctx;

  /** `viewer` is the viewer's id, or the `viewer` placeholder of a prepared statement. */
  function select(viewerId: number | Placeholder | null, where: SQL | undefined) {
    return db
      .select({
        id: comments.id,
        postId: comments.postId,
        parentId: comments.parentId,
        userId: comments.userId,
        text: comments.text,
        giftId: comments.giftId,
        likesCount: comments.likesCount,
        childrenCount: comments.childrenCount,
        createdAt: comments.createdAt,
        isLiked:
          viewerId === null
            ? sql<boolean>`false`
            : sql<boolean>`exists(select 1 from ${commentLikes} where ${commentLikes.commentId} = ${comments.id} and ${commentLikes.userId} = ${viewerId})`.mapWith(Boolean),
        author: profileColumns,
      })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.userId))
      .leftJoin(media, eq(media.id, users.avatarMediaId))
      .where(and(where, isNull(comments.deletedAt), isNull(users.deletedAt), notBlockedWith(viewerId, comments.userId)));
  }

  function shape(row: CommentRow, viewerId: number | null, postOwnerId: number, replies: Comment[], now: number): Comment {
    return {
      id: row.id,
      parentId: row.parentId,
      postId: row.postId,
      user: toPublicProfile(row.author, now),
      text: row.text,
      giftId: row.giftId,
      ts: row.createdAt.getTime(),
      replies,
      childrenCount: row.childrenCount,
      likesCount: row.likesCount,
      isLiked: row.isLiked,
      canDelete: viewerId !== null && (viewerId === row.userId || viewerId === postOwnerId),
      // Per-comment unread marks need notifications tied to threads; every comment reads as seen.
      isUnreadChildrenNotif: false,
      hasUnreadNotification: false,
    };
  }

  /** The first replies (oldest first) of each of the given top-level comments. */
  async function firstReplies(viewerId: number | null, parentIds: number[]): Promise<Map<number, CommentRow[]>> {
    const byParent = new Map<number, CommentRow[]>();
    if (parentIds.length === 0) return byParent;
    const ranked = db
      .select({
        id: comments.id,
        rank: sql<number>`row_number() over (partition by ${comments.parentId} order by ${comments.createdAt}, ${comments.id})`.as('rank'),
      })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.userId))
      .where(and(inArray(comments.parentId, parentIds), isNull(comments.deletedAt), isNull(users.deletedAt), notBlockedWith(viewerId, comments.userId)))
      .as('ranked');
    const ids = (await db.select({ id: ranked.id }).from(ranked).where(lte(ranked.rank, firstRepliesShown))).map((r) => r.id);
    if (ids.length === 0) return byParent;
    const rows = await select(viewerId, inArray(comments.id, ids)).orderBy(asc(comments.createdAt), asc(comments.id));
    for (const row of rows) {
      const list = byParent.get(row.parentId!) ?? [];
      list.push(row);
      byParent.set(row.parentId!, list);
    }
    return byParent;
  }

  /** A comment the viewer may see and act on, with the post it belongs to. */
  async function actionable(tx: Writer, commentId: number, viewerId: number) {
    const [row] = await tx
      .select({
        id: comments.id,
        postId: comments.postId,
        parentId: comments.parentId,
        userId: comments.userId,
        blocked: blockedWith(viewerId, comments.userId).mapWith(Boolean),
      })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.userId))
      .where(and(eq(comments.id, commentId), isNull(comments.deletedAt), isNull(users.deletedAt)))
      .limit(1);
    if (row === undefined || row.blocked) throw commentNotFound();
    return row;
  }

  return {
    /** Top-level comments, newest first, older than `ts`; each with its first replies. */
    async list(viewerId: number | null, postId: number, limit: number, ts: number | undefined): Promise<Comment[]> {
      const post = await readablePost(db, postId, viewerId);
      // Prepared: a hot post's first page is read far more often than it changes, and planning
      // the statement cost more than running it.
      const statement = preparedStatement(db, `comments:top:${viewerId === null ? 'visitor' : 'viewer'}:${ts === undefined ? 'newest' : 'before'}`, () =>
        select(
          viewerId === null ? null : sql.placeholder('viewer'),
          and(
            eq(comments.postId, sql.placeholder('post')),
            isNull(comments.parentId),
            ts === undefined ? undefined : sql`${comments.createdAt} < ${sql.placeholder('before')}::timestamptz`,
          ),
        )
          .orderBy(sql`${comments.createdAt} desc nulls last`, sql`${comments.id} desc nulls last`)
          .limit(sql.placeholder('limit')),
      );
      const rows = await statement.execute({
        post: postId,
        limit,
        ...(viewerId === null ? {} : { viewer: viewerId }),
        ...(ts === undefined ? {} : { before: new Date(ts).toISOString() }),
      });
      const replies = await firstReplies(
        viewerId,
        rows.filter((r) => r.childrenCount > 0).map((r) => r.id),
      );
      const now = Date.now();
      return rows.map((row) =>
        shape(
          row,
          viewerId,
          post.userId,
          (replies.get(row.id) ?? []).map((reply) => shape(reply, viewerId, post.userId, [], now)),
          now,
        ),
      );
    },

    /** Replies of a comment, oldest first, newer than `ts`. A reply's id lists its thread. */
    async replies(viewerId: number | null, commentId: number, limit: number, ts: number | undefined): Promise<Comment[]> {
      const [parent] = await db
        .select({ id: comments.id, postId: comments.postId, parentId: comments.parentId })
        .from(comments)
        .where(and(eq(comments.id, commentId), isNull(comments.deletedAt)))
        .limit(1);
      if (parent === undefined) throw commentNotFound();
      const post = await visiblePost(db, parent.postId, viewerId);
      const rows = await select(
        viewerId,
        and(eq(comments.parentId, parent.parentId ?? parent.id), ts === undefined ? undefined : gt(comments.createdAt, new Date(ts))),
      )
        .orderBy(asc(comments.createdAt), asc(comments.id))
        .limit(limit);
      const now = Date.now();
      return rows.map((row) => shape(row, viewerId, post.userId, [], now));
    },

    async create(viewerId: number, body: CreateCommentBody): Promise<Comment> {
      const text = normaliseText(body.text);
      if (text === '') throw errors.invalidRequest({ location: 'body', field: 'text', reason: 'required' });
      const { id, postOwnerId } = await db.transaction(async (tx) => {
        const post = await visiblePost(tx, body.postId, viewerId, { action: true });
        let topId: number | null = null;
        let repliedTo: number | null = null;
        if (body.parentId !== undefined && body.parentId !== null) {
          const parent = await actionable(tx, body.parentId, viewerId);
          if (parent.postId !== post.id) throw commentNotFound();
          topId = parent.parentId ?? parent.id;
          repliedTo = parent.userId;
          // Locks the thread's head: a reply and the deletion of its thread are serialised.
          const [head] = await tx
            .update(comments)
            .set({ childrenCount: sql`${comments.childrenCount} + 1` })
            .where(and(eq(comments.id, topId), isNull(comments.deletedAt)))
            .returning({ id: comments.id });
          if (head === undefined) throw commentNotFound();
        }
        const [created] = await tx.insert(comments).values({ postId: post.id, parentId: topId, userId: viewerId, text, createdAt: new Date() }).returning({ id: comments.id });
        const commentId = created!.id;
        await tx
          .update(posts)
          .set({
            commentsCount: sql`${posts.commentsCount} + 1`,
            rootCommentsCount: topId === null ? sql`${posts.rootCommentsCount} + 1` : posts.rootCommentsCount,
          })
          .where(eq(posts.id, post.id));
        if (repliedTo !== null) {
          await recordNotification(tx, { userId: repliedTo, type: 'postCommentReply', fromUserId: viewerId, postId: post.id, commentId });
        }
        // The owner answered as the one replied to already heard of it.
        if (repliedTo !== post.userId) {
          await recordNotification(tx, { userId: post.userId, type: 'postComment', fromUserId: viewerId, postId: post.id, commentId });
        }
        return { id: commentId, postOwnerId: post.userId };
      });
      const [row] = await select(viewerId, eq(comments.id, id)).limit(1);
      if (row === undefined) throw commentNotFound();
      return shape(row, viewerId, postOwnerId, [], Date.now());
    },

    /** By the comment's author or the post's owner; a top-level comment takes its replies along. */
    async remove(viewerId: number, commentId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: comments.id, postId: comments.postId, parentId: comments.parentId, userId: comments.userId })
          .from(comments)
          .where(and(eq(comments.id, commentId), isNull(comments.deletedAt)))
          .for('update');
        if (row === undefined) throw commentNotFound();
        const [post] = await tx
          .select({ userId: posts.userId })
          .from(posts)
          .where(and(eq(posts.id, row.postId), isNull(posts.deletedAt)))
          .limit(1);
        if (post === undefined) throw commentNotFound();
        if (viewerId !== row.userId && viewerId !== post.userId) throw new AppError('forbidden');
        await deleteComment(tx, row);
      });
    },

    async setLike(viewerId: number, commentId: number, liked: boolean): Promise<void> {
      await db.transaction(async (tx) => {
        const comment = await actionable(tx, commentId, viewerId);
        await visiblePost(tx, comment.postId, viewerId, { action: true });
        if (liked) {
          const inserted = await tx.insert(commentLikes).values({ commentId, userId: viewerId }).onConflictDoNothing().returning({ id: commentLikes.commentId });
          if (inserted.length === 0) return;
          await tx
            .update(comments)
            .set({ likesCount: sql`${comments.likesCount} + 1` })
            .where(eq(comments.id, commentId));
          await recordNotification(tx, { userId: comment.userId, type: 'postCommentLike', fromUserId: viewerId, postId: comment.postId, commentId });
        } else {
          const removed = await tx
            .delete(commentLikes)
            .where(and(eq(commentLikes.commentId, commentId), eq(commentLikes.userId, viewerId)))
            .returning({ id: commentLikes.commentId });
          if (removed.length === 0) return;
          await tx
            .update(comments)
            .set({ likesCount: sql`greatest(${comments.likesCount} - 1, 0)` })
            .where(eq(comments.id, commentId));
        }
      });
    },

    /** Readers flag a comment for moderation; its author cannot (SPEC §6). Twice is once. */
    async report(viewerId: number, commentId: number, reason: string | undefined): Promise<void> {
      const comment = await actionable(db, commentId, viewerId);
      await visiblePost(db, comment.postId, viewerId);
      if (comment.userId === viewerId) throw new AppError('forbidden');
      const trimmed = reason?.trim();
      await db
        .insert(commentReports)
        .values({ commentId, userId: viewerId, reason: trimmed === undefined || trimmed === '' ? null : trimmed })
        .onConflictDoNothing();
    },
  };
}

export type CommentService = ReturnType<typeof createCommentService>;

/**
 * Deletes a comment (locked by the caller) with its replies, and moves the counters of its
 * post and parent in the same transaction: its author's or the post owner's removal, and an
 * administrator's (features/abuse).
 */
export async function deleteComment(tx: Writer, row: { id: number; postId: number; parentId: number | null }): Promise<void> {
  let removed = 1;
  if (row.parentId === null) {
    const [replies] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(comments)
      .where(eq(comments.parentId, row.id));
    removed += replies?.count ?? 0;
  } else {
    await tx
      .update(comments)
      .set({ childrenCount: sql`greatest(${comments.childrenCount} - 1, 0)` })
      .where(eq(comments.id, row.parentId));
  }
  // Replies, likes, reports and notifications of the comment go with it (foreign keys).
  await tx.delete(comments).where(eq(comments.id, row.id));
  await tx
    .update(posts)
    .set({
      commentsCount: sql`greatest(${posts.commentsCount} - ${removed}, 0)`,
      rootCommentsCount: row.parentId === null ? sql`greatest(${posts.rootCommentsCount} - 1, 0)` : posts.rootCommentsCount,
    })
    .where(eq(posts.id, row.postId));
}

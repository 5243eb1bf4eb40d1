import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AbusePreview, AbuseReportBody, AbuseReportReceipt, AbuseSnapshot, AbuseType, AdminAbuseReport, ModerationAction, ModerationResult } from '../../../../lib/contract/abuse';
import type { AppContext } from '../../context';
import { abuseReports, chatConversations, chatMessages, comments, moderationLog, postMedia, posts, users } from '../../db/schema';
import { AppError } from '../../errors';
import { hit } from '../../http/throttle';
import { revokeSessions } from '../auth/service';
import { publishCounts } from '../notifications/live';
import { recordNotification, type Writer } from '../notifications/service';
import { blockedWith, visiblePost } from '../posts/access';
import { deleteComment } from '../posts/comments';
import { softDeletePost } from '../posts/service';
import { ADMIN_LEVEL, actionFits, normaliseReportText } from './domain';

interface Target {
  /** Who wrote or owns the thing. */
  userId: number;
  /** Their display name, for the report form's preview. */
  displayName: string;
  snapshot: AbuseSnapshot;
}

const commentNotFound = () => new AppError('comment-not-found');
const messageNotFound = () => new AppError('message-not-found');

/**
 * Reports (POST /api/abuse) and the administrators' queue (docs/moderation.md). A reporter
 * may report only what they can see — a post or comment not hidden from them by a block, a
 * chat message of a conversation they are part of, an active profile — and never their own.
 * Each report keeps a snapshot of the thing, so the queue still shows what was reported after
 * an edit or a removal. Every administrator's action is logged with who took it and closes
 * the reports it settles.
 */
export function createAbuseService(ctx: AppContext) {
  const { db } = ctx;

  async function authorOf(tx: Writer, userId: number): Promise<{ id: number; username: string; displayName: string }> {
    const [row] = await tx.select({ id: users.id, username: users.username, displayName: users.displayName }).from(users).where(eq(users.id, userId)).limit(1);
    if (row === undefined) throw new AppError('user-not-found');
    return row;
  }

  /** The thing as the reporter may see it, or the not-found of its kind. */
  async function target(reporterId: number, type: AbuseType, id: number): Promise<Target> {
    switch (type) {
      case 'user': {
        const [row] = await db
          .select({ id: users.id, username: users.username, displayName: users.displayName, bio: users.bio, avatarMediaId: users.avatarMediaId })
          .from(users)
          .where(and(eq(users.id, id), isNull(users.deletedAt), isNull(users.bannedAt)))
          .limit(1);
        if (row === undefined) throw new AppError('user-not-found');
        const text = [row.displayName, row.bio].filter((part) => part.trim() !== '').join('\n');
        return { userId: row.id, displayName: row.displayName, snapshot: { text, authorId: row.id, authorUsername: row.username, mediaIds: row.avatarMediaId === null ? [] : [row.avatarMediaId] } };
      }
      case 'post': {
        const post = await visiblePost(db, id, reporterId);
        const [row] = await db.select({ text: posts.text }).from(posts).where(eq(posts.id, id)).limit(1);
        const mediaRows = await db.select({ mediaId: postMedia.mediaId }).from(postMedia).where(eq(postMedia.postId, id)).orderBy(postMedia.position);
        const author = await authorOf(db, post.userId);
        return { userId: post.userId, displayName: author.displayName, snapshot: { text: row?.text ?? '', authorId: author.id, authorUsername: author.username, mediaIds: mediaRows.map((m) => m.mediaId) } };
      }
      case 'comment': {
        const [row] = await db
          .select({
            postId: comments.postId,
            userId: comments.userId,
            text: comments.text,
            username: users.username,
            displayName: users.displayName,
            blocked: blockedWith(reporterId, comments.userId).mapWith(Boolean),
          })
          .from(comments)
          .innerJoin(users, eq(users.id, comments.userId))
          .where(and(eq(comments.id, id), isNull(comments.deletedAt), isNull(users.deletedAt)))
          .limit(1);
        if (row === undefined || row.blocked) throw commentNotFound();
        // A comment under a post the reporter cannot see does not exist for them either.
        await visiblePost(db, row.postId, reporterId).catch(() => {
          throw commentNotFound();
        });
        return { userId: row.userId, displayName: row.displayName, snapshot: { text: row.text, authorId: row.userId, authorUsername: row.username, mediaIds: [], postId: row.postId } };
      }
      case 'message': {
        const [row] = await db
          .select({ senderId: chatMessages.senderId, receiverId: chatMessages.receiverId, text: chatMessages.text, mediaId: chatMessages.mediaId, callId: chatMessages.callId })
          .from(chatMessages)
          .where(eq(chatMessages.id, id))
          .limit(1);
        // Only the two people of a conversation know its messages; a call entry is no message of anyone's.
        if (row === undefined || row.callId !== null || (row.senderId !== reporterId && row.receiverId !== reporterId)) throw messageNotFound();
        const author = await authorOf(db, row.senderId);
        return {
          userId: row.senderId,
          displayName: author.displayName,
          snapshot: { text: row.text, authorId: author.id, authorUsername: author.username, mediaIds: row.mediaId === null ? [] : [row.mediaId], receiverId: row.receiverId },
        };
      }
    }
  }

  /** Closes the open reports matching `where` and returns their ids. */
  async function close(tx: Writer, where: ReturnType<typeof and>, adminId: number, action: ModerationAction): Promise<number[]> {
    const rows = await tx
      .update(abuseReports)
      .set({ status: action === 'dismiss' ? 'dismissed' : 'actioned', closedAt: new Date(), closedBy: adminId, closedWith: action })
      .where(and(eq(abuseReports.status, 'open'), where))
      .returning({ id: abuseReports.id });
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }

  const sameThing = (type: string, id: number) => and(eq(abuseReports.targetType, type), eq(abuseReports.targetId, id));

  return {
    /** What the report form shows of the thing, under the same rules as the report itself. */
    async preview(reporterId: number, type: AbuseType, id: number): Promise<AbusePreview> {
      const thing = await target(reporterId, type, id);
      if (thing.userId === reporterId) throw new AppError('cannot-target-self');
      return { type, id, text: thing.snapshot.text, author: { id: thing.userId, username: thing.snapshot.authorUsername, displayName: thing.displayName }, mediaCount: thing.snapshot.mediaIds.length };
    },

    async report(reporterId: number, body: AbuseReportBody): Promise<AbuseReportReceipt> {
      const thing = await target(reporterId, body.type, body.id);
      if (thing.userId === reporterId) throw new AppError('cannot-target-self');
      const [open] = await db
        .select({ id: abuseReports.id })
        .from(abuseReports)
        .where(and(eq(abuseReports.reporterId, reporterId), sameThing(body.type, body.id), eq(abuseReports.status, 'open')))
        .limit(1);
      if (open !== undefined) throw new AppError('already-reported');
      // Counted after the checks: a refused report costs nothing, a stored one counts.
      await hit(ctx, 'abuse-reporter', `user:${reporterId}`);
      const [row] = await db
        .insert(abuseReports)
        .values({
          reporterId,
          targetType: body.type,
          targetId: body.id,
          targetUserId: thing.userId,
          reason: body.reason,
          text: normaliseReportText(body.text),
          snapshot: thing.snapshot,
        })
        // Two reports racing: the partial unique index keeps one open report per reporter and thing.
        .onConflictDoNothing()
        .returning({ id: abuseReports.id, createdAt: abuseReports.createdAt });
      if (row === undefined) throw new AppError('already-reported');
      return { id: row.id, ts: row.createdAt.getTime() };
    },

    /** The open reports, newest first, with who reported and whose thing it is. */
    async queue(limit: number, offset: number): Promise<AdminAbuseReport[]> {
      const reporter = alias(users, 'reporter');
      const author = alias(users, 'author');
      const present = sql<boolean>`case ${abuseReports.targetType}
        when 'post' then exists(select 1 from ${posts} where ${posts.id} = ${abuseReports.targetId} and ${posts.deletedAt} is null)
        when 'comment' then exists(select 1 from ${comments} where ${comments.id} = ${abuseReports.targetId} and ${comments.deletedAt} is null)
        when 'message' then exists(select 1 from ${chatMessages} where ${chatMessages.id} = ${abuseReports.targetId})
        else ${author.bannedAt} is null and ${author.deletedAt} is null end`.mapWith(Boolean);
      const rows = await db
        .select({
          id: abuseReports.id,
          type: abuseReports.targetType,
          targetId: abuseReports.targetId,
          reason: abuseReports.reason,
          text: abuseReports.text,
          snapshot: abuseReports.snapshot,
          createdAt: abuseReports.createdAt,
          reporter: { id: reporter.id, username: reporter.username, displayName: reporter.displayName },
          author: { id: author.id, username: author.username, displayName: author.displayName, bannedAt: author.bannedAt },
          present,
        })
        .from(abuseReports)
        .innerJoin(reporter, eq(reporter.id, abuseReports.reporterId))
        .innerJoin(author, eq(author.id, abuseReports.targetUserId))
        .where(eq(abuseReports.status, 'open'))
        .orderBy(desc(abuseReports.createdAt), desc(abuseReports.id))
        .limit(limit)
        .offset(offset);
      return rows.map((row) => ({
        id: row.id,
        type: row.type as AbuseType,
        targetId: row.targetId,
        reason: row.reason as AdminAbuseReport['reason'],
        text: row.text,
        snapshot: row.snapshot as AbuseSnapshot,
        reporter: row.reporter,
        author: { id: row.author.id, username: row.author.username, displayName: row.author.displayName, banned: row.author.bannedAt !== null },
        present: row.present,
        ts: row.createdAt.getTime(),
      }));
    },

    /**
     * An administrator's action on an open report: hide the post, delete the comment or the
     * message (its author gets notificationDeletedByAdmin), ban the author (every session
     * ends), or dismiss the report. Removing a thing or banning its author closes every open
     * report of it; dismissing closes this one. Logged with the administrator's id.
     */
    async act(adminId: number, reportId: number, action: ModerationAction): Promise<ModerationResult> {
      const { closed, banned, deletedMessage } = await db.transaction(async (tx) => {
        let banned: number | null = null;
        let deletedMessage: { id: number; senderId: number; receiverId: number } | null = null;
        const [report] = await tx
          .select({ id: abuseReports.id, type: abuseReports.targetType, targetId: abuseReports.targetId, targetUserId: abuseReports.targetUserId })
          .from(abuseReports)
          .where(and(eq(abuseReports.id, reportId), eq(abuseReports.status, 'open')))
          .for('update');
        if (report === undefined) throw new AppError('report-not-found');
        const type = report.type as AbuseType;
        if (!actionFits(action, type)) throw new AppError('moderation-not-applicable');
        let removed = false;
        let closedIds: number[];
        switch (action) {
          case 'hide-post': {
            removed = await softDeletePost(tx, report.targetId, report.targetUserId);
            closedIds = await close(tx, sameThing('post', report.targetId), adminId, action);
            break;
          }
          case 'delete-comment': {
            const [row] = await tx
              .select({ id: comments.id, postId: comments.postId, parentId: comments.parentId })
              .from(comments)
              .where(and(eq(comments.id, report.targetId), isNull(comments.deletedAt)))
              .for('update');
            if (row !== undefined) {
              await deleteComment(tx, row);
              removed = true;
            }
            closedIds = await close(tx, sameThing('comment', report.targetId), adminId, action);
            break;
          }
          case 'delete-message': {
            const [row] = await tx
              .delete(chatMessages)
              .where(eq(chatMessages.id, report.targetId))
              .returning({ senderId: chatMessages.senderId, receiverId: chatMessages.receiverId, createdAt: chatMessages.createdAt });
            if (row !== undefined) {
              removed = true;
              deletedMessage = { id: report.targetId, senderId: row.senderId, receiverId: row.receiverId };
              // Unread because of this message alone, the receiver's conversation is unread as of
              // the incoming message before it (none: not at all).
              await tx
                .update(chatConversations)
                .set({
                  lastIncomingAt: sql`(select max(${chatMessages.createdAt}) from ${chatMessages} where ${chatMessages.senderId} = ${row.senderId} and ${chatMessages.receiverId} = ${row.receiverId} and ${chatMessages.createdAt} < ${row.createdAt})`,
                })
                .where(and(eq(chatConversations.userId, row.receiverId), eq(chatConversations.partnerId, row.senderId), eq(chatConversations.lastIncomingAt, row.createdAt)));
              // Both people's lists name the latest message left between them.
              const pair = or(
                and(eq(chatMessages.senderId, chatConversations.userId), eq(chatMessages.receiverId, chatConversations.partnerId)),
                and(eq(chatMessages.senderId, chatConversations.partnerId), eq(chatMessages.receiverId, chatConversations.userId)),
              );
              await tx
                .update(chatConversations)
                .set({ lastMessageId: sql`(select max(${chatMessages.id}) from ${chatMessages} where ${pair})` })
                .where(eq(chatConversations.lastMessageId, report.targetId));
            }
            closedIds = await close(tx, sameThing('message', report.targetId), adminId, action);
            break;
          }
          case 'ban': {
            const [target] = await tx.select({ level: users.level, bannedAt: users.bannedAt }).from(users).where(eq(users.id, report.targetUserId)).limit(1);
            if (target === undefined) throw new AppError('user-not-found');
            // Administrators are not banned from the queue; another way exists for that.
            if (report.targetUserId === adminId || target.level >= ADMIN_LEVEL) throw new AppError('moderation-not-applicable');
            await tx.update(users).set({ bannedAt: new Date() }).where(and(eq(users.id, report.targetUserId), isNull(users.bannedAt)));
            banned = report.targetUserId;
            // Everything of a banned account leaves the site with it, so every report of theirs is settled.
            closedIds = await close(tx, eq(abuseReports.targetUserId, report.targetUserId), adminId, action);
            break;
          }
          case 'dismiss': {
            closedIds = await close(tx, eq(abuseReports.id, report.id), adminId, action);
            break;
          }
        }
        if (removed) await recordNotification(tx, { userId: report.targetUserId, type: 'notificationDeletedByAdmin' });
        await tx.insert(moderationLog).values({ adminId, action, targetType: type, targetId: report.targetId, targetUserId: report.targetUserId, reportId: report.id });
        return { closed: closedIds, banned, deletedMessage };
      });
      // Both people's open chats let the message go at once (`userId`: the other one of the two).
      if (deletedMessage !== null) {
        const { id, senderId, receiverId } = deletedMessage;
        ctx.realtime.publish(senderId, { type: 'eventMessage', event: 'messageDeleted', userId: receiverId, data: { messageId: id } });
        ctx.realtime.publish(receiverId, { type: 'eventMessage', event: 'messageDeleted', userId: senderId, data: { messageId: id } });
        // An unread message gone is one fewer on the receiver's Chat badge (the sender's counts
        // go out with the notification).
        await publishCounts(ctx, [receiverId]);
      }
      // Once the ban is committed (no new session can start): its refresh tokens end and its open sockets close.
      if (banned !== null) {
        await revokeSessions(ctx, banned);
        ctx.realtime.logout(banned, 'admin-blocked');
      }
      return { action, closedReports: closed };
    },
  };
}

export type AbuseService = ReturnType<typeof createAbuseService>;

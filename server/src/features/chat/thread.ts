/**
 * One open conversation (SPEC §2 ChatOpened): its history page by page and its media, a
 * reaction on one of its messages, and the read mark that gives the partner double checks.
 */
import { and, desc, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { ChatHistory, ChatHistoryQuery, ChatMessage } from '../../../../lib/contract/chat';
import type { AppContext } from '../../context';
import { chatConversations, chatMessages, chatStream } from '../../db/schema';
import { AppError } from '../../errors';
import { publishCounts } from '../notifications/live';
import { blockedWith } from '../posts/access';
import { chatPageSize } from './domain';
import type { Conversations } from './conversations';
import type { Delivery } from './delivery';
import { messageColumns, pairOf, partnerOf, streamOf, viewerSide } from './rows';

/** An open conversation's reads and marks, part of the chat service. */
export function createThread(ctx: AppContext, { views }: Delivery, { oneConversation }: Conversations) {
  const { db } = ctx;
  const now = () => ctx.clock.now();

  return {
    /**
     * Sets (or with null removes) `userId`'s reaction on a message of theirs — sent or
     * received — and tells both of them. The sender's badge counts a reaction of the receiver
     * until the sender reads the conversation.
     */
    async react(userId: number, messageId: number, reactionId: number | null): Promise<void> {
      const row = await db.transaction(async (tx) => {
        const [found] = await tx
          .select({ ...messageColumns, blocked: blockedWith(userId, sql`case when ${chatMessages.senderId} = ${userId} then ${chatMessages.receiverId} else ${chatMessages.senderId} end`).mapWith(Boolean) })
          .from(chatMessages)
          .where(and(eq(chatMessages.id, messageId), or(eq(chatMessages.senderId, userId), eq(chatMessages.receiverId, userId))))
          .limit(1)
          .for('update', { of: chatMessages });
        if (found === undefined || found.blocked) throw new AppError('message-not-found');
        const at = reactionId === null ? null : now();
        await tx
          .update(chatMessages)
          .set(found.senderId === userId ? { senderReactionId: reactionId, senderReactedAt: at } : { receiverReactionId: reactionId, receiverReactedAt: at })
          .where(eq(chatMessages.id, messageId));
        return found;
      });
      ctx.realtime.publish([row.senderId, row.receiverId], { type: 'chatReaction', msgId: row.msgId, messageId: row.id, userId, reactionId });
      if (row.receiverId === userId) await publishCounts(ctx, [row.senderId]);
    },

    /**
     * `userId` read the conversation with `partnerId` up to now: their unread messages and
     * unseen reactions there are cleared, the partner sees double checks (`readMessages`).
     */
    async markRead(userId: number, partnerId: number): Promise<void> {
      if (userId === partnerId) throw new AppError('cannot-target-self');
      const readAt = now();
      const updated = await db
        .update(chatConversations)
        .set({ lastReadAt: readAt })
        .where(and(eq(chatConversations.userId, userId), eq(chatConversations.partnerId, partnerId)))
        .returning({ partnerId: chatConversations.partnerId, blocked: blockedWith(userId, chatConversations.partnerId).mapWith(Boolean) });
      // Nothing to read in a conversation that was never written in.
      if (updated.length === 0) return;
      if (!updated[0]!.blocked) ctx.realtime.publish(partnerId, { type: 'readMessages', userId, readDate: readAt.getTime() });
      await publishCounts(ctx, [userId]);
    },

    /**
     * `GET /api/chat/conversations/{userId}`: a page of the history, oldest first; `ts` pages
     * back (messages sent before it). Reading the history does not mark it read: chatConvRead does.
     */
    async history(viewerId: number, partnerId: number, query: ChatHistoryQuery): Promise<ChatHistory> {
      const viewer = await viewerSide(db, viewerId);
      const conversation = await oneConversation(viewer, partnerId);
      const rows = await db
        .select({ ...messageColumns, seq: chatStream.seq })
        .from(chatMessages)
        .leftJoin(chatStream, streamOf(viewerId))
        .where(and(pairOf(viewerId, partnerId), query.ts === undefined ? undefined : lt(chatMessages.createdAt, new Date(query.ts))))
        .orderBy(desc(chatMessages.createdAt))
        .limit(query.limit ?? chatPageSize);
      return { conversation, messages: await views(rows.reverse(), () => viewerId) };
    },

    /** `GET /api/chat/conversations-media/`: messages with media between the viewer and `partnerId`, newest first. */
    async media(viewerId: number, partnerId: number, page: { limit: number; offset: number }): Promise<ChatMessage[]> {
      await partnerOf(db, viewerId, partnerId);
      const rows = await db
        .select({ ...messageColumns, seq: chatStream.seq })
        .from(chatMessages)
        .leftJoin(chatStream, streamOf(viewerId))
        .where(and(pairOf(viewerId, partnerId), isNotNull(chatMessages.mediaId)))
        .orderBy(desc(chatMessages.id))
        .limit(page.limit)
        .offset(page.offset);
      return views(rows, () => viewerId);
    },
  };
}

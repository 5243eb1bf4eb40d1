/**
 * Paid chat (SPEC §3 Conversation and Chat message, §7 Chat; docs/realtime.md). Every message
 * is stored — and paid for, in the same transaction — before anyone hears of it; the sender's
 * `msgId` makes a resend find the stored message instead of sending (and charging) again.
 * This module builds the chat service other features receive from its parts, one file each:
 * `delivery.ts` (messages shaped for their readers, sent to their sockets, resumed),
 * `send.ts` (one paid message), `mass.ts` (a seller's mass messages), `conversations.ts` (the
 * conversation list and each side's settings), `thread.ts` (an open conversation's history,
 * media, reactions and read mark), with `rows.ts` (the rows they read), `positions.ts` (the
 * chat streams' positions), `write.ts` (a message's write statements) and `pair.ts` (what
 * other features' transactions do to a conversation, exported from here as before).
 */
import type { AppContext } from '../../context';
import { createConversations } from './conversations';
import { chatCounts } from './counts';
import { createDelivery } from './delivery';
import { createMassMessages } from './mass';
import { createMessageSending } from './send';
import { createThread } from './thread';

export type { ChatRefusalEvent, SendOutcome } from './send';
export type { MassOutcome } from './mass';
export type { Resumed } from './delivery';
export { addConversationEarnings, chatMessageWithMedia, leaveConversation, lockConversation, storeCallEntry } from './pair';

export function createChatService(ctx: AppContext) {
  const delivery = createDelivery(ctx);
  const sending = createMessageSending(ctx, delivery);
  const mass = createMassMessages(ctx, delivery);
  const conversations = createConversations(ctx, delivery);
  const thread = createThread(ctx, delivery, conversations);

  return {
    send: sending.send,
    sendMass: mass.sendMass,
    react: thread.react,
    markRead: thread.markRead,
    resume: delivery.resume,
    head: delivery.head,
    deliverCallEntry: delivery.deliverCallEntry,
    conversations: conversations.conversations,
    history: thread.history,
    setCustomPrice: conversations.setCustomPrice,
    archive: conversations.archive,
    media: thread.media,
    massConversations: mass.massConversations,
    massHistory: mass.massHistory,
    counts: (userId: number) => chatCounts(ctx.db, userId),
  };
}

export type ChatService = ReturnType<typeof createChatService>;

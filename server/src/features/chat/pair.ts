/**
 * The chat's part in other features' transactions: a call's entry in the pair's history
 * (calls), leaving a conversation on a block (social), and for a chat media unlock
 * (spending) the message that carried the media, the pair's locks taken before the payment
 * and the earnings added to the creator's side. Each runs in the caller's transaction.
 */
import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import { chatConversations, chatMessages } from '../../db/schema';
import type { Tx } from '../../ledger';
import { blockedWith } from '../posts/access';
import { callEntryIsUnread, callEntryMsgId, leavesCallEntry } from './domain';
import { takePositions } from './positions';
import { pairOf } from './rows';

/**
 * Opens (on first use) and locks both sides of a pair, lower user id first, so that messages
 * of one pair are stored one after the other whichever way they go, and never deadlock.
 */
async function lockPair(tx: Tx, senderId: number, receiverId: number) {
  const ordered = senderId < receiverId ? [senderId, receiverId] : [receiverId, senderId];
  await tx
    .insert(chatConversations)
    .values([
      { userId: ordered[0]!, partnerId: ordered[1]! },
      { userId: ordered[1]!, partnerId: ordered[0]! },
    ])
    .onConflictDoNothing();
  const rows = await tx
    .select()
    .from(chatConversations)
    .where(
      or(
        and(eq(chatConversations.userId, senderId), eq(chatConversations.partnerId, receiverId)),
        and(eq(chatConversations.userId, receiverId), eq(chatConversations.partnerId, senderId)),
      ),
    )
    .orderBy(asc(chatConversations.userId))
    .for('update');
  const mine = rows.find((row) => row.userId === senderId);
  const theirs = rows.find((row) => row.userId === receiverId);
  if (mine === undefined || theirs === undefined) throw new Error('a conversation could not be opened');
  return { mine, theirs };
}

/**
 * Writes the entry of a call that ended in `state` into the pair's chat history (docs/calls.md
 * "In the chat"), in the transaction that ends the call: a free message from the caller to the
 * callee with the call's id, taking a position in both people's chat streams like any message
 * and becoming their conversation's latest. Keyed by the call (a unique index on `call_id`), so
 * a close that runs again writes nothing more. The callee's conversation counts it unread only
 * for a missed call. A state that leaves no entry (busy, noCredit, failed) writes nothing.
 *
 * Call it before any money of the call moves: it locks the pair's conversation and then the
 * stream heads, the order a paid chat message takes them before the ledger's accounts.
 */
export async function storeCallEntry(tx: Tx, call: { id: string; callerId: number; calleeId: number }, state: string, at: Date): Promise<void> {
  if (!leavesCallEntry(state)) return;
  const { mine, theirs } = await lockPair(tx, call.callerId, call.calleeId);
  // Every message of a pair is later than the one before (paging by sendDt never splits two).
  const after = Math.max(mine.lastMessageAt?.getTime() ?? 0, theirs.lastMessageAt?.getTime() ?? 0) + 1;
  const sentAt = new Date(Math.max(at.getTime(), after));
  const [inserted] = await tx
    .insert(chatMessages)
    .values({ msgId: callEntryMsgId(call.id), senderId: call.callerId, receiverId: call.calleeId, text: '', price: 0, callId: call.id, createdAt: sentAt })
    .onConflictDoNothing()
    .returning({ id: chatMessages.id });
  if (inserted === undefined) return;
  await takePositions(tx, inserted.id, [call.callerId, call.calleeId]);
  await tx
    .update(chatConversations)
    .set({ lastMessageId: inserted.id, lastMessageAt: sentAt, archived: false })
    .where(and(eq(chatConversations.userId, call.callerId), eq(chatConversations.partnerId, call.calleeId)));
  await tx
    .update(chatConversations)
    .set({ lastMessageId: inserted.id, lastMessageAt: sentAt, archived: false, ...(callEntryIsUnread(state) ? { lastIncomingAt: sentAt } : {}) })
    .where(and(eq(chatConversations.userId, call.calleeId), eq(chatConversations.partnerId, call.callerId)));
}

/**
 * SPEC §4 "Block confirmation … leaves chat": the blocker's side of the conversation is
 * archived in the block's transaction. The blocked person's side stays as it was; neither can
 * write to the other while the block lasts.
 */
export async function leaveConversation(tx: Tx, userId: number, partnerId: number): Promise<void> {
  await tx
    .update(chatConversations)
    .set({ archived: true })
    .where(and(eq(chatConversations.userId, userId), eq(chatConversations.partnerId, partnerId)));
}

/**
 * The chat message through which `fanId` received `mediaId` from its owner, for unlocking it:
 * the latest one, when the two are not in a block. Undefined when the fan never received it.
 */
export async function chatMessageWithMedia(tx: Tx, fanId: number, ownerId: number, mediaId: number): Promise<{ messageId: number } | undefined> {
  const [row] = await tx
    .select({ messageId: chatMessages.id })
    .from(chatMessages)
    .where(
      and(
        pairOf(fanId, ownerId),
        eq(chatMessages.mediaId, mediaId),
        eq(chatMessages.senderId, ownerId),
        sql`not ${blockedWith(fanId, chatMessages.senderId)}`,
      ),
    )
    .orderBy(desc(chatMessages.id))
    .limit(1);
  return row;
}

/**
 * Locks both sides of a pair's conversation (lower user id first, as sending a message does)
 * before a payment that will update them, so the payment and a message of the same pair take
 * their locks in one order: conversation first, then the ledger's accounts.
 */
export async function lockConversation(tx: Tx, a: number, b: number): Promise<void> {
  await tx
    .select({ userId: chatConversations.userId })
    .from(chatConversations)
    .where(
      or(
        and(eq(chatConversations.userId, a), eq(chatConversations.partnerId, b)),
        and(eq(chatConversations.userId, b), eq(chatConversations.partnerId, a)),
      ),
    )
    .orderBy(asc(chatConversations.userId))
    .for('update');
}

/** What a creator earned from a chat media unlock counts in their side's sum of the conversation. */
export async function addConversationEarnings(tx: Tx, earnerId: number, partnerId: number, cents: number): Promise<void> {
  await tx
    .update(chatConversations)
    .set({ sumPrice: sql`${chatConversations.sumPrice} + ${cents}` })
    .where(and(eq(chatConversations.userId, earnerId), eq(chatConversations.partnerId, partnerId)));
}

/**
 * How stored messages reach their readers: `views` shapes messages for whoever reads each one
 * (a priced media open or locked, a call entry's call, the reader's stream position), `deliver`
 * sends a stored message to its sender's and receiver's sockets (with the badge and a push),
 * and `resume` hands a reconnecting socket what its stream holds after the position it saw
 * (docs/realtime.md "Resume"), with `head` the position a new socket starts from.
 */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { ChatMedia, ChatMessage } from '../../../../lib/contract/chat';
import type { AppContext } from '../../context';
import { batched } from '../../db/batched';
import { calls, chatMessages, chatStream, chatStreamHeads, media, mediaUnlocks } from '../../db/schema';
import { publishCounts } from '../notifications/live';
import { blockedWith } from '../posts/access';
import { mediaViewColumns, toMediaView, type MediaViewRow } from '../posts/views';
import { pushTo } from '../push/service';
import { callEntryView, resumeLimit, suspectedStateAt, type CallEntrySource } from './domain';
import { messageColumns, type MessageRow } from './rows';

/** What a call entry shows of its call. */
const callEntryColumns = {
  id: calls.id,
  callerId: calls.callerId,
  calleeId: calls.calleeId,
  state: calls.state,
  endReason: calls.endReason,
  minutes: calls.minutes,
  cost: calls.cost,
  earnings: calls.earnings,
  startedAt: calls.startedAt,
  endedAt: calls.endedAt,
};

/** What a `resume` answers: the messages, the position they reach, and whether more remain. */
export interface Resumed {
  messages: ChatMessage[];
  last: number;
  more: boolean;
}

/** The delivery of stored messages, built once per chat service: other parts of it use `views` and `deliver`. */
export function createDelivery(ctx: AppContext) {
  const { db } = ctx;
  const now = () => ctx.clock.now();

  /**
   * Messages as their viewers see them: `viewerFor` names who will read each one (the
   * sender, the receiver, or one receiver per copy of a mass message). A priced media is
   * open to its sender, and to a receiver who unlocked it.
   */
  async function views(rows: readonly MessageRow[], viewerFor: (row: MessageRow) => number): Promise<ChatMessage[]> {
    const mediaIds = [...new Set(rows.map((row) => row.mediaId).filter((id): id is number => id !== null))];
    const mediaRows = new Map<number, MediaViewRow>();
    const unlocked = new Set<string>();
    const callIds = [...new Set(rows.map((row) => row.callId).filter((id): id is string => id !== null))];
    // A call entry shows what its call's row says now: the row is final once the entry exists.
    const callRows = new Map<string, CallEntrySource>(callIds.length === 0 ? [] : (await db.select(callEntryColumns).from(calls).where(inArray(calls.id, callIds))).map((row) => [row.id, row]));
    if (mediaIds.length > 0) {
      const viewers = [...new Set(rows.map(viewerFor))];
      const [found, opened] = await Promise.all([
        db.select(mediaViewColumns).from(media).where(inArray(media.id, mediaIds)),
        db
          .select({ userId: mediaUnlocks.userId, mediaId: mediaUnlocks.mediaId })
          .from(mediaUnlocks)
          // The copies of a mass message have thousands of viewers: then every unlock of its one media is read instead.
          .where(and(inArray(mediaUnlocks.mediaId, mediaIds), viewers.length <= 1_000 ? inArray(mediaUnlocks.userId, viewers) : undefined)),
      ]);
      for (const row of found) mediaRows.set(row.id, row);
      for (const row of opened) unlocked.add(`${row.userId}:${row.mediaId}`);
    }
    const nowMs = Date.now();
    return rows.map((row) => {
      const viewerId = viewerFor(row);
      const mediaRow = row.mediaId === null ? undefined : mediaRows.get(row.mediaId);
      let chatMedia: ChatMedia | null = null;
      if (mediaRow !== undefined) {
        const open = mediaRow.ownerId === viewerId || unlocked.has(`${viewerId}:${mediaRow.id}`);
        chatMedia = { ...toMediaView(mediaRow, viewerId, open, ctx.unlockKeys, nowMs), mediaUnlocked: mediaRow.price <= 0 || open };
      }
      return {
        id: row.id,
        msgId: row.msgId,
        text: row.text,
        senderId: row.senderId,
        receiverId: row.receiverId,
        sendDt: row.createdAt.getTime(),
        price: row.price,
        giftId: row.giftId,
        mediaId: row.mediaId,
        media: chatMedia,
        suspectedState: suspectedStateAt(row.suspectedUntil, now().getTime()),
        senderReactionId: row.senderReactionId,
        receiverReactionId: row.receiverReactionId,
        massId: row.massId,
        ...(row.seq === null || row.seq === undefined ? {} : { seq: row.seq }),
        ...(row.callId === null || !callRows.has(row.callId) ? {} : { call: callEntryView(callRows.get(row.callId)!, viewerId) }),
      };
    });
  }

  /** Stream heads asked in one turn are read together: every socket's `hello` asks one. */
  const streamHeads = batched<number, number>(async (userIds) => {
    const rows = await db.select({ userId: chatStreamHeads.userId, seq: chatStreamHeads.seq }).from(chatStreamHeads).where(inArray(chatStreamHeads.userId, [...userIds]));
    return new Map(rows.map((row) => [row.userId, row.seq]));
  });

  async function streamHead(userId: number): Promise<number> {
    return (await streamHeads(userId)) ?? 0;
  }

  /** Where a stored message stands in its sender's and its receiver's streams. */
  async function positionsOf(messageId: number): Promise<Map<number, number>> {
    const rows = await db.select({ userId: chatStream.userId, seq: chatStream.seq }).from(chatStream).where(eq(chatStream.messageId, messageId));
    return new Map(rows.map((row) => [row.userId, row.seq]));
  }

  /**
   * The stored message to its sender's sockets (the acknowledgement) and, when new, to the
   * receiver's: each with its position in that person's stream (`seqs`, read when not given).
   */
  async function deliver(row: MessageRow, replayed: boolean, seqs?: ReadonlyMap<number, number>): Promise<ChatMessage> {
    const placed = seqs ?? (await positionsOf(row.id));
    const [forSender] = await views([{ ...row, seq: placed.get(row.senderId) ?? null }], () => row.senderId);
    ctx.realtime.publish(row.senderId, { type: 'chatMessage', message: forSender! });
    if (!replayed) {
      const [forReceiver] = await views([{ ...row, seq: placed.get(row.receiverId) ?? null }], () => row.receiverId);
      ctx.realtime.publish(row.receiverId, { type: 'chatMessage', message: forReceiver! });
      await publishCounts(ctx, [row.receiverId]);
      // The receiver's browsers hear of it even with the site closed; a call's entry in the
      // history is no news (the call rang, or was missed, already).
      if (row.callId === null) pushTo(ctx, row.receiverId, { kind: 'chatMessage', fromUserId: row.senderId, text: row.text ?? '', gift: row.giftId !== null, media: row.mediaId !== null });
    }
    return forSender!;
  }

  return {
    views,
    deliver,

    /**
     * The messages of `userId`'s chat stream after position `after`, in order, at most
     * `resumeLimit` positions. Positions commit in order, so what a later resume finds is all
     * after `last`: nothing committed behind it. Messages with people in a block with the user
     * keep their positions but are left out.
     */
    async resume(userId: number, after: number): Promise<Resumed> {
      const other = sql`case when ${chatMessages.senderId} = ${userId} then ${chatMessages.receiverId} else ${chatMessages.senderId} end`;
      const rows = await db
        .select({ ...messageColumns, seq: chatStream.seq, blocked: blockedWith(userId, other).mapWith(Boolean) })
        .from(chatStream)
        .innerJoin(chatMessages, eq(chatMessages.id, chatStream.messageId))
        .where(and(eq(chatStream.userId, userId), gt(chatStream.seq, after)))
        .orderBy(asc(chatStream.seq))
        .limit(resumeLimit);
      const messages = await views(
        rows.filter((row) => !row.blocked),
        () => userId,
      );
      const reached = rows.at(-1)?.seq;
      // Nothing after `after`: the stream ends there — or before it, for a client that kept a
      // position from another database (a reset), which then starts again from the real end.
      const last = reached ?? Math.min(after, await streamHead(userId));
      return { messages, last, more: rows.length === resumeLimit };
    },

    /** The last position handed out in `userId`'s chat stream (0 before any message). */
    head: streamHead,

    /**
     * Tells both people of a call the entry `storeCallEntry` wrote for it, once the call's
     * transaction committed: each gets a `chatMessage` with their own position and amount, the
     * callee also `updateCount`. Nothing when the call left no entry. A node that dies before
     * this loses nothing: the entry has its positions, and a `resume` brings it.
     */
    async deliverCallEntry(callId: string): Promise<ChatMessage | undefined> {
      const [row] = await db.select(messageColumns).from(chatMessages).where(eq(chatMessages.callId, callId)).limit(1);
      if (row === undefined) return undefined;
      return deliver(row, false);
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;

import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  ChatHistory,
  ChatHistoryQuery,
  ChatMedia,
  ChatMessage,
  Conversation,
  ConversationPriceBody,
  ConversationsQuery,
  MassConversation,
  MassMessage,
} from '../../../../lib/contract/chat';
import { ChatLimits, MassGroups, SubscriptionStatus, UNREAD_COUNT_CAP, type MassGroupName } from '../../../../lib/contract/constants';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { rowsOf } from '../../db';
import { batched } from '../../db/batched';
import { preparedStatement } from '../../db/prepared';
import {
  calls,
  chatConversations,
  chatMassMessages,
  chatMessages,
  chatStream,
  chatStreamHeads,
  follows,
  gifts,
  media,
  mediaUnlocks,
  subscriptions,
  users,
  type ChatMessageRow,
} from '../../db/schema';
import { AppError, errors } from '../../errors';
import { authorizeSpend, inTransaction, pay, type SpendVia, type Tx } from '../../ledger';
import { publishCounts } from '../notifications/live';
import { balancesChanged } from '../../realtime/after-commit';
import { servableStatuses } from '../media/domain';
import { recordNotification } from '../notifications/service';
import { blockedWith } from '../posts/access';
import { mediaViewColumns, toMediaView, type MediaViewRow } from '../posts/views';
import { containsPattern } from '../social/domain';
import { toPublicProfile, type ProfileRow } from '../users/domain';
import { profileColumns } from '../users/service';
import { chatCounts } from './counts';
import { openPair, senderAndResend, storeMessage, type Side } from './write';
import { pushTo } from '../push/service';
import {
  acceptsPrice,
  callEntryIsUnread,
  callEntryMsgId,
  callEntryView,
  chatPageSize,
  conversationPrice,
  customPriceProblem,
  isStaff,
  isSuspected,
  leavesCallEntry,
  massCopySeparator,
  resumeLimit,
  suspectedStateAt,
  suspectedUntil,
  type CallEntrySource,
  type ChatMessageInput,
  type MassMessageInput,
} from './domain';

/** Why a message the client sent was not stored: the client marks it failed (SPEC §4 failed draft states). */
export type ChatRefusalEvent = 'notAcceptedPrice' | 'noCredit' | 'emailNotVerified';

export type SendOutcome =
  | { stored: ChatMessage; replayed: boolean }
  | { refused: ChatRefusalEvent; receiverId: number; data: { msgId: string; price?: number } };

export type MassOutcome = { stored: MassMessage; replayed: boolean } | { refused: 'emailNotVerified'; data: { msgId: string } };

/** Thrown inside a transaction to roll it back and answer with a refusal event instead. */
class Refusal extends Error {
  constructor(
    readonly event: ChatRefusalEvent,
    readonly data: { msgId: string; price?: number },
  ) {
    super(event);
  }
}

/** A read mark that was never set. */
const never = sql`'-infinity'::timestamptz`;

/** Results of `execute` come as an array (PGlite through drizzle) or as `{ rows }` (node-postgres). */

const messageColumns = {
  id: chatMessages.id,
  msgId: chatMessages.msgId,
  senderId: chatMessages.senderId,
  receiverId: chatMessages.receiverId,
  text: chatMessages.text,
  price: chatMessages.price,
  giftId: chatMessages.giftId,
  mediaId: chatMessages.mediaId,
  massId: chatMessages.massId,
  suspectedUntil: chatMessages.suspectedUntil,
  senderReactionId: chatMessages.senderReactionId,
  receiverReactionId: chatMessages.receiverReactionId,
  callId: chatMessages.callId,
  createdAt: chatMessages.createdAt,
};
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

/** A stored message, with its position in the stream of the one who will read it when known. */
type MessageRow = Pick<ChatMessageRow, keyof typeof messageColumns> & { seq?: number | null };

/**
 * Joins each message's position in `viewer`'s chat stream (a user id, or a column naming the
 * reader of each row): `select({ ...messageColumns, seq: chatStream.seq })` with this left join.
 */
function streamOf(viewer: number | SQLWrapper): SQL {
  return and(eq(chatStream.messageId, chatMessages.id), eq(chatStream.userId, viewer as number))!;
}

/** What a `resume` answers: the messages, the position they reach, and whether more remain. */
export interface Resumed {
  messages: ChatMessage[];
  last: number;
  more: boolean;
}

/**
 * Gives the stored message `messageId` the next position in the chat stream of each of
 * `userIds` (its sender and receiver), in the storing transaction. Each head row is locked
 * (lowest user id first, so two transactions never wait for each other in a circle) until the
 * transaction ends: the next message of the same user waits for it, so a user's positions
 * commit in order, and a rollback hands its positions out again. Answers user id → position.
 */
async function takePositions(tx: Tx, messageId: number, userIds: readonly number[]): Promise<Map<number, number>> {
  const ordered = [...new Set(userIds)].sort((a, b) => a - b);
  const placed = rowsOf<{ user_id: number; seq: number }>(
    await tx.execute(sql`
      with heads as (
        insert into ${chatStreamHeads} as h (user_id, seq)
        values ${sql.join(
          ordered.map((id) => sql`(${id}::int, 1)`),
          sql`, `,
        )}
        on conflict (user_id) do update set seq = h.seq + 1
        returning h.user_id, h.seq
      )
      insert into ${chatStream} (user_id, seq, message_id)
      select heads.user_id, heads.seq, ${messageId}::int from heads
      returning user_id, seq`),
  );
  return new Map(placed.map((row) => [Number(row.user_id), Number(row.seq)]));
}

/** A Postgres array literal of integers, sent as one parameter however long the list. */
const intArray = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::int[]`;

/**
 * Positions for every copy of a mass message: one in each receiver's stream, and one each, in a
 * block `seqFrom`…`seqTo`, in the sender's (heads locked in user-id order, as `takePositions`).
 * The copies come from the statement that stored them, and the pairing of positions with copies
 * is done here rather than by joining the two in SQL: the copies of a message just written have
 * no statistics, so the planner takes them for one row and joins by nested loop, which for
 * 50 000 receivers compared 2.5 billion pairs.
 */
async function takeMassPositions(tx: Tx, senderId: number, copies: readonly { id: number; receiverId: number }[]): Promise<{ seqFrom: number; seqTo: number }> {
  const byReceiver = [...copies].sort((a, b) => a.receiverId - b.receiverId);
  const heads = rowsOf<{ user_id: number; seq: number }>(
    await tx.execute(sql`
      insert into ${chatStreamHeads} as h (user_id, seq)
      select t.user_id, t.n from (
        select unnest(${intArray(byReceiver.map((copy) => copy.receiverId))}) as user_id, 1 as n
        union all
        select ${senderId}::int, ${copies.length}::int
      ) t
      order by t.user_id
      on conflict (user_id) do update set seq = h.seq + excluded.seq
      returning h.user_id, h.seq`),
  );
  const seqOf = new Map(heads.map((row) => [Number(row.user_id), Number(row.seq)]));
  const seqTo = seqOf.get(senderId)!;
  const seqFrom = seqTo - copies.length + 1;
  const users: number[] = [];
  const seqs: number[] = [];
  const messages: number[] = [];
  const place = (userId: number, seq: number, messageId: number) => {
    users.push(userId);
    seqs.push(seq);
    messages.push(messageId);
  };
  for (const copy of byReceiver) place(copy.receiverId, seqOf.get(copy.receiverId)!, copy.id);
  // The sender's block follows the copies' ids, as the history lists them.
  for (const [i, copy] of [...copies].sort((a, b) => a.id - b.id).entries()) place(senderId, seqFrom + i, copy.id);
  await tx.execute(sql`
    insert into ${chatStream} (user_id, seq, message_id)
    select * from unnest(${intArray(users)}, ${intArray(seqs)}, ${intArray(messages)})`);
  return { seqFrom, seqTo };
}

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

/** Messages of the pair `a`–`b`, either way, through the pair index. */
function pairOf(a: number, b: number): SQL {
  return and(eq(chatMessages.lowUserId, Math.min(a, b)), eq(chatMessages.highUserId, Math.max(a, b)))!;
}

const sideColumns = {
  level: users.level,
  isSeller: users.isSeller,
  isPartner: users.isPartner,
  messagePrice: users.messagePrice,
  emailVerified: users.emailVerified,
};

/**
 * Paid chat (SPEC §3 Conversation and Chat message, §7 Chat; docs/realtime.md). Every message
 * is stored — and paid for, in the same transaction — before anyone hears of it; the sender's
 * `msgId` makes a resend find the stored message instead of sending (and charging) again.
 */
export function createChatService(ctx: AppContext) {
  const { db } = ctx;
  const now = () => ctx.clock.now();

  async function sideOf(tx: Tx, userId: number): Promise<Side | undefined> {
    const [row] = await tx
      .select(sideColumns)
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt), isNull(users.bannedAt)))
      .limit(1);
    return row;
  }

  /** The other person, if they exist for `viewerId`: not deleted, not banned, no block either way. */
  async function partnerOf(tx: Tx, viewerId: number, partnerId: number): Promise<Side> {
    if (viewerId === partnerId) throw new AppError('cannot-target-self');
    const [row] = await tx
      .select({ ...sideColumns, blocked: blockedWith(viewerId, users.id).mapWith(Boolean) })
      .from(users)
      .where(and(eq(users.id, partnerId), isNull(users.deletedAt), isNull(users.bannedAt)))
      .limit(1);
    if (row === undefined || row.blocked) throw errors.userNotFound();
    return row;
  }

  /** A chat media the sender may send: their own, uploaded for chat, ready. */
  async function chatMediaOf(tx: Tx, ownerId: number, mediaId: number): Promise<{ id: number; price: number }> {
    const [row] = await tx
      .select({ id: media.id, ownerId: media.ownerId, kind: media.kind, status: media.status, price: media.price })
      .from(media)
      .where(eq(media.id, mediaId))
      .limit(1);
    // Someone else's media answers like a missing one: ids must not reveal what others uploaded.
    if (row === undefined || row.ownerId !== ownerId || row.kind !== 'chat') throw new AppError('upload-not-found');
    if (!servableStatuses.includes(row.status)) throw new AppError('media-not-ready');
    return { id: row.id, price: row.price };
  }

  async function findMessage(tx: Tx, senderId: number, msgId: string): Promise<MessageRow | undefined> {
    const [row] = await tx
      .select(messageColumns)
      .from(chatMessages)
      .where(and(eq(chatMessages.senderId, senderId), eq(chatMessages.msgId, msgId)))
      .limit(1);
    return row;
  }

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

  const partnerSide = alias(chatConversations, 'partner_side');

  /**
   * The viewer's conversation with one partner, or a page of the list (archived ones too or not,
   * partners matching `q`), shaped for the viewer. The query starts from the partners (users)
   * so one conversation that was never written in still comes back.
   */
  async function loadConversations(
    viewer: Side & { id: number },
    which: { partnerId: number } | { archived: boolean; q: string | null },
    page: { limit: number; offset: number },
  ): Promise<Conversation[]> {
    const viewerId = viewer.id;
    // One prepared statement per shape of the request (planning it cost more than running it),
    // and for each page size: a plan made for an unknown limit sorts the whole list. A page
    // after the first is planned for its offset each time.
    const shape = 'partnerId' in which ? 'one' : `list:${which.archived ? 'all' : 'live'}:${which.q === null ? 'any' : 'q'}:${page.limit}:${page.offset > 0 ? 'deep' : 'first'}`;
    const rows = await preparedStatement(db, `chat:conversations:${shape}`, () => {
      const me = sql.placeholder('viewer');
      const pattern = sql.placeholder('pattern');
      const where =
        'partnerId' in which
          ? eq(users.id, sql.placeholder('partner'))
          : and(
              isNotNull(chatConversations.lastMessageId),
              which.archived ? undefined : eq(chatConversations.archived, false),
              which.q === null ? undefined : sql`(lower(${users.username}) like ${pattern} escape '\\' or lower(${users.displayName}) like ${pattern} escape '\\')`,
            );
      const columns = {
        partner: profileColumns,
        // Drizzle reads a left-joined object as missing when its first column is null: each
        // starts with a column that is never null in a row that exists.
        mine: {
          userId: chatConversations.userId,
          lastReadAt: chatConversations.lastReadAt,
          archived: chatConversations.archived,
          agreedPrice: chatConversations.agreedPrice,
          customPrice: chatConversations.customPrice,
          sumPrice: chatConversations.sumPrice,
          lastMessageId: chatConversations.lastMessageId,
          lastSuspectedAt: chatConversations.lastSuspectedAt,
        },
        theirs: { userId: partnerSide.userId, lastReadAt: partnerSide.lastReadAt, customPrice: partnerSide.customPrice },
        // A call entry counts only when the call was missed (docs/calls.md "In the chat").
        // Counted up to UNREAD_COUNT_CAP (the list shows "99+"), walking the pair's index from the read mark.
        unread: sql<number>`(select count(*)::int from (select 1 from ${chatMessages} m
          where m.low_user_id = least(${me}::int, ${users.id}) and m.high_user_id = greatest(${me}::int, ${users.id})
            and m.sender_id = ${users.id} and m.created_at > coalesce(${chatConversations.lastReadAt}, ${never})
            and (m.call_id is null or exists (select 1 from ${calls} c where c.id = m.call_id and c.state = 'missed'))
          limit ${UNREAD_COUNT_CAP}) u)`,
        lastReactionId: sql<number | null>`(select m.id from ${chatMessages} m
          where m.sender_id = ${me} and m.receiver_id = ${users.id} and m.receiver_reacted_at > coalesce(${chatConversations.lastReadAt}, ${never})
          order by m.receiver_reacted_at desc limit 1)`,
      };
      const shown = and(isNull(users.deletedAt), sql`not ${blockedWith(me, users.id)}`, where);
      const mine = and(eq(chatConversations.userId, me), eq(chatConversations.partnerId, users.id));
      const theirs = and(eq(partnerSide.userId, users.id), eq(partnerSide.partnerId, me));
      if ('partnerId' in which) {
        return db.select(columns).from(users).leftJoin(media, eq(media.id, users.avatarMediaId)).leftJoin(chatConversations, mine).leftJoin(partnerSide, theirs).where(shown).limit(1);
      }
      // The list walks its index (chat_conversations_list_idx, in its very order: `desc nulls
      // last`, see docs/performance.md) from the newest and stops at the page.
      return db
        .select(columns)
        .from(chatConversations)
        .innerJoin(users, mine)
        .leftJoin(media, eq(media.id, users.avatarMediaId))
        .leftJoin(partnerSide, theirs)
        .where(shown)
        .orderBy(sql`${chatConversations.lastMessageAt} desc nulls last`, sql`${chatConversations.partnerId} desc nulls last`)
        .limit(page.limit)
        .offset(sql.placeholder('offset'));
    }, page.offset === 0).execute({
      viewer: viewerId,
      offset: page.offset,
      ...('partnerId' in which ? { partner: which.partnerId } : which.q === null ? {} : { pattern: containsPattern(which.q) }),
    });

    const messageIds = rows.flatMap((row) => [row.mine?.lastMessageId ?? null, row.lastReactionId]).filter((id): id is number => id !== null);
    const messageRows =
      messageIds.length === 0
        ? []
        : await db
            .select({ ...messageColumns, seq: chatStream.seq })
            .from(chatMessages)
            .leftJoin(chatStream, streamOf(viewerId))
            .where(inArray(chatMessages.id, [...new Set(messageIds)]));
    const byId = new Map((await views(messageRows, () => viewerId)).map((message) => [message.id, message]));
    const nowMs = now().getTime();
    return rows.map((row) => {
      const partner = row.partner as ProfileRow;
      const mine = row.mine;
      const suspectedAt = mine?.lastSuspectedAt ?? null;
      return {
        id: partner.id,
        sender: toPublicProfile(partner, Date.now()),
        unreadCount: row.unread,
        sumPrice: mine?.sumPrice ?? 0,
        agreedPrice: mine?.agreedPrice ?? 0,
        // The seller's price for this conversation: the one the viewer set, or the one set for the viewer.
        customPrice: viewer.isSeller ? (mine?.customPrice ?? null) : partner.isSeller ? (row.theirs?.customPrice ?? null) : null,
        price: conversationPrice(viewer, partner, row.theirs?.customPrice ?? null),
        isSupport: isStaff(viewer.level) || isStaff(partner.level),
        lastMessage: mine?.lastMessageId == null ? null : (byId.get(mine.lastMessageId) ?? null),
        lastReadDate: row.theirs?.lastReadAt?.getTime() ?? null,
        lastSuspectedMessageDate: suspectedAt !== null && suspectedUntil(suspectedAt.getTime()) > nowMs ? suspectedAt.getTime() : null,
        lastReactionMessage: row.lastReactionId === null ? null : (byId.get(row.lastReactionId) ?? null),
        archived: mine?.archived ?? false,
      };
    });
  }

  async function viewerSide(viewerId: number): Promise<Side & { id: number }> {
    const side = await sideOf(db, viewerId);
    if (side === undefined) throw errors.userNotFound();
    return { ...side, id: viewerId };
  }

  async function oneConversation(viewer: Side & { id: number }, partnerId: number): Promise<Conversation> {
    await partnerOf(db, viewer.id, partnerId);
    const [conversation] = await loadConversations(viewer, { partnerId }, { limit: 1, offset: 0 });
    if (conversation === undefined) throw errors.userNotFound();
    return conversation;
  }

  /** The people a mass message to `group` of `senderId` reaches: live, not the sender, no block either way. */
  function recipientsOf(senderId: number, group: MassGroupName): SQL {
    const active = [SubscriptionStatus.active, SubscriptionStatus.paymentFailed, SubscriptionStatus.cancelled];
    const members =
      group === 'followers'
        ? sql`select ${follows.followerId} as id from ${follows} where ${follows.followedId} = ${senderId}`
        : group === 'subscribers'
          ? sql`select distinct ${subscriptions.subscriberId} as id from ${subscriptions}
              where ${subscriptions.creatorId} = ${senderId} and ${inArray(subscriptions.status, active)}`
          : sql`select distinct s.subscriber_id as id from ${subscriptions} s
              where s.creator_id = ${senderId} and s.status = ${SubscriptionStatus.expired}
                and not exists (select 1 from ${subscriptions} a where a.creator_id = ${senderId} and a.subscriber_id = s.subscriber_id
                  and a.status in (${sql.join(active.map((status) => sql`${status}`), sql`, `)}))`;
    return sql`select u.id from (${members}) g join ${users} u on u.id = g.id
      where u.id <> ${senderId} and u.deleted_at is null and u.banned_at is null and not ${blockedWith(senderId, sql`u.id`)}`;
  }

  async function massViews(rows: (typeof chatMassMessages.$inferSelect)[], senderId: number): Promise<MassMessage[]> {
    const mediaIds = [...new Set(rows.map((row) => row.mediaId).filter((id): id is number => id !== null))];
    const mediaRows = new Map<number, MediaViewRow>();
    if (mediaIds.length > 0) for (const row of await db.select(mediaViewColumns).from(media).where(inArray(media.id, mediaIds))) mediaRows.set(row.id, row);
    // Unlocks by the receivers of each message's copies (the same media may travel in other chats too).
    const withMedia = rows.filter((row) => row.mediaId !== null).map((row) => row.id);
    const unlocks = new Map<number, number>();
    if (withMedia.length > 0) {
      const counted = await db
        .select({ massId: chatMessages.massId, count: sql<number>`count(*)::int` })
        .from(chatMessages)
        .innerJoin(mediaUnlocks, and(eq(mediaUnlocks.userId, chatMessages.receiverId), eq(mediaUnlocks.mediaId, chatMessages.mediaId)))
        .where(inArray(chatMessages.massId, withMedia))
        .groupBy(chatMessages.massId);
      for (const row of counted) if (row.massId !== null) unlocks.set(row.massId, Number(row.count));
    }
    return rows.map((row) => {
      const mediaRow = row.mediaId === null ? undefined : mediaRows.get(row.mediaId);
      return {
        id: row.id,
        msgId: row.msgId,
        recGroup: row.recGroup as MassGroupName,
        text: row.text,
        media: mediaRow === undefined ? null : { ...toMediaView(mediaRow, senderId, true, ctx.unlockKeys), mediaUnlocked: true },
        sendDt: row.createdAt.getTime(),
        recipientsCount: row.recipientsCount,
        unlocksCount: unlocks.get(row.id) ?? 0,
      };
    });
  }

  return {
    /**
     * A message from `senderId` (SPEC §7 chatMessage). Stored and paid in one transaction, then
     * echoed to the sender's sockets and delivered to the receiver's. A refusal the client
     * shows as a failed message (price raised, no credit, e-mail unverified) comes back as
     * `refused`; a broken rule throws its AppError.
     */
    async send(senderId: number, input: ChatMessageInput, via: SpendVia = { channel: 'platform', at: now() }): Promise<SendOutcome> {
      const { sender, resent } = await senderAndResend(db, senderId, input.msgId);
      if (resent) {
        const known = await findMessage(db, senderId, input.msgId);
        if (known !== undefined) return { stored: await deliver(known, true), replayed: true };
      }
      if (input.receiverId === senderId) throw new AppError('cannot-target-self');
      if (sender === undefined) throw errors.userNotFound();
      if (!sender.emailVerified) return { refused: 'emailNotVerified', receiverId: input.receiverId, data: { msgId: input.msgId } };

      let result: { row: MessageRow; replayed: boolean; seqs?: Map<number, number> };
      try {
        result = await inTransaction(db, async (tx) => {
          const { receiver, mine, theirs } = await openPair(tx, senderId, input.receiverId);
          const price = conversationPrice(sender, receiver, theirs.customPrice);
          if (!acceptsPrice(price, input.price)) throw new Refusal('notAcceptedPrice', { msgId: input.msgId, price });
          const chatMedia = input.mediaId === null ? null : await chatMediaOf(tx, senderId, input.mediaId);
          let gift: { id: number; gValue: number; cValue: number } | null = null;
          if (input.giftId !== null) {
            const [found] = await tx
              .select({ id: gifts.id, gValue: gifts.gValue, cValue: gifts.cValue })
              .from(gifts)
              .where(and(eq(gifts.id, input.giftId), eq(gifts.active, true)))
              .limit(1);
            if (found === undefined) throw new AppError('gift-not-found');
            // Gifts are earnings: only creators have earnings to pay out.
            if (!receiver.isSeller && !receiver.isPartner) throw new AppError('gift-send-error');
            gift = found;
          }

          // Every message of a pair is later than the one before, so paging by sendDt never splits two.
          const nowMs = now().getTime();
          const sentAt = new Date(Math.max(nowMs, (mine.lastMessageAt?.getTime() ?? 0) + 1));
          const suspected = isSuspected(input.text, sender, receiver);
          const fanAmount = price > 0 ? fanPriceCents(price, ctx.config.priceSalt) : 0;
          // A salt below 1 × would make the fan pay less than the price; the seller never earns more than was paid.
          const earnerCents = Math.min(price, fanAmount);
          const earned = (price > 0 ? earnerCents : 0) + (gift?.cValue ?? 0);
          // The message and both sides of the conversation in one statement; the payments below
          // roll it back with them when they are refused.
          const inserted = await storeMessage(tx, {
            msgId: input.msgId,
            senderId,
            receiverId: input.receiverId,
            text: input.text,
            price,
            giftId: gift?.id ?? null,
            mediaId: chatMedia?.id ?? null,
            suspectedUntil: suspected ? new Date(suspectedUntil(sentAt.getTime())) : null,
            sentAt,
            earned,
          });
          if (inserted === undefined) {
            // The same msgId was stored by a resend that got here first: this one is that one.
            const stored = await findMessage(tx, senderId, input.msgId);
            if (stored === undefined) throw new Error('a chat message vanished');
            return { row: stored, replayed: true };
          }
          // A message's price and its gift are one spend to the fan: a site asks him once, for both.
          let spendVia = via;
          if (via.channel === 'site' && !via.confirmed && fanAmount + (gift?.gValue ?? 0) > 0) {
            const grant = await authorizeSpend(tx, {
              fanId: senderId,
              kind: 'chat-message',
              amount: fanAmount + (gift?.gValue ?? 0),
              creatorId: input.receiverId,
              subject: `message:${input.msgId}`,
              details: { text: input.text.slice(0, 140), giftId: gift?.id ?? null, price: fanAmount },
              key: `chat-ask:${senderId}:${input.msgId}`,
              via,
            });
            spendVia = { channel: 'site', at: via.at, origin: via.origin, confirmed: grant?.confirmed ?? false, allowed: true };
          }
          if (price > 0) {
            await pay(tx, {
              key: `chat:${senderId}:${input.msgId}`,
              kind: 'chat-message',
              fanId: senderId,
              earnerId: input.receiverId,
              fanAmount,
              earnerCents,
              meta: { messageId: inserted.id },
              via: spendVia,
            });
          }
          if (gift !== null) {
            await pay(tx, {
              key: `chat-gift:${senderId}:${input.msgId}`,
              kind: 'gift',
              fanId: senderId,
              earnerId: input.receiverId,
              fanAmount: gift.gValue,
              earnerCents: gift.cValue,
              meta: { giftId: gift.id, messageId: inserted.id },
              via: spendVia,
            });
            await recordNotification(tx, { userId: input.receiverId, type: 'chatGift', fromUserId: senderId, giftId: gift.id });
          }
          if (earned > 0) balancesChanged(tx, [senderId, input.receiverId]);

          // Positions last: the receiver's stream head is the row every message to her waits
          // for, so it is locked only for this statement and the commit. A refusal above
          // (noMoney) never took one.
          const seqs = await takePositions(tx, inserted.id, [senderId, input.receiverId]);
          return { row: inserted, replayed: false, seqs };
        });
      } catch (error) {
        if (error instanceof Refusal) return { refused: error.event, receiverId: input.receiverId, data: error.data };
        if (error instanceof AppError && error.key === 'noMoney') return { refused: 'noCredit', receiverId: input.receiverId, data: { msgId: input.msgId } };
        throw error;
      }
      return { stored: await deliver(result.row, result.replayed, result.seqs), replayed: result.replayed };
    },

    /**
     * A seller's message to a whole group (SPEC §7 massChatMessage): the mass row and one
     * message per receiver in one transaction, free for the receivers; a priced media stays
     * locked for each of them until they unlock it. Receivers in a block with the sender are
     * left out. The sender's sockets get `massChatMessage`, each receiver a `chatMessage`.
     */
    async sendMass(senderId: number, input: MassMessageInput): Promise<MassOutcome> {
      const findMass = async (tx: Tx) => {
        const [row] = await tx
          .select()
          .from(chatMassMessages)
          .where(and(eq(chatMassMessages.senderId, senderId), eq(chatMassMessages.msgId, input.msgId)))
          .limit(1);
        return row;
      };
      const ack = async (row: typeof chatMassMessages.$inferSelect, replayed: boolean, seqs: { seqFrom: number; seqTo: number } | undefined): Promise<MassOutcome> => {
        const [message] = await massViews([row], senderId);
        ctx.realtime.publish(senderId, { type: 'massChatMessage', message: message!, ...seqs });
        return { stored: message!, replayed };
      };
      /** The block of the sender's stream a stored mass message's copies took. */
      const senderPositions = async (massId: number) => {
        const [range] = await db
          .select({ seqFrom: sql<number | null>`min(${chatStream.seq})`, seqTo: sql<number | null>`max(${chatStream.seq})` })
          .from(chatStream)
          .innerJoin(chatMessages, eq(chatMessages.id, chatStream.messageId))
          .where(and(eq(chatMessages.massId, massId), eq(chatStream.userId, senderId)));
        return range?.seqFrom == null || range.seqTo == null ? undefined : { seqFrom: Number(range.seqFrom), seqTo: Number(range.seqTo) };
      };
      const known = await findMass(db);
      if (known !== undefined) return ack(known, true, await senderPositions(known.id));
      const sender = await sideOf(db, senderId);
      if (sender === undefined) throw errors.userNotFound();
      if (!sender.emailVerified) return { refused: 'emailNotVerified', data: { msgId: input.msgId } };
      if (!sender.isSeller) throw new AppError('verify-required');

      const result = await inTransaction(db, async (tx) => {
        const chatMedia = input.mediaId === null ? null : await chatMediaOf(tx, senderId, input.mediaId);
        const sentAt = now();
        const [mass] = await tx
          .insert(chatMassMessages)
          .values({ senderId, msgId: input.msgId, recGroup: input.recGroup, text: input.text, mediaId: chatMedia?.id ?? null, createdAt: sentAt })
          .onConflictDoNothing()
          .returning();
        if (mass === undefined) return { mass: (await findMass(tx))!, replayed: true, seqs: undefined };
        // The receivers are fans of the sender: the rule applies as to any fan writing to a seller.
        const suspected = isSuspected(input.text, sender, { level: 0, isSeller: false, messagePrice: 0 });
        const at = sql`${sentAt.toISOString()}::timestamptz`;
        const suspectedAt = suspected ? at : sql`null::timestamptz`;
        // Sides are opened in user-id order. A single message racing with this in the other
        // order may deadlock; PostgreSQL then aborts one and inTransaction runs it again.
        const inserted = rowsOf<{ id: number; receiver_id: number }>(
          await tx.execute(sql`
            with recipients as (${recipientsOf(senderId, input.recGroup)}),
            sides as (
              insert into ${chatConversations} as c (user_id, partner_id, last_message_at, last_suspected_at)
              select ${senderId}, r.id, ${at}, ${suspectedAt} from recipients r order by r.id
              on conflict (user_id, partner_id) do update
                set last_message_at = greatest(excluded.last_message_at, c.last_message_at + interval '1 millisecond'),
                    last_suspected_at = coalesce(excluded.last_suspected_at, c.last_suspected_at),
                    archived = false
              returning c.partner_id, c.last_message_at
            )
            insert into ${chatMessages} (msg_id, sender_id, receiver_id, text, media_id, mass_id, suspected_until, created_at)
            select ${input.msgId + massCopySeparator} || s.partner_id, ${senderId}, s.partner_id, ${input.text}, ${chatMedia?.id ?? null}::int, ${mass.id}::int,
              ${suspected ? sql`s.last_message_at + ${ChatLimits.suspectedMs} * interval '1 millisecond'` : sql`null::timestamptz`}, s.last_message_at
            from sides s
            returning id, receiver_id`),
        );
        if (inserted.length > 0) {
          await tx.execute(sql`
            update ${chatConversations} c set last_message_id = m.id
            from ${chatMessages} m
            where m.mass_id = ${mass.id} and c.user_id = ${senderId} and c.partner_id = m.receiver_id`);
          await tx.execute(sql`
            insert into ${chatConversations} as c (user_id, partner_id, last_message_id, last_message_at, last_incoming_at, last_suspected_at)
            select m.receiver_id, ${senderId}, m.id, m.created_at, m.created_at, ${suspected ? sql`m.created_at` : sql`null::timestamptz`}
            from ${chatMessages} m where m.mass_id = ${mass.id} order by m.receiver_id
            on conflict (user_id, partner_id) do update
              set last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at,
                  last_incoming_at = excluded.last_incoming_at, archived = false,
                  last_suspected_at = coalesce(excluded.last_suspected_at, c.last_suspected_at)`);
        }
        // Last, as a single message takes them after its conversation: heads are the last locks.
        const seqs =
          inserted.length > 0
            ? await takeMassPositions(
                tx,
                senderId,
                inserted.map((row) => ({ id: Number(row.id), receiverId: Number(row.receiver_id) })),
              )
            : undefined;
        const [counted] = await tx
          .update(chatMassMessages)
          .set({ recipientsCount: inserted.length })
          .where(eq(chatMassMessages.id, mass.id))
          .returning();
        return { mass: counted!, replayed: false, seqs };
      });
      if (result.replayed) return ack(result.mass, true, await senderPositions(result.mass.id));
      const outcome = await ack(result.mass, false, result.seqs);
      // Every copy is stored: the sender's ack need not wait while thousands of frames are
      // built, and a receiver whose frame is lost reads the copy when the socket resumes.
      const massId = result.mass.id;
      void (async () => {
        const copies = await db
          .select({ ...messageColumns, seq: chatStream.seq })
          .from(chatMessages)
          .leftJoin(chatStream, streamOf(chatMessages.receiverId))
          .where(eq(chatMessages.massId, massId));
        // Frames only for receivers with a socket somewhere; the others read their copy later.
        const delivered = await views(
          copies.filter((row) => ctx.realtime.isReachable(row.receiverId)),
          (row) => row.receiverId,
        );
        // One frame per receiver: each carries that receiver's own position.
        for (const message of delivered) ctx.realtime.publish(message.receiverId, { type: 'chatMessage', message });
        await publishCounts(ctx, copies.map((row) => row.receiverId));
      })().catch((error: unknown) => ctx.log.warn({ err: error, massId }, 'chat: could not deliver the copies of a mass message'));
      return outcome;
    },

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

    /** `GET /api/chat/conversations`: the viewer's conversations, latest activity first, or the one with `senderId`. */
    async conversations(viewerId: number, query: ConversationsQuery): Promise<Conversation[]> {
      const viewer = await viewerSide(viewerId);
      if (query.senderId !== undefined) return [await oneConversation(viewer, query.senderId)];
      const q = query.q?.trim();
      return loadConversations(viewer, { archived: query.archived === true, q: q === undefined || q === '' ? null : q }, { limit: query.limit ?? chatPageSize, offset: query.offset ?? 0 });
    },

    /**
     * `GET /api/chat/conversations/{userId}`: a page of the history, oldest first; `ts` pages
     * back (messages sent before it). Reading the history does not mark it read: chatConvRead does.
     */
    async history(viewerId: number, partnerId: number, query: ChatHistoryQuery): Promise<ChatHistory> {
      const viewer = await viewerSide(viewerId);
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

    /** `PUT /api/chat/conversations/`: a seller's price for one person's messages (a chat-message step, or null for the usual price). */
    async setCustomPrice(viewerId: number, body: ConversationPriceBody): Promise<void> {
      const viewer = await viewerSide(viewerId);
      const problem = customPriceProblem(viewer.isSeller, body.customPrice);
      // SPEC §7: -2 asks the account to become a seller (verified) first.
      if (problem === 'verify-required') throw new AppError('verify-required', { statusCode: -2, body: { field: 'customPrice' } });
      if (problem !== null) throw new AppError(problem);
      await partnerOf(db, viewerId, body.senderId);
      await db
        .insert(chatConversations)
        .values({ userId: viewerId, partnerId: body.senderId, customPrice: body.customPrice })
        .onConflictDoUpdate({ target: [chatConversations.userId, chatConversations.partnerId], set: { customPrice: body.customPrice } });
    },

    /** `DELETE /api/chat/conversations/{id}`: hidden from the viewer's list until the next message either way. */
    async archive(viewerId: number, partnerId: number): Promise<void> {
      const archived = await db
        .update(chatConversations)
        .set({ archived: true })
        .where(and(eq(chatConversations.userId, viewerId), eq(chatConversations.partnerId, partnerId), isNotNull(chatConversations.lastMessageId)))
        .returning({ partnerId: chatConversations.partnerId });
      if (archived.length === 0) throw new AppError('conversation-not-found');
      // An archived conversation no longer counts as unread.
      await publishCounts(ctx, [viewerId]);
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

    /** `GET /api/chat/mass-conversations`: each group with how many it holds now and its latest mass message. */
    async massConversations(viewerId: number): Promise<MassConversation[]> {
      const groups: MassConversation[] = [];
      for (const group of MassGroups) {
        const [counted] = rowsOf<{ count: number }>(await db.execute(sql`select count(*)::int as count from (${recipientsOf(viewerId, group)}) r`));
        const [last] = await db
          .select()
          .from(chatMassMessages)
          .where(and(eq(chatMassMessages.senderId, viewerId), eq(chatMassMessages.recGroup, group)))
          .orderBy(desc(chatMassMessages.createdAt), desc(chatMassMessages.id))
          .limit(1);
        groups.push({ recGroup: group, membersCount: Number(counted?.count ?? 0), lastMessage: last === undefined ? null : (await massViews([last], viewerId))[0]! });
      }
      return groups;
    },

    /** `GET /api/chat/mass-conversations/{group}`: the viewer's mass messages to the group, oldest first; `ts` pages back. */
    async massHistory(viewerId: number, group: MassGroupName, query: ChatHistoryQuery): Promise<MassMessage[]> {
      const rows = await db
        .select()
        .from(chatMassMessages)
        .where(
          and(
            eq(chatMassMessages.senderId, viewerId),
            eq(chatMassMessages.recGroup, group),
            query.ts === undefined ? undefined : lt(chatMassMessages.createdAt, new Date(query.ts)),
          ),
        )
        .orderBy(desc(chatMassMessages.createdAt), desc(chatMassMessages.id))
        .limit(query.limit ?? chatPageSize);
      return massViews(rows.reverse(), viewerId);
    },

    counts: (userId: number) => chatCounts(db, userId),
  };
}

export type ChatService = ReturnType<typeof createChatService>;

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

/**
 * The viewer's conversations (SPEC §2 ChatList, §3 Conversation): one query shapes the list's
 * page, or one conversation, with its unread count, prices, latest message and reaction;
 * around it the list's endpoints and what a seller or a viewer changes on their side of a
 * conversation (a custom price, archiving it).
 */
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Conversation, ConversationPriceBody, ConversationsQuery } from '../../../../lib/contract/chat';
import { UNREAD_COUNT_CAP } from '../../../../lib/contract/constants';
import type { AppContext } from '../../context';
import { preparedStatement } from '../../db/prepared';
import { calls, chatConversations, chatMessages, chatStream, media, users } from '../../db/schema';
import { AppError, errors } from '../../errors';
import { publishCounts } from '../notifications/live';
import { blockedWith } from '../posts/access';
import { containsPattern } from '../social/domain';
import { toPublicProfile, type ProfileRow } from '../users/domain';
import { profileColumns } from '../users/service';
import type { Side } from './write';
import { chatPageSize, conversationPrice, customPriceProblem, isStaff, suspectedUntil } from './domain';
import type { Delivery } from './delivery';
import { messageColumns, partnerOf, streamOf, viewerSide } from './rows';

/** A read mark that was never set. */
const never = sql`'-infinity'::timestamptz`;

/** The conversation list, part of the chat service; `oneConversation` also heads a history. */
export function createConversations(ctx: AppContext, { views }: Delivery) {
  const { db } = ctx;
  const now = () => ctx.clock.now();

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

  async function oneConversation(viewer: Side & { id: number }, partnerId: number): Promise<Conversation> {
    await partnerOf(db, viewer.id, partnerId);
    const [conversation] = await loadConversations(viewer, { partnerId }, { limit: 1, offset: 0 });
    if (conversation === undefined) throw errors.userNotFound();
    return conversation;
  }

  return {
    oneConversation,

    /** `GET /api/chat/conversations`: the viewer's conversations, latest activity first, or the one with `senderId`. */
    async conversations(viewerId: number, query: ConversationsQuery): Promise<Conversation[]> {
      const viewer = await viewerSide(db, viewerId);
      if (query.senderId !== undefined) return [await oneConversation(viewer, query.senderId)];
      const q = query.q?.trim();
      return loadConversations(viewer, { archived: query.archived === true, q: q === undefined || q === '' ? null : q }, { limit: query.limit ?? chatPageSize, offset: query.offset ?? 0 });
    },

    /** `PUT /api/chat/conversations/`: a seller's price for one person's messages (a chat-message step, or null for the usual price). */
    async setCustomPrice(viewerId: number, body: ConversationPriceBody): Promise<void> {
      const viewer = await viewerSide(db, viewerId);
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
  };
}

export type Conversations = ReturnType<typeof createConversations>;

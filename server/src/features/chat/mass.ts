/**
 * A seller's mass messages (SPEC §7 massChatMessage, §2 ChatList's groups): who a group reaches
 * now (`recipientsOf`), sending one message to all of them as one copy per receiver in a single
 * transaction, and the groups' lists and histories as the sender sees them, with how many
 * receivers unlocked a priced media.
 */
import { and, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { ChatHistoryQuery, MassConversation, MassMessage } from '../../../../lib/contract/chat';
import { ChatLimits, MassGroups, SubscriptionStatus, type MassGroupName } from '../../../../lib/contract/constants';
import type { AppContext } from '../../context';
import { rowsOf } from '../../db';
import { chatConversations, chatMassMessages, chatMessages, chatStream, follows, media, mediaUnlocks, subscriptions, users } from '../../db/schema';
import { AppError, errors } from '../../errors';
import { inTransaction, type Tx } from '../../ledger';
import { publishCounts } from '../notifications/live';
import { blockedWith } from '../posts/access';
import { mediaViewColumns, toMediaView, type MediaViewRow } from '../posts/views';
import { chatPageSize, isSuspected, massCopySeparator, type MassMessageInput } from './domain';
import type { Delivery } from './delivery';
import { takeMassPositions } from './positions';
import { chatMediaOf, messageColumns, sideOf, streamOf } from './rows';

export type MassOutcome = { stored: MassMessage; replayed: boolean } | { refused: 'emailNotVerified'; data: { msgId: string } };

/** Mass messages, part of the chat service. */
export function createMassMessages(ctx: AppContext, { views }: Delivery) {
  const { db } = ctx;
  const now = () => ctx.clock.now();

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
  };
}

/**
 * Group commit of chat messages (docs/performance.md "Group commit"): the messages that arrive
 * while a batch is being written (or within one turn of the event loop when none is) are
 * written together by set-based statements in ONE transaction — the senders, the pairs'
 * conversations, the payments (ledger/batch.ts), the messages with both sides' conversations
 * and the stream positions — each keeping its own msgId, key and refusal, and each answered
 * only after that transaction committed. About seven round trips for the whole batch where a
 * message alone takes ten.
 *
 * A batch takes its locks in the order a single message does — both sides of every pair's
 * conversation (lowest user id, then partner id, first), every fan's spending controls, every
 * wallet, every stream head last — so batches and single messages never wait for each other in
 * a circle. One pair is in a batch at most once (a second message of the pair waits for the
 * next batch), so each conversation row is written once per statement.
 *
 * What a batch does not decide is sent alone (`sendOne`): a resend of a stored msgId, a payment
 * the ledger's batch leaves to `pay`, and — should the batch's transaction fail as a whole —
 * every message of it, each then keeping its msgId (so one the failed commit did store is found
 * and not paid twice).
 */
import { sql } from 'drizzle-orm';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { rowsOf } from '../../db';
import { pgArray } from '../../db/arrays';
import { groupCommit } from '../../db/group-commit';
import { chatConversations, chatMessages, chatStream, chatStreamHeads, users } from '../../db/schema';
import { AppError, errors } from '../../errors';
import { inTransaction, type SpendVia, type Tx } from '../../ledger';
import { planPayments, writePayments } from '../../ledger/batch';
import type { PaymentInput } from '../../ledger/pay';
import { balancesChanged } from '../../realtime/after-commit';
import { blockedWith } from '../posts/access';
import { acceptsPrice, conversationPrice, isSuspected, suspectedUntil, type ChatMessageInput, type SendOutcome } from './domain';
import type { Delivery } from './delivery';
import { rawMessageColumns, toStored, type RawMessage, type Side, type StoredMessage } from './write';

/** Most messages in one batch. */
const maxBatch = 256;

interface Waiting {
  senderId: number;
  input: ChatMessageInput;
  via: SpendVia;
  resolve: (outcome: SendOutcome) => void;
  reject: (error: unknown) => void;
}

/** Whether a message may join a batch: a text on the platform's own pages, without a gift or a media. */
export function groupable(input: ChatMessageInput, via: SpendVia): boolean {
  return via.channel === 'platform' && input.giftId === null && input.mediaId === null && input.confirmation === null;
}

type Alone = (senderId: number, input: ChatMessageInput, via: SpendVia) => Promise<SendOutcome>;

/** One message of a batch, as it goes through its steps. */
interface Item extends Waiting {
  sender: Side;
  receiver?: Side;
  price: number;
  fanAmount: number;
  earnerCents: number;
  sentAt: Date;
  suspected: boolean;
}

/** What one attempt of a batch's transaction decided for each message. */
interface Decided {
  stored: Map<Item, { row: StoredMessage; seqs: Map<number, number> }>;
  refused: Map<Item, SendOutcome>;
  failed: Map<Item, unknown>;
  alone: Set<Item>;
}

export function createMessageBatches(ctx: AppContext, { deliver }: Delivery, alone: Alone) {
  const { db } = ctx;
  const goAlone = (waiting: Waiting) => alone(waiting.senderId, waiting.input, waiting.via).then(waiting.resolve, waiting.reject);

  /** The senders (gone, banned, unverified) and the resends among `batch`: one statement, before the transaction. */
  async function senders(batch: readonly Waiting[], later: Waiting[]): Promise<Item[]> {
    const found = rowsOf<{ ord: number; found: boolean; level: number; is_seller: boolean; is_partner: boolean; message_price: number; email_verified: boolean; resent: boolean }>(
      await db.execute(sql`
        select v.ord, u.id is not null as found, u.level, u.is_seller, u.is_partner, u.message_price, u.email_verified,
          exists (select 1 from ${chatMessages} m where m.sender_id = v.sender_id and m.msg_id = v.msg_id) as resent
        from unnest(${pgArray(batch.map((_, i) => i))}::int[], ${pgArray(batch.map((w) => w.senderId))}::int[], ${pgArray(batch.map((w) => w.input.msgId))}::text[]) as v(ord, sender_id, msg_id)
        left join ${users} u on u.id = v.sender_id and u.deleted_at is null and u.banned_at is null
        order by v.ord`),
    );
    const items: Item[] = [];
    const msgIds = new Set<string>();
    for (const row of found) {
      const waiting = batch[Number(row.ord)]!;
      const msgKey = `${waiting.senderId}:${waiting.input.msgId}`;
      // A msgId sent twice in one batch (to two receivers, say): the second is a resend of the
      // first, which it finds once the batch committed.
      const twice = msgIds.has(msgKey);
      msgIds.add(msgKey);
      if (row.resent) {
        // A resend: the message alone finds what was stored and answers it again.
        void goAlone(waiting);
        continue;
      }
      if (twice) {
        later.push(waiting);
        continue;
      }
      if (waiting.input.receiverId === waiting.senderId) {
        waiting.reject(new AppError('cannot-target-self'));
        continue;
      }
      if (!row.found) {
        waiting.reject(errors.userNotFound());
        continue;
      }
      if (!row.email_verified) {
        waiting.resolve({ refused: 'emailNotVerified', receiverId: waiting.input.receiverId, data: { msgId: waiting.input.msgId } });
        continue;
      }
      const sender: Side = { level: Number(row.level), isSeller: row.is_seller, isPartner: row.is_partner, messagePrice: Number(row.message_price), emailVerified: row.email_verified };
      items.push({ ...waiting, sender, price: 0, fanAmount: 0, earnerCents: 0, sentAt: new Date(0), suspected: false });
    }
    return items;
  }

  /**
   * Reads the receivers (gone, banned, in a block with the sender) and opens and locks both
   * sides of every pair's conversation: one statement. Decides each message's price.
   */
  async function openPairs(tx: Tx, items: readonly Item[], decided: Decided): Promise<Item[]> {
    const found = rowsOf<{
      ord: number;
      level: number;
      is_seller: boolean;
      is_partner: boolean;
      message_price: number;
      email_verified: boolean;
      blocked: boolean;
      mine_last: Date | string | null;
      theirs_price: number | null;
      opened: boolean;
    }>(
      await tx.execute(sql`
        with v as (
          select * from unnest(${pgArray(items.map((_, i) => i))}::int[], ${pgArray(items.map((i) => i.senderId))}::int[], ${pgArray(items.map((i) => i.input.receiverId))}::int[]) as v(ord, sender_id, receiver_id)
        ), r as (
          select v.ord, v.sender_id, v.receiver_id, u.level, u.is_seller, u.is_partner, u.message_price, u.email_verified, ${blockedWith(sql`v.sender_id`, sql`u.id`)} as blocked
          from v join ${users} u on u.id = v.receiver_id and u.deleted_at is null and u.banned_at is null
        ), c as (
          insert into ${chatConversations} as c (user_id, partner_id)
          select x.user_id, x.partner_id from r cross join lateral (values (r.sender_id, r.receiver_id), (r.receiver_id, r.sender_id)) as x(user_id, partner_id)
          where not r.blocked
          order by x.user_id, x.partner_id
          on conflict (user_id, partner_id) do update set user_id = excluded.user_id
          returning c.user_id, c.partner_id, c.custom_price, c.last_message_at
        )
        select r.ord, r.level, r.is_seller, r.is_partner, r.message_price, r.email_verified, r.blocked,
          mine.last_message_at as mine_last, theirs.custom_price as theirs_price, mine.user_id is not null and theirs.user_id is not null as opened
        from r left join c mine on mine.user_id = r.sender_id and mine.partner_id = r.receiver_id
        left join c theirs on theirs.user_id = r.receiver_id and theirs.partner_id = r.sender_id`),
    );
    const byOrd = new Map(found.map((row) => [Number(row.ord), row]));
    const open: Item[] = [];
    const nowMs = ctx.clock.now().getTime();
    for (const [i, item] of items.entries()) {
      const row = byOrd.get(i);
      if (row === undefined || row.blocked) {
        decided.failed.set(item, errors.userNotFound());
        continue;
      }
      if (!row.opened) throw new Error('a conversation could not be opened');
      const receiver: Side = { level: Number(row.level), isSeller: row.is_seller, isPartner: row.is_partner, messagePrice: Number(row.message_price), emailVerified: row.email_verified };
      const price = conversationPrice(item.sender, receiver, row.theirs_price === null ? null : Number(row.theirs_price));
      if (!acceptsPrice(price, item.input.price)) {
        decided.refused.set(item, { refused: 'notAcceptedPrice', receiverId: item.input.receiverId, data: { msgId: item.input.msgId, price } });
        continue;
      }
      const last = row.mine_last === null ? 0 : new Date(row.mine_last).getTime();
      const fanAmount = price > 0 ? fanPriceCents(price, ctx.config.priceSalt) : 0;
      open.push({
        ...item,
        receiver,
        price,
        fanAmount,
        // A salt below 1 × would make the fan pay less than the price; the seller never earns more than was paid.
        earnerCents: Math.min(price, fanAmount),
        // Every message of a pair is later than the one before, so paging by sendDt never splits two.
        sentAt: new Date(Math.max(nowMs, last + 1)),
        suspected: isSuspected(item.input.text, item.sender, receiver),
      });
    }
    return open;
  }

  /**
   * Stores the messages, makes each both sides' latest (the receiver's side counting it unread
   * and adding what she earns) and places each in its sender's and receiver's streams, heads
   * locked last in user-id order: one statement. Answers the stored rows with their positions.
   */
  async function storeMessages(tx: Tx, items: readonly Item[]) {
    const col = <T extends string | number | null>(pick: (item: Item) => T) => pgArray(items.map(pick));
    const placed = rowsOf<RawMessage & { ord: number; sender_seq: number | null; receiver_seq: number | null }>(
      await tx.execute(sql`
        with v as (
          select * from unnest(${pgArray(items.map((_, i) => i))}::int[], ${col((i) => i.input.msgId)}::text[], ${col((i) => i.senderId)}::int[], ${col((i) => i.input.receiverId)}::int[],
            ${col((i) => i.input.text)}::text[], ${col((i) => i.price)}::int[], ${col((i) => (i.suspected ? new Date(suspectedUntil(i.sentAt.getTime())).toISOString() : null))}::timestamptz[],
            ${col((i) => i.sentAt.toISOString())}::timestamptz[], ${col((i) => (i.price > 0 ? i.earnerCents : 0))}::bigint[])
            as v(ord, msg_id, sender_id, receiver_id, text, price, suspected_until, created_at, earned)
        ), m as (
          insert into ${chatMessages} (msg_id, sender_id, receiver_id, text, price, gift_id, media_id, suspected_until, created_at)
          select msg_id, sender_id, receiver_id, text, price, null, null, suspected_until, created_at from v order by ord
          on conflict do nothing
          returning ${rawMessageColumns}
        ), mv as (
          select m.*, v.ord, v.earned, case when m.suspected_until is null then null else m.created_at end as suspected_at
          from m join v on v.sender_id = m.sender_id and v.msg_id = m.msg_id and v.receiver_id = m.receiver_id
        ), mine as (
          update ${chatConversations} c set last_message_id = mv.id, last_message_at = mv.created_at, archived = false, agreed_price = mv.price,
            last_suspected_at = coalesce(mv.suspected_at, c.last_suspected_at)
          from mv where c.user_id = mv.sender_id and c.partner_id = mv.receiver_id
          returning 1
        ), theirs as (
          update ${chatConversations} c set last_message_id = mv.id, last_message_at = mv.created_at, last_incoming_at = mv.created_at, archived = false,
            sum_price = c.sum_price + mv.earned, last_suspected_at = coalesce(mv.suspected_at, c.last_suspected_at)
          from mv where c.user_id = mv.receiver_id and c.partner_id = mv.sender_id
          returning 1
        ), x as (
          select sender_id as user_id, id as message_id from m union all select receiver_id, id from m
        ), n as (
          select user_id, count(*)::int as n from x group by user_id
        ), h as (
          insert into ${chatStreamHeads} as h (user_id, seq)
          select user_id, n from n order by user_id
          on conflict (user_id) do update set seq = h.seq + excluded.seq
          returning h.user_id, h.seq
        ), s as (
          insert into ${chatStream} (user_id, seq, message_id)
          select x.user_id, h.seq - n.n + row_number() over (partition by x.user_id order by x.message_id), x.message_id
          from x join h on h.user_id = x.user_id join n on n.user_id = x.user_id
          returning user_id, seq, message_id
        )
        select mv.*, ss.seq as sender_seq, rs.seq as receiver_seq from mv
        left join s ss on ss.message_id = mv.id and ss.user_id = mv.sender_id
        left join s rs on rs.message_id = mv.id and rs.user_id = mv.receiver_id`),
    );
    const stored = new Map<Item, { row: StoredMessage; seqs: Map<number, number> }>();
    for (const row of placed) {
      const item = items[Number(row.ord)]!;
      const seqs = new Map<number, number>();
      if (row.sender_seq !== null) seqs.set(item.senderId, Number(row.sender_seq));
      if (row.receiver_seq !== null) seqs.set(item.input.receiverId, Number(row.receiver_seq));
      stored.set(item, { row: toStored(row), seqs });
    }
    return stored;
  }

  async function writeBatch(batch: readonly Waiting[]): Promise<void> {
    // A msgId twice in the batch: the second goes alone once the batch is over, and finds the first.
    const later: Waiting[] = [];
    const items = await senders(batch, later);
    if (items.length === 0) {
      for (const waiting of later) void goAlone(waiting);
      return;
    }
    let decided: Decided;
    try {
      decided = await inTransaction(db, async (tx) => {
        // A retried attempt decides afresh.
        const now: Decided = { stored: new Map(), refused: new Map(), failed: new Map(), alone: new Set() };
        const open = await openPairs(tx, items, now);
        const paid = open.filter((item) => item.price > 0 && item.fanAmount > 0);
        const payments: PaymentInput[] = paid.map((item) => ({
          key: `chat:${item.senderId}:${item.input.msgId}`,
          kind: 'chat-message',
          fanId: item.senderId,
          earnerId: item.input.receiverId,
          fanAmount: item.fanAmount,
          earnerCents: item.earnerCents,
          via: item.via,
        }));
        const plan = await planPayments(tx, payments);
        const refusedPay = new Set<Item>();
        for (const [i, planned] of plan.items.entries()) {
          const item = paid[i]!;
          if (planned.status === 'accepted') continue;
          refusedPay.add(item);
          if (planned.status === 'refused' && planned.error.key === 'noMoney') now.refused.set(item, { refused: 'noCredit', receiverId: item.input.receiverId, data: { msgId: item.input.msgId } });
          else if (planned.status === 'refused' && planned.error.key !== 'idempotency-conflict') now.failed.set(item, planned.error);
          // Its key was used already, or the ledger leaves it to `pay`: the message goes alone.
          else now.alone.add(item);
        }
        const toStore = open.filter((item) => !refusedPay.has(item));
        const stored = toStore.length === 0 ? new Map<Item, { row: StoredMessage; seqs: Map<number, number> }>() : await storeMessages(tx, toStore);
        // A message not stored — its msgId taken meanwhile by a resend — is answered as that resend.
        for (const item of toStore) if (!stored.has(item)) now.alone.add(item);
        const messageOf = new Map(paid.map((item, i) => [i, stored.get(item)?.row.id]));
        await writePayments(
          tx,
          plan,
          [...messageOf].filter(([, id]) => id !== undefined).map(([i]) => i),
          (i) => ({ messageId: messageOf.get(i)! }),
        );
        for (const item of paid) if (stored.has(item)) balancesChanged(tx, [item.senderId, item.input.receiverId]);
        now.stored = stored;
        return now;
      });
    } catch (error) {
      // The batch as a whole failed: each message is sent alone, under its own msgId.
      ctx.log.warn({ err: error, messages: items.length }, 'chat: a batch of messages failed; sending them one by one');
      for (const item of [...items, ...later]) void goAlone(item);
      return;
    }
    for (const [item, outcome] of decided.refused) item.resolve(outcome);
    for (const [item, error] of decided.failed) item.reject(error);
    // Delivered, and the undecided sent alone, while the next batch is written.
    for (const [item, { row, seqs }] of decided.stored) {
      deliver(row, false, seqs).then((message) => item.resolve({ stored: message, replayed: false }), item.reject);
    }
    for (const item of [...decided.alone, ...later]) void goAlone(item);
  }

  // One pair at most once a batch: each conversation row is written once by its statements.
  const submit = groupCommit<Waiting>((batch) => writeBatch(batch), {
    maxBatch,
    conflict: (waiting) => `${Math.min(waiting.senderId, waiting.input.receiverId)}:${Math.max(waiting.senderId, waiting.input.receiverId)}`,
    failed: (batch, error) => {
      for (const waiting of batch) waiting.reject(error);
    },
  });

  return {
    /** A message sent with the others that arrive meanwhile; answered once its batch committed. */
    send(senderId: number, input: ChatMessageInput, via: SpendVia): Promise<SendOutcome> {
      return new Promise<SendOutcome>((resolve, reject) => submit({ senderId, input, via, resolve, reject }));
    },
  };
}

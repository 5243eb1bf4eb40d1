import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db';
import { chatConversations, chatMessages, users, type ChatMessageRow } from '../../db/schema';
import { AppError, errors } from '../../errors';
import type { Tx } from '../../ledger';
import { blockedWith } from '../posts/access';
import type { PricedSide } from './domain';

/**
 * The statements of a chat message's write (docs/performance.md, "Durable money writes"): each
 * one does what used to take several round trips to the database, since a paid message's time
 * on the server is mostly spent sending statements and waiting for their answers.
 */

export type Side = PricedSide & { isPartner: boolean; emailVerified: boolean };

/** A stored message as the chat service reads it (`messageColumns`). */
export type StoredMessage = Pick<
  ChatMessageRow,
  | 'id'
  | 'msgId'
  | 'senderId'
  | 'receiverId'
  | 'text'
  | 'price'
  | 'giftId'
  | 'mediaId'
  | 'massId'
  | 'suspectedUntil'
  | 'senderReactionId'
  | 'receiverReactionId'
  | 'callId'
  | 'createdAt'
>;

export interface RawMessage {
  id: number;
  msg_id: string;
  sender_id: number;
  receiver_id: number;
  text: string;
  price: number;
  gift_id: number | null;
  media_id: number | null;
  mass_id: number | null;
  suspected_until: Date | string | null;
  sender_reaction_id: number | null;
  receiver_reaction_id: number | null;
  call_id: string | null;
  created_at: Date | string;
}

export const rawMessageColumns = sql.raw(
  'id, msg_id, sender_id, receiver_id, text, price, gift_id, media_id, mass_id, suspected_until, sender_reaction_id, receiver_reaction_id, call_id, created_at',
);

const dateOf = (value: Date | string) => (value instanceof Date ? value : new Date(value));

export function toStored(row: RawMessage): StoredMessage {
  return {
    id: Number(row.id),
    msgId: row.msg_id,
    senderId: Number(row.sender_id),
    receiverId: Number(row.receiver_id),
    text: row.text,
    price: Number(row.price),
    giftId: row.gift_id === null ? null : Number(row.gift_id),
    mediaId: row.media_id === null ? null : Number(row.media_id),
    massId: row.mass_id === null ? null : Number(row.mass_id),
    suspectedUntil: row.suspected_until === null ? null : dateOf(row.suspected_until),
    senderReactionId: row.sender_reaction_id === null ? null : Number(row.sender_reaction_id),
    receiverReactionId: row.receiver_reaction_id === null ? null : Number(row.receiver_reaction_id),
    callId: row.call_id,
    createdAt: dateOf(row.created_at),
  };
}

/**
 * The sender as a message needs them (undefined when deleted or banned) and whether `msgId`
 * was stored already (a resend): one statement, before any transaction.
 */
export async function senderAndResend(tx: Tx, senderId: number, msgId: string): Promise<{ sender: Side | undefined; resent: boolean }> {
  const [row] = rowsOf<{ found: boolean; level: number; is_seller: boolean; is_partner: boolean; message_price: number; email_verified: boolean; resent: boolean }>(
    await tx.execute(sql`
      select u.id is not null as found, u.level, u.is_seller, u.is_partner, u.message_price, u.email_verified,
        exists (select 1 from ${chatMessages} m where m.sender_id = ${senderId}::int and m.msg_id = ${msgId}) as resent
      from (select 1) one left join ${users} u on u.id = ${senderId}::int and u.deleted_at is null and u.banned_at is null`),
  );
  const sender =
    row === undefined || !row.found
      ? undefined
      : { level: Number(row.level), isSeller: row.is_seller, isPartner: row.is_partner, messagePrice: Number(row.message_price), emailVerified: row.email_verified };
  return { sender, resent: row?.resent ?? false };
}

export interface OpenPair {
  receiver: Side;
  /** The sender's side of the conversation: when the pair last wrote. */
  mine: { lastMessageAt: Date | null };
  /** The receiver's side: the price she set for this sender. */
  theirs: { customPrice: number | null };
}

/**
 * Reads the receiver (refusing one who is gone, or in a block with the sender, as missing) and
 * opens (on first use) and locks both sides of the pair's conversation, lower user id first,
 * so messages of one pair are stored one after the other whichever way they go and never
 * deadlock: one statement. The upsert takes the rows' locks as `SELECT … FOR UPDATE` would.
 */
export async function openPair(tx: Tx, senderId: number, receiverId: number): Promise<OpenPair> {
  if (senderId === receiverId) throw new AppError('cannot-target-self');
  const low = Math.min(senderId, receiverId);
  const high = Math.max(senderId, receiverId);
  const rows = rowsOf<{
    level: number;
    is_seller: boolean;
    is_partner: boolean;
    message_price: number;
    email_verified: boolean;
    blocked: boolean;
    user_id: number | null;
    custom_price: number | null;
    last_message_at: Date | string | null;
  }>(
    await tx.execute(sql`
      with r as (
        select level, is_seller, is_partner, message_price, email_verified, ${blockedWith(senderId, users.id)} as blocked
        from ${users} where ${users.id} = ${receiverId}::int and ${users.deletedAt} is null and ${users.bannedAt} is null
      ), c as (
        insert into ${chatConversations} as c (user_id, partner_id)
        select v.user_id, v.partner_id from (values (${low}::int, ${high}::int), (${high}::int, ${low}::int)) v(user_id, partner_id)
        where exists (select 1 from r where not r.blocked)
        order by v.user_id
        on conflict (user_id, partner_id) do update set user_id = excluded.user_id
        returning c.user_id, c.custom_price, c.last_message_at
      )
      select r.*, c.user_id, c.custom_price, c.last_message_at from r left join c on true`),
  );
  const first = rows[0];
  if (first === undefined || first.blocked) throw errors.userNotFound();
  const mine = rows.find((row) => Number(row.user_id) === senderId);
  const theirs = rows.find((row) => Number(row.user_id) === receiverId);
  if (mine === undefined || theirs === undefined) throw new Error('a conversation could not be opened');
  return {
    receiver: { level: Number(first.level), isSeller: first.is_seller, isPartner: first.is_partner, messagePrice: Number(first.message_price), emailVerified: first.email_verified },
    mine: { lastMessageAt: mine.last_message_at === null ? null : dateOf(mine.last_message_at) },
    theirs: { customPrice: theirs.custom_price === null ? null : Number(theirs.custom_price) },
  };
}

export interface NewMessage {
  msgId: string;
  senderId: number;
  receiverId: number;
  text: string;
  price: number;
  giftId: number | null;
  mediaId: number | null;
  suspectedUntil: Date | null;
  sentAt: Date;
  /** Cents the receiver earns by it (its price and its gift), added to her side's sum. */
  earned: number;
}

/**
 * Stores a message and makes it both sides' latest (the receiver's side also counts it unread
 * and adds what she earns): one statement. Undefined when the sender's `msgId` was stored
 * already — by a resend that got here first — and then nothing is changed.
 */
export async function storeMessage(tx: Tx, message: NewMessage): Promise<StoredMessage | undefined> {
  const at = sql`${message.sentAt.toISOString()}::timestamptz`;
  const suspectedAt = message.suspectedUntil === null ? sql`null::timestamptz` : at;
  const [row] = rowsOf<RawMessage>(
    await tx.execute(sql`
      with m as (
        insert into ${chatMessages} (msg_id, sender_id, receiver_id, text, price, gift_id, media_id, suspected_until, created_at)
        values (${message.msgId}, ${message.senderId}::int, ${message.receiverId}::int, ${message.text}, ${message.price}::int, ${message.giftId}::int,
          ${message.mediaId}::int, ${message.suspectedUntil === null ? null : message.suspectedUntil.toISOString()}::timestamptz, ${at})
        on conflict do nothing
        returning ${rawMessageColumns}
      ), mine as (
        update ${chatConversations} c set last_message_id = m.id, last_message_at = m.created_at, archived = false, agreed_price = m.price,
          last_suspected_at = coalesce(${suspectedAt}, c.last_suspected_at)
        from m where c.user_id = ${message.senderId}::int and c.partner_id = ${message.receiverId}::int
        returning 1
      ), theirs as (
        update ${chatConversations} c set last_message_id = m.id, last_message_at = m.created_at, last_incoming_at = m.created_at, archived = false,
          sum_price = c.sum_price + ${message.earned}::bigint, last_suspected_at = coalesce(${suspectedAt}, c.last_suspected_at)
        from m where c.user_id = ${message.receiverId}::int and c.partner_id = ${message.senderId}::int
        returning 1
      )
      select m.* from m`),
  );
  return row === undefined ? undefined : toStored(row);
}

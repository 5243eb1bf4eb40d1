import { sql } from 'drizzle-orm';
import { bigint, boolean, primaryKey, index, integer, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';

import { calls } from './calls';
import { gifts } from './money';
import { media, users } from './people';

// Conversations, mass messages, messages and the message streams (migrations 0004, 0005, 0007, 0009).

/**
 * One side of a conversation (SPEC §3 Conversation): `userId`'s view of the chat with
 * `partnerId`. Each pair has two rows, so what belongs to one side — when they last read it,
 * whether they archived it, the price they agreed to, the price they (as a seller) ask of the
 * other, what they earned — is a plain column, and the list of one's conversations is one
 * index range.
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Messages from the partner sent up to this instant count as read (chatConvRead). */
    lastReadAt: timestamp('last_read_at', { withTimezone: true }),
    /** Hidden from the user's list until the next message in either direction. */
    archived: boolean('archived').notNull().default(false),
    /** Cents per message the user last accepted (and paid) writing to the partner. */
    agreedPrice: integer('agreed_price').notNull().default(0),
    /** Cents per message the user, as a seller, asks of this partner instead of their messagePrice. */
    customPrice: integer('custom_price'),
    /** Cents the user earned in this conversation: paid messages, unlocked media, gifts. */
    sumPrice: bigint('sum_price', { mode: 'number' }).notNull().default(0),
    lastMessageId: integer('last_message_id'),
    /** The latest message either way; every message of a pair has a later sendDt than the one before. */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    /** The latest message from the partner: unread while after `lastReadAt`. */
    lastIncomingAt: timestamp('last_incoming_at', { withTimezone: true }),
    /** The latest suspected message of the pair (SPEC §4: marked 24 h). */
    lastSuspectedAt: timestamp('last_suspected_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.partnerId] }),
    // The list's order, so a page is read off the index and only its rows are counted.
    index('chat_conversations_list_idx').on(t.userId, t.lastMessageAt.desc(), t.partnerId.desc()).where(sql`${t.lastMessageId} is not null`),
    // The Chat badge counts these rows: few per user, found without reading the rest.
    index('chat_conversations_unread_idx')
      .on(t.userId)
      .where(sql`${t.lastIncomingAt} > coalesce(${t.lastReadAt}, '-infinity'::timestamptz) and not ${t.archived}`),
  ],
);

/** A creator's message to a whole group (SPEC §7 massChatMessage); each receiver gets a chat message of it. */
export const chatMassMessages = pgTable(
  'chat_mass_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The sender's own id of it: a resend is recognised and not sent again. */
    msgId: text('msg_id').notNull(),
    /** followers, subscribers or expired-subscribers. */
    recGroup: text('rec_group').notNull(),
    text: text('text').notNull().default(''),
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'set null' }),
    recipientsCount: integer('recipients_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('chat_mass_messages_msg_idx').on(t.senderId, t.msgId), index('chat_mass_messages_group_idx').on(t.senderId, t.recGroup, t.createdAt)],
);

/**
 * Chat messages (SPEC §3 Chat message). `id` ascends over the whole platform (positions in
 * each user's stream, `chatStream`, are the resume cursor); `msgId` is the sender's id,
 * unique per sender, so a resend finds the stored message.
 * `lowUserId`/`highUserId` name the pair whichever way the message went, for the history index.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    msgId: text('msg_id').notNull(),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    receiverId: integer('receiver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lowUserId: integer('low_user_id').generatedAlwaysAs(sql`least(sender_id, receiver_id)`),
    highUserId: integer('high_user_id').generatedAlwaysAs(sql`greatest(sender_id, receiver_id)`),
    text: text('text').notNull().default(''),
    /** Cents the receiver earned for the message (the fan paid it with the salt); 0 when free. */
    price: integer('price').notNull().default(0),
    giftId: integer('gift_id').references(() => gifts.id),
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'set null' }),
    massId: integer('mass_id').references(() => chatMassMessages.id, { onDelete: 'set null' }),
    /** Marked suspected until then (docs/realtime.md names the rule). */
    suspectedUntil: timestamp('suspected_until', { withTimezone: true }),
    senderReactionId: integer('sender_reaction_id'),
    senderReactedAt: timestamp('sender_reacted_at', { withTimezone: true }),
    receiverReactionId: integer('receiver_reaction_id'),
    /** When the receiver reacted: unseen by the sender until the sender reads the conversation. */
    receiverReactedAt: timestamp('receiver_reacted_at', { withTimezone: true }),
    /**
     * A call entry (docs/calls.md "In the chat"): the call it tells of, written once by the
     * transaction that ends the call. Its sender is the caller, its receiver the callee; what
     * it shows (state, duration, minutes, each side's amount) is read from the call's row.
     */
    callId: text('call_id').references((): AnyPgColumn => calls.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('chat_messages_msg_idx').on(t.senderId, t.msgId),
    // One entry per call: a close that runs again (a retry, two crash closers) writes nothing more.
    uniqueIndex('chat_messages_call_idx').on(t.callId).where(sql`${t.callId} is not null`),
    index('chat_messages_pair_idx').on(t.lowUserId, t.highUserId, t.createdAt),
    index('chat_messages_sender_idx').on(t.senderId, t.id),
    index('chat_messages_receiver_idx').on(t.receiverId, t.id),
    index('chat_messages_reactions_idx').on(t.senderId, t.receiverReactedAt).where(sql`${t.receiverReactedAt} is not null`),
    index('chat_messages_media_idx').on(t.lowUserId, t.highUserId, t.id).where(sql`${t.mediaId} is not null`),
    index('chat_messages_mass_idx').on(t.massId).where(sql`${t.massId} is not null`),
  ],
);

/**
 * Each user's chat stream (docs/realtime.md "Resume"): every chat message a user sent or
 * received has a position in that user's stream, 1, 2, 3, … with no gaps, handed out inside
 * the transaction that stores the message under a lock on the user's head row. The lock is
 * held until commit, so a user's positions commit in order (a later one never becomes visible
 * before an earlier one) and a rolled-back position is handed out again: a client that holds
 * everything up to a position can resume after it and miss nothing. Message ids cannot do
 * that: two messages stored at the same moment may commit out of id order.
 */
export const chatStreamHeads = pgTable('chat_stream_heads', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The last position handed out in the user's stream (0 before their first message). */
  seq: integer('seq').notNull().default(0),
});

/** A message's position in the stream of its sender and of its receiver (one row each). */
export const chatStream = pgTable(
  'chat_stream',
  {
    userId: integer('user_id').notNull(),
    seq: integer('seq').notNull(),
    messageId: integer('message_id')
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
  },
  (t) => [
    // A resume reads one user's range in order off the primary key.
    primaryKey({ columns: [t.userId, t.seq] }),
    // A message's position for its viewer (histories, echoes), and the cascade from a deleted message.
    uniqueIndex('chat_stream_message_idx').on(t.messageId, t.userId),
  ],
);

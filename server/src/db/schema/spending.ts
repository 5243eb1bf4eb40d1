import { sql } from 'drizzle-orm';
import { boolean, jsonb, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

import { users } from './people';
import { embedConsents } from './trust';

// Spending controls, spends and spend requests (migration 0017).

/**
 * A fan's own spending limits and cool-down (docs/spending.md). A limit is lowered at once and
 * raised (or removed) only from `*_next_at`, a day after the fan asked; the row is also what a
 * spend locks first, so a fan's spends are checked one after another.
 */
export const spendingControls = pgTable('spending_controls', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Credits a UTC day, a UTC calendar month; null: no limit. */
  dailyLimit: integer('daily_limit'),
  monthlyLimit: integer('monthly_limit'),
  /** A raise waiting for its day: the limit it becomes (null: none) from `*_next_at`. */
  dailyLimitNext: integer('daily_limit_next'),
  dailyLimitNextAt: timestamp('daily_limit_next_at', { withTimezone: true }),
  monthlyLimitNext: integer('monthly_limit_next'),
  monthlyLimitNextAt: timestamp('monthly_limit_next_at', { withTimezone: true }),
  /** No spending at all until then. */
  cooldownUntil: timestamp('cooldown_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every spend of a fan's credits, with where it happened: the receipts of the wallet and of
 * each allowed site, and what the limits and allowances are summed over. Written in the
 * transaction of the ledger transfer (or hold) it describes.
 */
export const spends = pgTable(
  'spends',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** gift (a tip is a gift with no post), unlock, chat-media, chat-message, subscription, call. */
    kind: text('kind').notNull(),
    /** Credits; a call minute's hold given back lowers it. */
    amount: integer('amount').notNull(),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    /** The partner site it was spent on; null on the platform's own pages. */
    origin: text('origin'),
    /** Confirmed by the fan in the platform's popup (a spend request), not by an allowance. */
    confirmed: boolean('confirmed').notNull().default(false),
    /** The ledger transfer's key (or `hold:{key}` for a call minute). */
    transferKey: text('transfer_key').notNull(),
    holdId: integer('hold_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('spends_user_time_idx').on(t.userId, t.createdAt),
    uniqueIndex('spends_transfer_key_idx').on(t.transferKey),
    index('spends_hold_idx').on(t.holdId).where(sql`${t.holdId} is not null`),
  ],
);

/**
 * A spend a widget asked for and the fan must confirm on the platform's own page (a payment
 * intent): what, to whom, how much, for which site. The widget sends its request again with the
 * confirmed request's id, which is used once; a card payment is made in the popup itself and
 * links its order here.
 */
export const spendRequests = pgTable(
  'spend_requests',
  {
    /** Random, 22 base64url characters: the popup's address names it. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    consentId: integer('consent_id')
      .notNull()
      .references(() => embedConsents.id, { onDelete: 'cascade' }),
    /** tip, gift, unlock, chat-media, chat-message, subscription, call, topup, subscription-card. */
    kind: text('kind').notNull(),
    /** Credits (a call: a minute's); for a card payment the cents charged. */
    amount: integer('amount').notNull(),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'cascade' }),
    /** What a resend must match besides kind, creator and amount (`gift:3`, `media:17`, `package:2`). */
    subject: text('subject').notNull(),
    /** What the popup shows beyond the above (gift, post, offer, package, card). */
    details: jsonb('details').$type<Record<string, string | number | null>>().notNull().default({}),
    /** pending, confirmed, used, cancelled. */
    status: text('status').notNull().default('pending'),
    /** The card order the popup made for it. */
    orderId: text('order_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [index('spend_requests_user_idx').on(t.userId, t.createdAt), index('spend_requests_expires_idx').on(t.expiresAt)],
);

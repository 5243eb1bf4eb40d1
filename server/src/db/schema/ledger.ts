import { sql } from 'drizzle-orm';
import { bigint, boolean, check, jsonb, primaryKey, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

import { users } from './people';

// The double-entry ledger: accounts, transfers, entries, pending credits and holds (migrations 0003, 0022).

/**
 * The ledger (DESIGN.md "Money"). Every amount is integer cents (for fans' wallets one credit is
 * one cent). An account's balance only changes together with an entry of a transfer in the same
 * transaction, and the entries of a transfer sum to zero, so the sum over all accounts is zero.
 * Only the outside world's accounts (card processors, promotions, payouts sent) may go negative.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** wallet, earnings (per user); fees, promotions, holds, payouts-pending, payouts-sent, processor (platform). */
    kind: text('kind').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'restrict' }),
    /** For processor accounts: which processor the money came through. */
    processor: text('processor'),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    allowNegative: boolean('allow_negative').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_owner_idx').on(t.kind, sql`coalesce(${t.userId}, 0)`, sql`coalesce(${t.processor}, '')`),
    check('ledger_accounts_not_negative', sql`${t.allowNegative} or ${t.balance} >= 0`),
  ],
);

/**
 * One movement of money. `idempotencyKey` names the business event (a callback of one order,
 * one unlock, one renewal period); repeating it returns the first transfer, and the same key
 * with a different request (`requestHash`) is refused.
 */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** topup, gift, unlock, subscription, hold, hold-settle, hold-release, payout, payout-sent, payout-returned, promotion, correction, chat-message, chat-media, call. */
    kind: text('kind').notNull(),
    /** Who paid or asked (the fan for spending, the creator for payouts). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The other person: the creator paid, or the fan who paid. */
    counterpartyId: integer('counterparty_id').references(() => users.id, { onDelete: 'set null' }),
    /** What it was for: postId, giftId, mediaId, offerId, subscriptionId, orderId, holdId, payoutId, conversation … */
    meta: jsonb('meta').$type<Record<string, string | number | null>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ledger_transfers_key_idx').on(t.idempotencyKey)],
);

/** The legs of a transfer: positive adds to the account's balance, negative takes from it. Never edited. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transferId: integer('transfer_id')
      .notNull()
      .references(() => ledgerTransfers.id, { onDelete: 'restrict' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ledger_entries_account_idx').on(t.accountId, t.id.desc()), index('ledger_entries_transfer_idx').on(t.transferId)],
);

/**
 * Credits posted to an account but not yet added to its stored balance (docs/ledger.md,
 * "Pending credits"): every payment credits the platform's fees and a creator's earnings, and
 * adding to those balances in the payment's transaction would lock the row until it commits —
 * every payment on the platform, or to one creator, one after the other. A credit is written
 * here instead, beside its entries, and the `ledger-pending-credits` job (or the next debit of
 * the account) adds it to the balance and removes it, in one transaction. An account holds its
 * balance plus its pending credits; the entries stay the record of every movement.
 */
export const ledgerPendingCredits = pgTable(
  'ledger_pending_credits',
  {
    transferId: integer('transfer_id')
      .notNull()
      .references(() => ledgerTransfers.id, { onDelete: 'restrict' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
    /** What the transfer added to the account, net of its legs there: always more than zero. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.transferId, t.accountId] }),
    index('ledger_pending_credits_account_idx').on(t.accountId),
    check('ledger_pending_credits_positive', sql`${t.amount} > 0`),
  ],
);

/**
 * Money set aside from a wallet that may be spent (a paid call's next minutes): reserved into
 * the platform's holds account, then settled to the earner (partly or fully) or released.
 * An open hold past `expiresAt` is released by the sweeper.
 */
export const ledgerHolds = pgTable(
  'ledger_holds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The business event that asked for it; reserving with the same key returns this hold. */
    key: text('key').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** Who may be paid from it. */
    beneficiaryId: integer('beneficiary_id').references(() => users.id, { onDelete: 'restrict' }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** What is still held: amount minus settled minus released. */
    remaining: bigint('remaining', { mode: 'number' }).notNull(),
    /** open or closed. */
    status: text('status').notNull().default('open'),
    purpose: text('purpose').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ledger_holds_key_idx').on(t.key),
    index('ledger_holds_open_idx').on(t.expiresAt).where(sql`${t.status} = 'open'`), check('ledger_holds_remaining', sql`${t.remaining} >= 0`),
  ],
);

import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, smallint, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

import { users } from './people';

// The gift catalogue, credit packages, cards, payment orders, subscriptions and payouts (migrations 0003, 0011, 0012).

/** The gift catalogue (SPEC §3 Gift). */
export const gifts = pgTable('gifts', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  imageName: text('image_name').notNull().unique(),
  /** Credits the sender pays. */
  gValue: integer('g_value').notNull(),
  /** Cents the receiver earns. */
  cValue: integer('c_value').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  active: boolean('active').notNull().default(true),
});

/** Credit packages (SPEC §3 Package): `cValue` credits for `gValue` cents charged to the card. */
export const creditPackages = pgTable('credit_packages', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  cValue: integer('c_value').notNull(),
  gValue: integer('g_value').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  active: boolean('active').notNull().default(true),
});

/** Cards saved with a processor; we keep only the processor's reference and what a person needs to recognise the card. */
export const paymentCards = pgTable(
  'payment_cards',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processor: text('processor').notNull(),
    /** The processor's token for the card; never a card number. */
    token: text('token').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: smallint('exp_month').notNull(),
    expYear: smallint('exp_year').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('payment_cards_user_idx').on(t.userId)],
);

/**
 * A card payment: credits for a package, or a subscription's payment. `id` is the public order
 * id the processor and `/gopay-return?id=` carry. Status: created, challenge (second step
 * asked), processing, paid, declined, failed, expired.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processor: text('processor').notNull(),
    /** credits or subscription. */
    purpose: text('purpose').notNull(),
    packageId: integer('package_id').references(() => creditPackages.id),
    subscriptionId: integer('subscription_id').references((): AnyPgColumn => subscriptions.id, { onDelete: 'set null' }),
    /** Cents charged to the card. */
    amount: integer('amount').notNull(),
    /** Credits the wallet receives when paid. */
    credits: integer('credits').notNull(),
    status: text('status').notNull().default('created'),
    cardId: integer('card_id').references(() => paymentCards.id, { onDelete: 'set null' }),
    saveCard: boolean('save_card').notNull().default(false),
    /** The processor's own reference for the charge. */
    externalId: text('external_id'),
    failureReason: text('failure_reason'),
    /** Where the person returns after the processor's page. */
    returnUrl: text('return_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_orders_user_idx').on(t.userId, t.createdAt.desc())],
);

/** Subscription offers a seller makes (SPEC §3 Subscription, offer side): monthly `priceCents` earned by the creator. */
export const subscriptionOffers = pgTable(
  'subscription_offers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    priceCents: integer('price_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Archived: no longer offered to new subscribers; those subscribed keep renewing. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [index('subscription_offers_user_idx').on(t.userId)],
);

/**
 * A fan's subscription to an offer. Status (SPEC §4): 11 waiting for payment, 12 payment
 * processing, 21 active, 23 renewal payment failed (still active until the end date),
 * 24 cancelled (active until the end date, can be reverted), 50 expired.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    offerId: integer('offer_id')
      .notNull()
      .references(() => subscriptionOffers.id, { onDelete: 'restrict' }),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: smallint('status').notNull().default(11),
    /** Cents the creator earns each period (the offer's price when subscribed). */
    priceCents: integer('price_cents').notNull(),
    /** credits or card. */
    payWith: text('pay_with').notNull().default('credits'),
    cardId: integer('card_id').references(() => paymentCards.id, { onDelete: 'set null' }),
    /** Periods paid so far; the renewal of period n carries the idempotency key subscription:{id}:{n}. */
    periodsPaid: integer('periods_paid').notNull().default(0),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_subscriber_idx').on(t.subscriberId, t.status),
    index('subscriptions_creator_idx').on(t.creatorId, t.status),
    index('subscriptions_renewal_idx').on(t.periodEnd).where(sql`${t.status} in (21, 23, 24)`),
  ],
);

/** Payout requests (SPEC §7 POST /api/earnings/payout): the platform pays them by PayPal or card, once. */
export const payoutRequests = pgTable(
  'payout_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amount: integer('amount').notNull(),
    /** paypal or card. */
    method: text('method').notNull(),
    /** requested, sent, returned. */
    status: text('status').notNull().default('requested'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Where it is to be paid, as it was when asked: the PayPal e-mail, or the card's brand and last digits. */
    destination: text('destination'),
  },
  (t) => [index('payout_requests_user_idx').on(t.userId, t.createdAt.desc())],
);

/**
 * Where a creator's payouts go (one per creator): a PayPal e-mail, or one of the creator's
 * cards saved with the card processor (only its token is held, never a card number).
 */
export const payoutDestinations = pgTable('payout_destinations', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** paypal or card. */
  method: text('method').notNull(),
  paypalEmail: text('paypal_email'),
  cardId: integer('card_id').references(() => paymentCards.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

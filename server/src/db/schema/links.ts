import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

import { users } from './people';
import { subscriptionOffers, subscriptions } from './money';
import { ledgerTransfers } from './ledger';

// Tracking links, their visits and free trials, and where each spend happened (migration 0024; docs/creators.md).

/**
 * A creator's named tracking link (one per channel: "TikTok bio", "my blog"): `/{username}?l={code}`
 * on the platform, or a widget's `link` attribute on a partner page. It may carry a free trial
 * (`trialDays` of `trialOfferId`, for at most `trialLimit` fans, until `trialUntil`; then the
 * subscription renews when `trialThen` is `renew`, or ends) or a first-month discount
 * (`discountPercent` off the first payment of `discountOfferId`, for at most `discountLimit`
 * fans, until `discountUntil`; migration 0025).
 */
export const trackingLinks = pgTable(
  'tracking_links',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 8 lower-case letters and digits, made by the server. */
    code: text('code').notNull(),
    trialOfferId: integer('trial_offer_id').references(() => subscriptionOffers.id, { onDelete: 'set null' }),
    trialDays: smallint('trial_days'),
    trialLimit: integer('trial_limit'),
    trialUntil: timestamp('trial_until', { withTimezone: true }),
    /** renew or end. */
    trialThen: text('trial_then'),
    discountOfferId: integer('discount_offer_id').references(() => subscriptionOffers.id, { onDelete: 'set null' }),
    discountPercent: smallint('discount_percent'),
    discountLimit: integer('discount_limit'),
    discountUntil: timestamp('discount_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('tracking_links_code_idx').on(t.code),
    uniqueIndex('tracking_links_name_idx').on(t.creatorId, sql`lower(${t.name})`).where(sql`${t.endedAt} is null`),
  ],
);

/**
 * One visit through a tracking link, by a browser known by the server's first-party visitor
 * cookie; `userId` is filled in when that browser signs up or in (`signedUp` for a sign-up).
 */
export const linkVisits = pgTable(
  'link_visits',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    linkId: integer('link_id')
      .notNull()
      .references(() => trackingLinks.id, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    signedUp: boolean('signed_up').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('link_visits_link_idx').on(t.linkId, t.createdAt),
    index('link_visits_visitor_idx').on(t.visitor).where(sql`${t.userId} is null`),
    index('link_visits_user_idx').on(t.userId, t.linkId),
  ],
);

/** A free trial a fan took through a link: once per fan and creator. */
export const linkTrials = pgTable(
  'link_trials',
  {
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fanId: integer('fan_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkId: integer('link_id')
      .notNull()
      .references(() => trackingLinks.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.fanId] }), index('link_trials_link_idx').on(t.linkId)],
);

/**
 * A first-month discount a fan was given through a link: once per fan and creator, written in the
 * transaction of the discounted payment (`transferId`), with the cents the creator earned of it.
 */
export const linkDiscounts = pgTable(
  'link_discounts',
  {
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fanId: integer('fan_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkId: integer('link_id')
      .notNull()
      .references(() => trackingLinks.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    transferId: integer('transfer_id').references(() => ledgerTransfers.id, { onDelete: 'set null' }),
    percent: smallint('percent').notNull(),
    earnedCents: bigint('earned_cents', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.fanId] }), index('link_discounts_link_idx').on(t.linkId)],
);

/**
 * Where a spend happened, written in the spend's own transaction from what the server knows:
 * the partner origin of the widget session (null for the platform's pages) and the tracking
 * link that brought the fan. `earnedCents` is the creator's entry of the transfer.
 */
export const spendAttributions = pgTable(
  'spend_attributions',
  {
    transferId: integer('transfer_id')
      .primaryKey()
      .references(() => ledgerTransfers.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fanId: integer('fan_id').references(() => users.id, { onDelete: 'set null' }),
    /** gift, unlock, chat-message, chat-media, subscription, call. */
    kind: text('kind').notNull(),
    earnedCents: bigint('earned_cents', { mode: 'number' }).notNull(),
    origin: text('origin'),
    linkId: integer('link_id').references(() => trackingLinks.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('spend_attributions_creator_idx').on(t.creatorId, t.createdAt), index('spend_attributions_link_idx').on(t.linkId)],
);

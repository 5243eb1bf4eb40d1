import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

import { users } from './people';

// Partner applications, identity checks and their documents, callbacks and decisions (migration 0010).

/**
 * The partner form of a person who applies to the partner programme (SPEC §2
 * /partner-registration): who and where the money goes, validated with the settings' partner
 * expressions. `partnerCode` is the partner's own `C-` code, given on approval; `referredCode`
 * the code of the partner who brought the applicant (`reg-done?companyCode`).
 */
export const partnerApplications = pgTable(
  'partner_applications',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    street: text('street').notNull(),
    zip: text('zip').notNull(),
    /** ISO 3166-1 alpha-2. */
    country: text('country').notNull(),
    /** Upper case, without spaces. */
    iban: text('iban').notNull(),
    companyId: text('company_id'),
    partnerCode: text('partner_code'),
    referredCode: text('referred_code'),
    /** The administrator's reason of the last decline, shown to the applicant. */
    declineReason: text('decline_reason'),
    /** SPEC §5 actionGirl: 0 none, 1 offered, 2 accepted, 3 refused. */
    actionGirlState: smallint('action_girl_state').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the registration was finished (reg-done). */
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('partner_applications_code_idx').on(t.partnerCode).where(sql`${t.partnerCode} is not null`)],
);

/**
 * Identity checks at an identity provider (docs/identity.md): one row per attempt. `status`
 * is the provider's verdict once its signed callback arrived.
 */
export const identityChecks = pgTable(
  'identity_checks',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    status: text('status').notNull(),
    /** The provider's own reference of the check. */
    externalId: text('external_id'),
    /** The provider's or the administrator's reason of a decline or a review. */
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('identity_checks_user_idx').on(t.userId, t.createdAt),
    check('identity_checks_status', sql`${t.status} in ('started', 'approved', 'declined', 'review', 'cancelled')`),
  ],
);

/** The pictures of an identity check (ID front, back, selfie): only their owner and administrators see them. */
export const identityDocuments = pgTable(
  'identity_documents',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    checkId: text('check_id')
      .notNull()
      .references(() => identityChecks.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    storageKey: text('storage_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('identity_documents_check_kind_idx').on(t.checkId, t.kind), check('identity_documents_kind', sql`${t.kind} in ('front', 'back', 'selfie')`)],
);

/** Every provider callback taken, by its event id: the same callback sent again is refused. */
export const identityCallbacks = pgTable('identity_callbacks', {
  eventId: text('event_id').primaryKey(),
  checkId: text('check_id').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The administrators' decisions on partner applications and identity checks: who, what, when, why. */
export const partnerDecisions = pgTable(
  'partner_decisions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    adminId: integer('admin_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    fromState: smallint('from_state').notNull(),
    toState: smallint('to_state').notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('partner_decisions_user_idx').on(t.userId, t.createdAt)],
);

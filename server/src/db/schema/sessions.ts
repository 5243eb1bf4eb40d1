import { sql } from 'drizzle-orm';
import { boolean, jsonb, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

import { users } from './people';
import { embedConsents } from './trust';

// Sessions and what signing in needs: refresh tokens, throttling, sign-in attempts, mailed actions and the mail outbox (migrations 0001, 0006, 0018, 0020).

/**
 * Refresh tokens, stored only as hashes. Every refresh replaces the token with a new one of the
 * same family; a used token coming back means it was stolen, and the whole family is revoked.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    /**
     * A widget session: the page origin its tokens are bound to and the fan's consent behind
     * it. Null for the platform's own sessions. Revoking the consent deletes these rows.
     */
    origin: text('origin'),
    consentId: integer('consent_id').references(() => embedConsents.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

/**
 * Events counted by the throttles that must agree across server nodes (password-reset mails,
 * e-mail checks): one row per event, keyed by what is throttled (an address, a requester).
 */
export const throttleEvents = pgTable(
  'throttle_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('throttle_events_key_idx').on(t.bucket, t.key, t.createdAt)],
);

/**
 * Sign-in attempts, for the throttle of docs/auth.md ("Sign-in throttling"): each one is written
 * before its password is checked (as a failure, turned into a success when the password was
 * right), so a burst cannot check more passwords than the throttle allows.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The requester: the client's IP (an IPv6 client's /64). */
    address: text('address').notNull(),
    /** SHA-256 of the e-mail as typed, normalised: known and unknown addresses are throttled alike. */
    emailKey: text('email_key'),
    /** The device cookie's id, when the browser presented a valid one for the account. */
    device: text('device'),
    succeeded: boolean('succeeded').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_attempts_user_idx').on(t.userId, t.createdAt),
    index('login_attempts_address_idx').on(t.address, t.createdAt),
    index('login_attempts_email_idx').on(t.emailKey, t.address, t.createdAt),
    index('login_attempts_device_idx').on(t.device, t.createdAt).where(sql`${t.device} is not null`),
  ],
);

/**
 * One-time tokens behind links and codes: e-mail verification, password reset, and the code
 * the embed sign-in popup hands to a partner page. Only hashes are stored.
 */
export const actionTokens = pgTable(
  'action_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** verify-email, reset-password, embed-login. */
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('action_tokens_hash_idx').on(t.tokenHash), index('action_tokens_user_idx').on(t.userId, t.purpose)],
);

/** Every mail the platform sends; the development outbox reads it, the SMTP sender marks it sent. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    template: text('template').notNull(),
    language: text('language').notNull().default('en'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The last delivery attempt's failure, kept after a later one succeeds only until then. */
    error: text('error'),
    /** Where answers go (a contact message: the sender's address). */
    replyTo: text('reply_to'),
    /** Delivery attempts through SMTP so far. */
    attempts: integer('attempts').notNull().default(0),
    /**
     * When the next delivery attempt is due: null once sent, given up, or when there is no SMTP
     * server to send through (the development mailbox). A node sending it holds it a minute ahead.
     */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt), index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.nextAttemptAt} is not null`)],
);

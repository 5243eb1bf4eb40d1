import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

import { users } from './people';

// The verified badge's signing keys and proofs of site ownership (migration 0023; docs/embedding.md).

/**
 * The Ed25519 keys that sign verified badges (server/src/features/badge/keys.ts), made on the first
 * start and rotated by a job. The one without `retiresAt` signs; the others are still published at
 * `/.well-known/jwks.json` until `retiresAt`, so badges they signed verify until they expire.
 */
export const badgeKeys = pgTable(
  'badge_keys',
  {
    kid: text('kid').primaryKey(),
    /** The public JWK as JSON (kty OKP, crv Ed25519, x). */
    publicJwk: text('public_jwk').notNull(),
    /** The private JWK as JSON (with d). */
    privateJwk: text('private_jwk').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    retiresAt: timestamp('retires_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('badge_keys_signing_idx').on(sql`(true)`).where(sql`${t.retiresAt} is null`)],
);

/**
 * A creator's proof that she controls an origin she lists for her widgets
 * (server/src/features/origins): the token she serves there, and when and how the server last
 * found it. Only proven origins show "listed by" on the consent screen.
 */
export const originProofs = pgTable(
  'origin_proofs',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    token: text('token').notNull(),
    /** How it was last proven: file (the well-known path), meta (the home page's tag), demo (the demo's own origins). */
    method: text('method'),
    provenAt: timestamp('proven_at', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    /** Rechecks that failed in a row; the proof is withdrawn after a few. */
    failures: smallint('failures').notNull().default(0),
    /** Why the last check failed. */
    problem: text('problem'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.origin] }),
    index('origin_proofs_proven_idx').on(t.origin).where(sql`${t.provenAt} is not null`),
    index('origin_proofs_recheck_idx').on(t.checkedAt).where(sql`${t.provenAt} is not null`),
  ],
);

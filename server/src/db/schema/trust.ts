import { primaryKey, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

import { users } from './people';

// Partner sites: the origins creators allow and the fans' consents to them (migration 0006).

/**
 * A fan's permission for a site (an origin) to act for them through Fanstage widgets, given in
 * the sign-in popup on the platform. Widget sessions hang off it: deleting the row ends them.
 */
export const embedConsents = pgTable(
  'embed_consents',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    /**
     * Credits the site may spend from the fan's wallet each calendar month without asking him
     * (docs/spending.md); 0, the default, asks every time.
     */
    monthlyAllowance: integer('monthly_allowance').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('embed_consents_user_origin_idx').on(t.userId, t.origin)],
);

/** Origins a creator allows to embed their widgets (CORS and the sign-in popup honour them). */
export const embedOrigins = pgTable(
  'embed_origins',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.origin] }), index('embed_origins_origin_idx').on(t.origin)],
);

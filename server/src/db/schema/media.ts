import { primaryKey, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

import { media, users } from './people';

// Uploads not yet turned into media, and who unlocked which priced media (migration 0002).

/**
 * Files received by `POST /api/media/binary` and not yet turned into media. `fileName` is a
 * random name the client passes to `POST /api/media`; stale uploads are swept.
 */
export const mediaUploads = pgTable(
  'media_uploads',
  {
    fileName: text('file_name').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    size: integer('size').notNull(),
    /** What the bytes are, read from their content: image, video, voice or null when unknown. */
    detectedType: text('detected_type'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('media_uploads_owner_idx').on(t.ownerId, t.createdAt)],
);

/** Who may see the original of a priced media (filled by unlock payments and subscriptions). */
export const mediaUnlocks = pgTable(
  'media_unlocks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    /** Cents the fan paid (0 for an unlock granted otherwise). */
    pricePaid: integer('price_paid').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.mediaId] }), index('media_unlocks_media_idx').on(t.mediaId)],
);

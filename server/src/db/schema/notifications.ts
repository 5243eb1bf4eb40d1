import { primaryKey, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

import { gifts } from './money';
import { media, users } from './people';
import { comments, posts } from './posts';

// Notifications and profile visits (migrations 0001, 0002).

/**
 * Notifications (SPEC §3 Notification). Likes and missed calls on the same target within an
 * hour are merged into one row whose `count` grows and whose `updatedAt` moves.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    fromUserId: integer('from_user_id').references(() => users.id, { onDelete: 'cascade' }),
    postId: integer('post_id').references(() => posts.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'cascade' }),
    giftId: integer('gift_id').references(() => gifts.id),
    count: integer('count').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Each list's order, so a page is a walk down one index (every type, or one type of a tab's).
    index('notifications_list_idx').on(t.userId, t.updatedAt.desc(), t.id.desc()),
    index('notifications_type_list_idx').on(t.userId, t.type, t.updatedAt.desc(), t.id.desc()),
    index('notifications_merge_idx').on(t.userId, t.type, t.postId, t.updatedAt),
  ],
);

/** Profile visits, one per visitor and profile per day, behind profileVisit notifications. */
export const profileVisits = pgTable(
  'profile_visits',
  {
    visitorId: integer('visitor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    profileId: integer('profile_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.visitorId, t.profileId, t.day] })],
);

import { sql } from 'drizzle-orm';
import { jsonb, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

import { users } from './people';

// Abuse reports and the moderation log (migration 0013).

/**
 * Reports of a profile, post, comment or chat message (POST /api/abuse), with the reported
 * thing as it was then (`snapshot`), so the report still reads after the thing is edited or
 * removed. `targetId` names the thing by its type and has no foreign key for that reason.
 * One open report per reporter and thing; an administrator's action closes it.
 */
export const abuseReports = pgTable(
  'abuse_reports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** user, post, comment or message. */
    targetType: text('target_type').notNull(),
    targetId: integer('target_id').notNull(),
    /** Who wrote or owns the thing (for a profile, the profile). */
    targetUserId: integer('target_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    text: text('text'),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    /** open, actioned or dismissed. */
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: integer('closed_by').references(() => users.id, { onDelete: 'set null' }),
    /** The action that closed it (hide-post, delete-comment, delete-message, ban, dismiss). */
    closedWith: text('closed_with'),
  },
  (t) => [
    uniqueIndex('abuse_reports_open_idx').on(t.reporterId, t.targetType, t.targetId).where(sql`${t.status} = 'open'`),
    index('abuse_reports_queue_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.status} = 'open'`),
    index('abuse_reports_target_idx').on(t.targetType, t.targetId),
  ],
);

/** The administrators' moderation actions: who did what to which thing, and for which report. */
export const moderationLog = pgTable(
  'moderation_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    adminId: integer('admin_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: integer('target_id').notNull(),
    targetUserId: integer('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    reportId: integer('report_id').references(() => abuseReports.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('moderation_log_target_idx').on(t.targetType, t.targetId), index('moderation_log_admin_idx').on(t.adminId, t.createdAt)],
);

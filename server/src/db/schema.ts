import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

/**
 * People on the platform: fans, creators (sellers, partners), support and admins (SPEC §3
 * Profile). Counters are denormalised here because every profile view shows them and
 * they change far less often than they are read.
 */
export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    displayName: text('display_name').notNull(),
    bio: text('bio').notNull().default(''),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    phoneVerified: boolean('phone_verified').notNull().default(false),
    /** Null for accounts that have not set a password (e.g. created by an OAuth sign-in). */
    passwordHash: text('password_hash'),
    avatarMediaId: integer('avatar_media_id').references((): AnyPgColumn => media.id, { onDelete: 'set null' }),
    /** 0 member, 3 VIP, 100 support, 500 admin. */
    level: smallint('level').notNull().default(0),
    hasBadge: boolean('has_badge').notNull().default(false),
    /** 3 = verified. */
    badgeVerifiedState: smallint('badge_verified_state').notNull().default(0),
    /** Partner registration and verification state machine (SPEC §4 Approved state). */
    approvedState: smallint('approved_state').notNull().default(0),
    isPartner: boolean('is_partner').notNull().default(false),
    isSeller: boolean('is_seller').notNull().default(false),
    /** 1 man, 2 woman. */
    gender: smallint('gender').notNull().default(1),
    sexuality: smallint('sexuality'),
    birthday: text('birthday'),
    appLanguage: text('app_language').notNull().default('en'),
    /** Cents per chat message. */
    messagePrice: integer('message_price').notNull().default(0),
    /** Cents per call minute. */
    callPrice: integer('call_price').notNull().default(0),
    /** 1–6, mapped to low / middle / full in the UI. */
    score: smallint('score').notNull().default(1),
    followersCount: integer('followers_count').notNull().default(0),
    postsCount: integer('posts_count').notNull().default(0),
    offersSubscriptions: boolean('offers_subscriptions').notNull().default(false),
    nsfwAgreement: smallint('nsfw_agreement').notNull().default(0),
    notificationSound: smallint('notification_sound').notNull().default(1),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deleteReason: smallint('delete_reason'),
  },
  (t) => [
    // Usernames and e-mails are unique regardless of case: "Lucy.Rivers" is lucy.rivers.
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_creators_idx').on(t.followersCount).where(sql`${t.isSeller} or ${t.isPartner}`),
  ],
);

/**
 * Uploaded or generated media. The file bytes live in the media storage under keys derived
 * from `hash` and `format`; the row says who owns them and whether they may be shown.
 */
export const media = pgTable(
  'media',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    hash: text('hash').notNull(),
    ownerId: integer('owner_id').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    /** What the media is for: avatar, post, chat, gift. */
    kind: text('kind').notNull(),
    /** image, video or voice. */
    mediaType: text('media_type').notNull().default('image'),
    format: text('format').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** SPEC §4 Media status: 3 ready, 4 rejected, 5 being added, 7 NSFW ready. */
    status: smallint('status').notNull().default(5),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('media_hash_idx').on(t.hash), index('media_owner_idx').on(t.ownerId)],
);

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

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type MediaRow = typeof media.$inferSelect;
export type GiftRow = typeof gifts.$inferSelect;

import { sql } from 'drizzle-orm';
import {
  boolean,
  jsonb,
  primaryKey,
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
    /** Set when an admin blocks the account: it cannot log in and its sessions are revoked. */
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    /** Access tokens issued before this instant are refused (password change, ban). */
    tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true }),
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
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

/** Login attempts, counted per account and per address to slow down password guessing. */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    succeeded: boolean('succeeded').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_attempts_user_idx').on(t.userId, t.createdAt), index('login_attempts_address_idx').on(t.address, t.createdAt)],
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
    error: text('error'),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt)],
);

/** Who follows whom (relation type 1 in SPEC §7 relations lists). */
export const follows = pgTable(
  'follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followedId: integer('followed_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.followerId, t.followedId] }), index('follows_followed_idx').on(t.followedId, t.createdAt)],
);

/** Blocks (relation type -1): blocked people vanish from each other's lists and profiles. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: integer('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: integer('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('blocks_blocked_idx').on(t.blockedId)],
);

/** People a user chose not to see in suggestions and timelines. */
export const hiddenUsers = pgTable(
  'hidden_users',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hiddenId: integer('hidden_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hiddenId] })],
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

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type MediaRow = typeof media.$inferSelect;
export type GiftRow = typeof gifts.$inferSelect;

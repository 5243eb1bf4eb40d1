import { sql } from 'drizzle-orm';
import { bigint, boolean, check, doublePrecision, jsonb, index, integer, pgTable, smallint, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';


// People: their accounts and the media rows their avatars point at (the two tables refer to each other), phone codes, deletion surveys, accounts at sign-in providers, push devices and the server's own keys (migrations 0000, 0001, 0002, 0014, 0015, 0016).

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
    /** The E.164 number proven by an SMS code (POST /api/users/verify-phone); null until then. */
    phone: text('phone'),
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
    /** Discover filters (SPEC §3 Search filter); enum values are named in lib/i18n enums. */
    hair: smallint('hair'),
    body: smallint('body'),
    preferences: smallint('preferences'),
    bigBoobs: boolean('big_boobs').notNull().default(false),
    bigDick: boolean('big_dick').notNull().default(false),
    wantsFun: boolean('wants_fun').notNull().default(false),
    /** ISO codes of the languages the user speaks. */
    languages: text('languages').array().notNull().default(sql`'{}'::text[]`),
    /** Notifications created after this instant count as unread. */
    notificationsReadAt: timestamp('notifications_read_at', { withTimezone: true }),
    /** The affiliate who brought this user (POST /api/users/aff-code); earns a share of the platform's fee on their spending. */
    referrerId: integer('referrer_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /**
     * The 8-character invite code of the user's invite link (`/?aff=CODE`), upper case; given on
     * first request (GET /api/users/invite), never changed after.
     */
    inviteCode: text('invite_code'),
    /** The display name as search compares it: no accents, lower case, one space between words (public.fanstage_fold). */
    searchName: text('search_name').generatedAlwaysAs(sql`public.fanstage_fold(display_name)`),
    /** The username the same way: "Lucy.Rivers" reads "lucy rivers". */
    searchUsername: text('search_username').generatedAlwaysAs(sql`public.fanstage_fold(username)`),
    /** Earnings (cents) the creator has seen: the badge shows the balance above it (SPEC §3 myCbalance_acked). */
    earningsAcked: bigint('earnings_acked', { mode: 'number' }).notNull().default(0),
    /** When the creator dismissed the first-earnings popup; null until then. */
    firstEarningsSeenAt: timestamp('first_earnings_seen_at', { withTimezone: true }),
  },
  (t) => [
    // Usernames and e-mails are unique regardless of case: "Lucy.Rivers" is lucy.rivers.
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_creators_idx').on(t.followersCount).where(sql`${t.isSeller} or ${t.isPartner}`),
    // People search (migration 0021, features/search/people.ts): prefixes walk these in order.
    index('users_search_name_idx').on(t.searchName),
    index('users_search_name_tail_idx').on(sql`public.fanstage_tail(${t.searchName}) COLLATE "C"`),
    index('users_search_username_idx').on(t.searchUsername),
    index('users_search_username_tail_idx').on(sql`public.fanstage_tail(${t.searchUsername}) COLLATE "C"`),
    index('users_search_verified_idx').on(t.searchName).where(sql`${t.hasBadge}`),
    index('users_search_trgm_idx').using('gin', sql`(${t.searchName} || ' ' || ${t.searchUsername}) gin_trgm_ops`),
    index('users_last_seen_idx').on(t.lastSeenAt),
    uniqueIndex('users_invite_code_idx').on(t.inviteCode).where(sql`${t.inviteCode} is not null`),
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
    /** Price in cents (a post-media or chat-media price step); above 0 the original is locked. */
    price: integer('price').notNull().default(0),
    aspectRatio: doublePrecision('aspect_ratio').notNull().default(1),
    /** `#rrggbb`, shown while the picture loads. */
    dominantColor: text('dominant_color').notNull().default('#808080'),
    /** Seconds, for video and voice. */
    duration: doublePrecision('duration'),
    /** A CSS filter name the creator chose. */
    filter: text('filter'),
    /** Moderation result kept as it came (1, 2, 4). */
    nsfw: smallint('nsfw').notNull().default(0),
    /** Why processing rejected it (status 4): wrong_media_type, format, tooLong, lowRes. */
    rejectReason: text('reject_reason'),
    /** The browser could not play the video, so size checks were skipped (SPEC §4 Upload flow). */
    unsupported: boolean('unsupported').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('media_hash_idx').on(t.hash), index('media_owner_idx').on(t.ownerId)],
);

/**
 * SMS codes that prove a phone number (GET /api/sms/send-verification-code). Only a hash of
 * the code is kept; a code dies when used, when it expires, or after its allowed wrong guesses.
 */
export const phoneCodes = pgTable(
  'phone_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('phone_codes_user_idx').on(t.userId, t.createdAt)],
);

/** Why people left (the delete-account survey, SPEC §9): the reason enum and what they wrote. */
export const deletionSurveys = pgTable(
  'deletion_surveys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: smallint('reason').notNull(),
    text: text('text').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('deletion_surveys_created_idx').on(t.createdAt), check('deletion_surveys_reason', sql`${t.reason} between 1 and 5`)],
);

/**
 * Accounts at an external sign-in provider linked to an account here (GET /api/oauth/callback):
 * the provider's id of the person signs them in to the linked account.
 */
export const oauthAccounts = pgTable(
  'oauth_accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    provider: text('provider').notNull(),
    externalId: text('external_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('oauth_accounts_provider_external_idx').on(t.provider, t.externalId), index('oauth_accounts_user_idx').on(t.userId)],
);

/**
 * Sign-ins with an external provider in progress. A row binds the provider's request token
 * (`tokenHash`) to the browser that started it (`browserHash`, the hash of the HttpOnly
 * `fs_oauth` cookie: the state that stops a forged callback) and to the same-site path the
 * person returns to. The callback takes a row once (`usedAt`); when the identity is new the row
 * keeps it until the person chose a username and agreed to the terms (`completedAt`).
 */
export const oauthRequests = pgTable(
  'oauth_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    provider: text('provider').notNull(),
    tokenHash: text('token_hash').notNull(),
    browserHash: text('browser_hash').notNull(),
    returnTo: text('return_to').notNull(),
    language: text('language').notNull().default('en'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The provider's answer about a person with no account here yet: id, name, e-mail. */
    identity: jsonb('identity').$type<{ id: string; name: string | null; email: string | null; emailVerified: boolean }>(),
    signupExpiresAt: timestamp('signup_expires_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('oauth_requests_token_idx').on(t.tokenHash), index('oauth_requests_browser_idx').on(t.browserHash), index('oauth_requests_expires_idx').on(t.expiresAt)],
);

/**
 * Browsers that accepted web push (POST /api/device): one row per PushSubscription, tied to the
 * user and the session (refresh family) that registered it, so logging out of that session stops
 * its pushes. The endpoint is unique: a browser registering again, even as someone else, replaces
 * its row.
 */
export const pushDevices = pgTable(
  'push_devices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The refresh-token family of the session that registered it; null for sessions without one. */
    sessionFamily: text('session_family'),
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 public key and auth secret (base64url), for RFC 8291 encryption. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_devices_endpoint_idx').on(t.endpoint),
    index('push_devices_user_idx').on(t.userId, t.lastUsedAt),
    index('push_devices_family_idx').on(t.sessionFamily),
  ],
);

/**
 * Keys the server makes for itself on first start and must keep across restarts and share
 * between nodes (the VAPID key pair of web push), by name.
 */
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

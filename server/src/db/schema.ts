import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
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

const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});

/** Posts on the timelines (SPEC §3 Post). Counters are kept in the same transaction as their rows. */
export const posts = pgTable(
  'posts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull().default(''),
    /**
     * Full-text search over the text: 'simple' (it suits both languages) after unaccent, so
     * "léto" and "leto" are one word (the configuration public.fanstage_search, migration 0021).
     */
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('public.fanstage_search'::regconfig, text)`),
    /** A future start makes the post scheduled: only its owner sees it, with no actions. */
    startDate: timestamp('start_date', { withTimezone: true }),
    /** When the post appears on timelines: the start date, or the creation time. */
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    likesCount: integer('likes_count').notNull().default(0),
    commentsCount: integer('comments_count').notNull().default(0),
    /** Top-level comments only; replies are counted on their parent. */
    rootCommentsCount: integer('root_comments_count').notNull().default(0),
    giftsCount: integer('gifts_count').notNull().default(0),
    visitsCount: integer('visits_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('posts_user_published_idx').on(t.userId, t.publishedAt.desc(), t.id.desc()),
    index('posts_published_idx').on(t.publishedAt.desc(), t.id.desc()).where(sql`${t.deletedAt} is null`),
    index('posts_search_idx').using('gin', t.search),
  ],
);

/** The media of a post, in order (SPEC §3 Post media list). */
export const postMedia = pgTable(
  'post_media',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.postId, t.position] }), index('post_media_media_idx').on(t.mediaId)],
);

/** Hashtags of a post (SPEC §5 Hashtag), lower-cased, for the hashtag timeline and tag search. */
export const postHashtags = pgTable(
  'post_hashtags',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    tag: text('tag').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tag, t.postId] }),
    index('post_hashtags_tag_published_idx').on(t.tag, t.publishedAt.desc()),
    // Tag suggestions by a prefix typed without accents (migration 0021).
    index('post_hashtags_search_idx').on(sql`(public.fanstage_unaccent(${t.tag})) COLLATE "C"`, t.tag, t.publishedAt),
  ],
);

export const postLikes = pgTable(
  'post_likes',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] }), index('post_likes_user_idx').on(t.userId)],
);

/** Comments and replies (SPEC §3 Comment): a reply has the id of its top-level comment as parent. */
export const comments = pgTable(
  'comments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull().default(''),
    giftId: integer('gift_id').references(() => gifts.id),
    likesCount: integer('likes_count').notNull().default(0),
    childrenCount: integer('children_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // Each list's order: a post's top-level comments newest first, a comment's replies oldest first.
    index('comments_post_idx').on(t.postId, t.createdAt.desc(), t.id.desc()).where(sql`${t.parentId} is null`),
    index('comments_parent_idx').on(t.parentId, t.createdAt, t.id),
  ],
);

export const commentLikes = pgTable(
  'comment_likes',
  {
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.userId] })],
);

/** Comments reported by readers, for moderation. */
export const commentReports = pgTable(
  'comment_reports',
  {
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.userId] })],
);

/**
 * Post statistics: visits (`/papi/posts/{id}/visit`) and seen reports (`/papi/ga/`), one row
 * each, aggregated by whoever reads them.
 */
export const postStats = pgTable(
  'post_stats',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** visit or seen. */
    kind: text('kind').notNull(),
    durationMs: integer('duration_ms'),
    visibleRatio: doublePrecision('visible_ratio'),
    fullscreen: boolean('fullscreen'),
    cta: text('cta'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('post_stats_post_idx').on(t.postId, t.kind)],
);

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

/**
 * A fan's own spending limits and cool-down (docs/spending.md). A limit is lowered at once and
 * raised (or removed) only from `*_next_at`, a day after the fan asked; the row is also what a
 * spend locks first, so a fan's spends are checked one after another.
 */
export const spendingControls = pgTable('spending_controls', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Credits a UTC day, a UTC calendar month; null: no limit. */
  dailyLimit: integer('daily_limit'),
  monthlyLimit: integer('monthly_limit'),
  /** A raise waiting for its day: the limit it becomes (null: none) from `*_next_at`. */
  dailyLimitNext: integer('daily_limit_next'),
  dailyLimitNextAt: timestamp('daily_limit_next_at', { withTimezone: true }),
  monthlyLimitNext: integer('monthly_limit_next'),
  monthlyLimitNextAt: timestamp('monthly_limit_next_at', { withTimezone: true }),
  /** No spending at all until then. */
  cooldownUntil: timestamp('cooldown_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every spend of a fan's credits, with where it happened: the receipts of the wallet and of
 * each allowed site, and what the limits and allowances are summed over. Written in the
 * transaction of the ledger transfer (or hold) it describes.
 */
export const spends = pgTable(
  'spends',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** gift (a tip is a gift with no post), unlock, chat-media, chat-message, subscription, call. */
    kind: text('kind').notNull(),
    /** Credits; a call minute's hold given back lowers it. */
    amount: integer('amount').notNull(),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    /** The partner site it was spent on; null on the platform's own pages. */
    origin: text('origin'),
    /** Confirmed by the fan in the platform's popup (a spend request), not by an allowance. */
    confirmed: boolean('confirmed').notNull().default(false),
    /** The ledger transfer's key (or `hold:{key}` for a call minute). */
    transferKey: text('transfer_key').notNull(),
    holdId: integer('hold_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('spends_user_time_idx').on(t.userId, t.createdAt),
    uniqueIndex('spends_transfer_key_idx').on(t.transferKey),
    index('spends_hold_idx').on(t.holdId).where(sql`${t.holdId} is not null`),
  ],
);

/**
 * A spend a widget asked for and the fan must confirm on the platform's own page (a payment
 * intent): what, to whom, how much, for which site. The widget sends its request again with the
 * confirmed request's id, which is used once; a card payment is made in the popup itself and
 * links its order here.
 */
export const spendRequests = pgTable(
  'spend_requests',
  {
    /** Random, 22 base64url characters: the popup's address names it. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    consentId: integer('consent_id')
      .notNull()
      .references(() => embedConsents.id, { onDelete: 'cascade' }),
    /** tip, gift, unlock, chat-media, chat-message, subscription, call, topup, subscription-card. */
    kind: text('kind').notNull(),
    /** Credits (a call: a minute's); for a card payment the cents charged. */
    amount: integer('amount').notNull(),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'cascade' }),
    /** What a resend must match besides kind, creator and amount (`gift:3`, `media:17`, `package:2`). */
    subject: text('subject').notNull(),
    /** What the popup shows beyond the above (gift, post, offer, package, card). */
    details: jsonb('details').$type<Record<string, string | number | null>>().notNull().default({}),
    /** pending, confirmed, used, cancelled. */
    status: text('status').notNull().default('pending'),
    /** The card order the popup made for it. */
    orderId: text('order_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [index('spend_requests_user_idx').on(t.userId, t.createdAt), index('spend_requests_expires_idx').on(t.expiresAt)],
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

/**
 * The ledger (DESIGN.md "Money"). Every amount is integer cents (for fans' wallets one credit is
 * one cent). An account's balance only changes together with an entry of a transfer in the same
 * transaction, and the entries of a transfer sum to zero, so the sum over all accounts is zero.
 * Only the outside world's accounts (card processors, promotions, payouts sent) may go negative.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** wallet, earnings (per user); fees, promotions, holds, payouts-pending, payouts-sent, processor (platform). */
    kind: text('kind').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'restrict' }),
    /** For processor accounts: which processor the money came through. */
    processor: text('processor'),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    allowNegative: boolean('allow_negative').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_owner_idx').on(t.kind, sql`coalesce(${t.userId}, 0)`, sql`coalesce(${t.processor}, '')`),
    check('ledger_accounts_not_negative', sql`${t.allowNegative} or ${t.balance} >= 0`),
  ],
);

/**
 * One movement of money. `idempotencyKey` names the business event (a callback of one order,
 * one unlock, one renewal period); repeating it returns the first transfer, and the same key
 * with a different request (`requestHash`) is refused.
 */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** topup, gift, unlock, subscription, hold, hold-settle, hold-release, payout, payout-sent, payout-returned, promotion, correction, chat-message, chat-media, call. */
    kind: text('kind').notNull(),
    /** Who paid or asked (the fan for spending, the creator for payouts). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The other person: the creator paid, or the fan who paid. */
    counterpartyId: integer('counterparty_id').references(() => users.id, { onDelete: 'set null' }),
    /** What it was for: postId, giftId, mediaId, offerId, subscriptionId, orderId, holdId, payoutId, conversation … */
    meta: jsonb('meta').$type<Record<string, string | number | null>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ledger_transfers_key_idx').on(t.idempotencyKey)],
);

/** The legs of a transfer: positive adds to the account's balance, negative takes from it. Never edited. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transferId: integer('transfer_id')
      .notNull()
      .references(() => ledgerTransfers.id, { onDelete: 'restrict' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ledger_entries_account_idx').on(t.accountId, t.id.desc()), index('ledger_entries_transfer_idx').on(t.transferId)],
);

/**
 * Credits posted to an account but not yet added to its stored balance (docs/ledger.md,
 * "Pending credits"): every payment credits the platform's fees and a creator's earnings, and
 * adding to those balances in the payment's transaction would lock the row until it commits —
 * every payment on the platform, or to one creator, one after the other. A credit is written
 * here instead, beside its entries, and the `ledger-pending-credits` job (or the next debit of
 * the account) adds it to the balance and removes it, in one transaction. An account holds its
 * balance plus its pending credits; the entries stay the record of every movement.
 */
export const ledgerPendingCredits = pgTable(
  'ledger_pending_credits',
  {
    transferId: integer('transfer_id')
      .notNull()
      .references(() => ledgerTransfers.id, { onDelete: 'restrict' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
    /** What the transfer added to the account, net of its legs there: always more than zero. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.transferId, t.accountId] }),
    index('ledger_pending_credits_account_idx').on(t.accountId),
    check('ledger_pending_credits_positive', sql`${t.amount} > 0`),
  ],
);

/**
 * Money set aside from a wallet that may be spent (a paid call's next minutes): reserved into
 * the platform's holds account, then settled to the earner (partly or fully) or released.
 * An open hold past `expiresAt` is released by the sweeper.
 */
export const ledgerHolds = pgTable(
  'ledger_holds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The business event that asked for it; reserving with the same key returns this hold. */
    key: text('key').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** Who may be paid from it. */
    beneficiaryId: integer('beneficiary_id').references(() => users.id, { onDelete: 'restrict' }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** What is still held: amount minus settled minus released. */
    remaining: bigint('remaining', { mode: 'number' }).notNull(),
    /** open or closed. */
    status: text('status').notNull().default('open'),
    purpose: text('purpose').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ledger_holds_key_idx').on(t.key),
    index('ledger_holds_open_idx').on(t.expiresAt).where(sql`${t.status} = 'open'`), check('ledger_holds_remaining', sql`${t.remaining} >= 0`),
  ],
);

/** Credit packages (SPEC §3 Package): `cValue` credits for `gValue` cents charged to the card. */
export const creditPackages = pgTable('credit_packages', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  cValue: integer('c_value').notNull(),
  gValue: integer('g_value').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  active: boolean('active').notNull().default(true),
});

/** Cards saved with a processor; we keep only the processor's reference and what a person needs to recognise the card. */
export const paymentCards = pgTable(
  'payment_cards',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processor: text('processor').notNull(),
    /** The processor's token for the card; never a card number. */
    token: text('token').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: smallint('exp_month').notNull(),
    expYear: smallint('exp_year').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('payment_cards_user_idx').on(t.userId)],
);

/**
 * A card payment: credits for a package, or a subscription's payment. `id` is the public order
 * id the processor and `/gopay-return?id=` carry. Status: created, challenge (second step
 * asked), processing, paid, declined, failed, expired.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processor: text('processor').notNull(),
    /** credits or subscription. */
    purpose: text('purpose').notNull(),
    packageId: integer('package_id').references(() => creditPackages.id),
    subscriptionId: integer('subscription_id').references((): AnyPgColumn => subscriptions.id, { onDelete: 'set null' }),
    /** Cents charged to the card. */
    amount: integer('amount').notNull(),
    /** Credits the wallet receives when paid. */
    credits: integer('credits').notNull(),
    status: text('status').notNull().default('created'),
    cardId: integer('card_id').references(() => paymentCards.id, { onDelete: 'set null' }),
    saveCard: boolean('save_card').notNull().default(false),
    /** The processor's own reference for the charge. */
    externalId: text('external_id'),
    failureReason: text('failure_reason'),
    /** Where the person returns after the processor's page. */
    returnUrl: text('return_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_orders_user_idx').on(t.userId, t.createdAt.desc())],
);

/** Subscription offers a seller makes (SPEC §3 Subscription, offer side): monthly `priceCents` earned by the creator. */
export const subscriptionOffers = pgTable(
  'subscription_offers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    priceCents: integer('price_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Archived: no longer offered to new subscribers; those subscribed keep renewing. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [index('subscription_offers_user_idx').on(t.userId)],
);

/**
 * A fan's subscription to an offer. Status (SPEC §4): 11 waiting for payment, 12 payment
 * processing, 21 active, 23 renewal payment failed (still active until the end date),
 * 24 cancelled (active until the end date, can be reverted), 50 expired.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    offerId: integer('offer_id')
      .notNull()
      .references(() => subscriptionOffers.id, { onDelete: 'restrict' }),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: smallint('status').notNull().default(11),
    /** Cents the creator earns each period (the offer's price when subscribed). */
    priceCents: integer('price_cents').notNull(),
    /** credits or card. */
    payWith: text('pay_with').notNull().default('credits'),
    cardId: integer('card_id').references(() => paymentCards.id, { onDelete: 'set null' }),
    /** Periods paid so far; the renewal of period n carries the idempotency key subscription:{id}:{n}. */
    periodsPaid: integer('periods_paid').notNull().default(0),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_subscriber_idx').on(t.subscriberId, t.status),
    index('subscriptions_creator_idx').on(t.creatorId, t.status),
    index('subscriptions_renewal_idx').on(t.periodEnd).where(sql`${t.status} in (21, 23, 24)`),
  ],
);

/** Payout requests (SPEC §7 POST /api/earnings/payout): the platform pays them by PayPal or card, once. */
export const payoutRequests = pgTable(
  'payout_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amount: integer('amount').notNull(),
    /** paypal or card. */
    method: text('method').notNull(),
    /** requested, sent, returned. */
    status: text('status').notNull().default('requested'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Where it is to be paid, as it was when asked: the PayPal e-mail, or the card's brand and last digits. */
    destination: text('destination'),
  },
  (t) => [index('payout_requests_user_idx').on(t.userId, t.createdAt.desc())],
);

/**
 * Where a creator's payouts go (one per creator): a PayPal e-mail, or one of the creator's
 * cards saved with the card processor (only its token is held, never a card number).
 */
export const payoutDestinations = pgTable('payout_destinations', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** paypal or card. */
  method: text('method').notNull(),
  paypalEmail: text('paypal_email'),
  cardId: integer('card_id').references(() => paymentCards.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One side of a conversation (SPEC §3 Conversation): `userId`'s view of the chat with
 * `partnerId`. Each pair has two rows, so what belongs to one side — when they last read it,
 * whether they archived it, the price they agreed to, the price they (as a seller) ask of the
 * other, what they earned — is a plain column, and the list of one's conversations is one
 * index range.
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Messages from the partner sent up to this instant count as read (chatConvRead). */
    lastReadAt: timestamp('last_read_at', { withTimezone: true }),
    /** Hidden from the user's list until the next message in either direction. */
    archived: boolean('archived').notNull().default(false),
    /** Cents per message the user last accepted (and paid) writing to the partner. */
    agreedPrice: integer('agreed_price').notNull().default(0),
    /** Cents per message the user, as a seller, asks of this partner instead of their messagePrice. */
    customPrice: integer('custom_price'),
    /** Cents the user earned in this conversation: paid messages, unlocked media, gifts. */
    sumPrice: bigint('sum_price', { mode: 'number' }).notNull().default(0),
    lastMessageId: integer('last_message_id'),
    /** The latest message either way; every message of a pair has a later sendDt than the one before. */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    /** The latest message from the partner: unread while after `lastReadAt`. */
    lastIncomingAt: timestamp('last_incoming_at', { withTimezone: true }),
    /** The latest suspected message of the pair (SPEC §4: marked 24 h). */
    lastSuspectedAt: timestamp('last_suspected_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.partnerId] }),
    // The list's order, so a page is read off the index and only its rows are counted.
    index('chat_conversations_list_idx').on(t.userId, t.lastMessageAt.desc(), t.partnerId.desc()).where(sql`${t.lastMessageId} is not null`),
    // The Chat badge counts these rows: few per user, found without reading the rest.
    index('chat_conversations_unread_idx')
      .on(t.userId)
      .where(sql`${t.lastIncomingAt} > coalesce(${t.lastReadAt}, '-infinity'::timestamptz) and not ${t.archived}`),
  ],
);

/** A creator's message to a whole group (SPEC §7 massChatMessage); each receiver gets a chat message of it. */
export const chatMassMessages = pgTable(
  'chat_mass_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The sender's own id of it: a resend is recognised and not sent again. */
    msgId: text('msg_id').notNull(),
    /** followers, subscribers or expired-subscribers. */
    recGroup: text('rec_group').notNull(),
    text: text('text').notNull().default(''),
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'set null' }),
    recipientsCount: integer('recipients_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('chat_mass_messages_msg_idx').on(t.senderId, t.msgId), index('chat_mass_messages_group_idx').on(t.senderId, t.recGroup, t.createdAt)],
);

/**
 * Chat messages (SPEC §3 Chat message). `id` ascends over the whole platform (positions in
 * each user's stream, `chatStream`, are the resume cursor); `msgId` is the sender's id,
 * unique per sender, so a resend finds the stored message.
 * `lowUserId`/`highUserId` name the pair whichever way the message went, for the history index.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    msgId: text('msg_id').notNull(),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    receiverId: integer('receiver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lowUserId: integer('low_user_id').generatedAlwaysAs(sql`least(sender_id, receiver_id)`),
    highUserId: integer('high_user_id').generatedAlwaysAs(sql`greatest(sender_id, receiver_id)`),
    text: text('text').notNull().default(''),
    /** Cents the receiver earned for the message (the fan paid it with the salt); 0 when free. */
    price: integer('price').notNull().default(0),
    giftId: integer('gift_id').references(() => gifts.id),
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'set null' }),
    massId: integer('mass_id').references(() => chatMassMessages.id, { onDelete: 'set null' }),
    /** Marked suspected until then (docs/realtime.md names the rule). */
    suspectedUntil: timestamp('suspected_until', { withTimezone: true }),
    senderReactionId: integer('sender_reaction_id'),
    senderReactedAt: timestamp('sender_reacted_at', { withTimezone: true }),
    receiverReactionId: integer('receiver_reaction_id'),
    /** When the receiver reacted: unseen by the sender until the sender reads the conversation. */
    receiverReactedAt: timestamp('receiver_reacted_at', { withTimezone: true }),
    /**
     * A call entry (docs/calls.md "In the chat"): the call it tells of, written once by the
     * transaction that ends the call. Its sender is the caller, its receiver the callee; what
     * it shows (state, duration, minutes, each side's amount) is read from the call's row.
     */
    callId: text('call_id').references((): AnyPgColumn => calls.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('chat_messages_msg_idx').on(t.senderId, t.msgId),
    // One entry per call: a close that runs again (a retry, two crash closers) writes nothing more.
    uniqueIndex('chat_messages_call_idx').on(t.callId).where(sql`${t.callId} is not null`),
    index('chat_messages_pair_idx').on(t.lowUserId, t.highUserId, t.createdAt),
    index('chat_messages_sender_idx').on(t.senderId, t.id),
    index('chat_messages_receiver_idx').on(t.receiverId, t.id),
    index('chat_messages_reactions_idx').on(t.senderId, t.receiverReactedAt).where(sql`${t.receiverReactedAt} is not null`),
    index('chat_messages_media_idx').on(t.lowUserId, t.highUserId, t.id).where(sql`${t.mediaId} is not null`),
    index('chat_messages_mass_idx').on(t.massId).where(sql`${t.massId} is not null`),
  ],
);

/**
 * Each user's chat stream (docs/realtime.md "Resume"): every chat message a user sent or
 * received has a position in that user's stream, 1, 2, 3, … with no gaps, handed out inside
 * the transaction that stores the message under a lock on the user's head row. The lock is
 * held until commit, so a user's positions commit in order (a later one never becomes visible
 * before an earlier one) and a rolled-back position is handed out again: a client that holds
 * everything up to a position can resume after it and miss nothing. Message ids cannot do
 * that: two messages stored at the same moment may commit out of id order.
 */
export const chatStreamHeads = pgTable('chat_stream_heads', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The last position handed out in the user's stream (0 before their first message). */
  seq: integer('seq').notNull().default(0),
});

/** A message's position in the stream of its sender and of its receiver (one row each). */
export const chatStream = pgTable(
  'chat_stream',
  {
    userId: integer('user_id').notNull(),
    seq: integer('seq').notNull(),
    messageId: integer('message_id')
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
  },
  (t) => [
    // A resume reads one user's range in order off the primary key.
    primaryKey({ columns: [t.userId, t.seq] }),
    // A message's position for its viewer (histories, echoes), and the cascade from a deleted message.
    uniqueIndex('chat_stream_message_idx').on(t.messageId, t.userId),
  ],
);

/**
 * Paid video calls (SPEC §3 Call; docs/calls.md). A fan (`callerId`) calls a creator
 * (`calleeId`); `ringing` and `live` are open, every other state final. The money is in the
 * ledger, one hold and one settlement per minute under keys naming the call and the minute;
 * this row keeps the call's progress: the last minute held (`heldThrough`) and settled
 * (`settledThrough`), and the totals so far.
 *
 * The node running a live call's billing clock holds a lease on it (`leaseNode` until
 * `leaseUntil`, renewed every few seconds); a lease that lapses means the node died, and the
 * call is closed by whichever node finds it. `callerGoneAt` / `calleeGoneAt` mark when a party's
 * last socket went away (cleared when one comes back).
 */
export const calls = pgTable(
  'calls',
  {
    /** Generated by the caller's client: 22–64 base64url characters. */
    id: text('id').primaryKey(),
    callerId: integer('caller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    calleeId: integer('callee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** ringing, live, ended, declined, cancelled, missed, busy, noCredit, failed. */
    state: text('state').notNull(),
    /** Why it ended (CallEndReasons); null while open. */
    endReason: text('end_reason'),
    /** Credits a minute the fan pays (the creator's price with the platform's fee). */
    agreedPrice: integer('agreed_price').notNull(),
    /** Cents a minute the creator earns. */
    earningsPrice: integer('earnings_price').notNull(),
    /** Minutes paid, and what they cost and earned. */
    minutes: integer('minutes').notNull().default(0),
    cost: bigint('cost', { mode: 'number' }).notNull().default(0),
    earnings: bigint('earnings', { mode: 'number' }).notNull().default(0),
    /** The last minute whose hold was taken (0 before the call is live, and for free calls). */
    heldThrough: integer('held_through').notNull().default(0),
    /** The last minute settled. */
    settledThrough: integer('settled_through').notNull().default(0),
    leaseNode: text('lease_node'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    callerGoneAt: timestamp('caller_gone_at', { withTimezone: true }),
    calleeGoneAt: timestamp('callee_gone_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** The partner site the fan called from (null: the platform), and whether he confirmed its price there. */
    spendOrigin: text('spend_origin'),
    spendConfirmed: boolean('spend_confirmed').notNull().default(false),
  },
  (t) => [
    // One open call per person, in each role; a person calling while being called is kept out
    // by the offer, which locks both people's rows before it looks (docs/calls.md).
    uniqueIndex('calls_open_caller_idx').on(t.callerId).where(sql`${t.state} in ('ringing', 'live')`),
    uniqueIndex('calls_open_callee_idx').on(t.calleeId).where(sql`${t.state} in ('ringing', 'live')`),
    // The sweeper: calls ringing past their timeout, live calls whose lease lapsed.
    index('calls_ringing_idx').on(t.createdAt).where(sql`${t.state} = 'ringing'`),
    index('calls_live_lease_idx').on(t.leaseUntil).where(sql`${t.state} = 'live'`),
    check('calls_state', sql`${t.state} in ('ringing', 'live', 'ended', 'declined', 'cancelled', 'missed', 'busy', 'noCredit', 'failed')`),
    check('calls_amounts', sql`${t.agreedPrice} >= 0 and ${t.earningsPrice} >= 0 and ${t.minutes} >= 0 and ${t.heldThrough} >= ${t.settledThrough}`),
  ],
);

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

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type MediaRow = typeof media.$inferSelect;
export type GiftRow = typeof gifts.$inferSelect;
export type PostRow = typeof posts.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type LedgerAccountRow = typeof ledgerAccounts.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PaymentOrderRow = typeof paymentOrders.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;
export type ChatConversationRow = typeof chatConversations.$inferSelect;

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

/* ---- The verified badge's signing keys and proofs of site ownership (issue 34; docs/embedding.md) ---- */

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

// ---- Attribution: tracking links, their visits and free trials, and where each spend happened (issue 34, migration 0024) ----

/**
 * A creator's named tracking link (one per channel: "TikTok bio", "my blog"): `/{username}?l={code}`
 * on the platform, or a widget's `link` attribute on a partner page. It may carry a free trial
 * (`trialDays` of `trialOfferId`, for at most `trialLimit` fans, until `trialUntil`; then the
 * subscription renews when `trialThen` is `renew`, or ends).
 */
export const trackingLinks = pgTable(
  'tracking_links',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 8 lower-case letters and digits, made by the server. */
    code: text('code').notNull(),
    trialOfferId: integer('trial_offer_id').references(() => subscriptionOffers.id, { onDelete: 'set null' }),
    trialDays: smallint('trial_days'),
    trialLimit: integer('trial_limit'),
    trialUntil: timestamp('trial_until', { withTimezone: true }),
    /** renew or end. */
    trialThen: text('trial_then'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('tracking_links_code_idx').on(t.code),
    uniqueIndex('tracking_links_name_idx').on(t.creatorId, sql`lower(${t.name})`).where(sql`${t.endedAt} is null`),
  ],
);

/**
 * One visit through a tracking link, by a browser known by the server's first-party visitor
 * cookie; `userId` is filled in when that browser signs up or in (`signedUp` for a sign-up).
 */
export const linkVisits = pgTable(
  'link_visits',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    linkId: integer('link_id')
      .notNull()
      .references(() => trackingLinks.id, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    signedUp: boolean('signed_up').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('link_visits_link_idx').on(t.linkId, t.createdAt),
    index('link_visits_visitor_idx').on(t.visitor).where(sql`${t.userId} is null`),
    index('link_visits_user_idx').on(t.userId, t.linkId),
  ],
);

/** A free trial a fan took through a link: once per fan and creator. */
export const linkTrials = pgTable(
  'link_trials',
  {
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fanId: integer('fan_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkId: integer('link_id')
      .notNull()
      .references(() => trackingLinks.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.fanId] }), index('link_trials_link_idx').on(t.linkId)],
);

/**
 * Where a spend happened, written in the spend's own transaction from what the server knows:
 * the partner origin of the widget session (null for the platform's pages) and the tracking
 * link that brought the fan. `earnedCents` is the creator's entry of the transfer.
 */
export const spendAttributions = pgTable(
  'spend_attributions',
  {
    transferId: integer('transfer_id')
      .primaryKey()
      .references(() => ledgerTransfers.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fanId: integer('fan_id').references(() => users.id, { onDelete: 'set null' }),
    /** gift, unlock, chat-message, chat-media, subscription, call. */
    kind: text('kind').notNull(),
    earnedCents: bigint('earned_cents', { mode: 'number' }).notNull(),
    origin: text('origin'),
    linkId: integer('link_id').references(() => trackingLinks.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('spend_attributions_creator_idx').on(t.creatorId, t.createdAt), index('spend_attributions_link_idx').on(t.linkId)],
);

import { sql } from 'drizzle-orm';
import {
  boolean,
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
  },
  (t) => [
    // Usernames and e-mails are unique regardless of case: "Lucy.Rivers" is lucy.rivers.
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_creators_idx').on(t.followersCount).where(sql`${t.isSeller} or ${t.isPartner}`),
    index('users_search_idx').using('gin', sql`to_tsvector('simple', ${t.username} || ' ' || ${t.displayName})`),
    index('users_last_seen_idx').on(t.lastSeenAt),
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
    /** Full-text search over the text; the 'simple' configuration suits both languages. */
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('simple', text)`),
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
  (t) => [primaryKey({ columns: [t.tag, t.postId] }), index('post_hashtags_tag_published_idx').on(t.tag, t.publishedAt.desc())],
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
  (t) => [index('comments_post_idx').on(t.postId, t.createdAt), index('comments_parent_idx').on(t.parentId, t.createdAt)],
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
    index('notifications_user_idx').on(t.userId, t.updatedAt.desc()),
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
export type PostRow = typeof posts.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;

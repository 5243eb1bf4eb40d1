import { sql } from 'drizzle-orm';
import { boolean, customType, doublePrecision, primaryKey, index, integer, pgTable, smallint, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

import { gifts } from './money';
import { media, users } from './people';

// Posts, their media, hashtags, likes, comments and reports, and their statistics (migrations 0002, 0019, 0021).

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

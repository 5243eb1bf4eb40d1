import { and, asc, desc, eq, gt, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Post } from '../../../../lib/contract/posts';
import type { PublicProfile } from '../../../../lib/contract/users';
import { isValidHashtag } from '../../../../lib/contract/rules/hashtag';
import type { AppContext } from '../../context';
import { follows, media, mediaUnlocks, postHashtags, postMedia, posts, users } from '../../db/schema';
import { errors } from '../../errors';
import { PageCursors } from '../../http/page-cursors';
import { TtlCache } from '../../http/ttl-cache';
import { loadPosts, loadPostsOf } from '../posts/views';
import { profileColumns } from '../users/service';
import { onlineWindowMs, parseUserRef, toPublicProfile, type ProfileRow } from '../users/domain';
import { activeCreator, activeUser, newestFirst, notBlockedBetween, oldestFirst, publishedPost, visibleTo } from './conditions';
import { followsManyTtlMs, privateLateralMaxAuthors, profileGenderOf, sample, tourCacheTtlMs, tourPoolSize, type Page } from './domain';

/** A post has at least one media (the profile grid, the tour, discover's new posts). */
export const hasMedia: SQL = sql`exists(select 1 from ${postMedia} where ${postMedia.postId} = ${posts.id})`;

/** A hashtag as stored in post_hashtags: without '#', NFC, lower case. */
export function normaliseTag(raw: string): string | null {
  const tag = raw.replace(/^#/, '').normalize('NFC');
  return isValidHashtag(tag) ? tag.toLowerCase() : null;
}

/**
 * The ids of a page of visible posts (published, author active, not blocked or hidden for the
 * viewer), newest first. Every timeline, and post search, is this query with its own conditions.
 */
export async function visiblePostIds(ctx: AppContext, where: (SQL | undefined)[], viewerId: number | null, page: Page): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: posts.id })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.userId))
    .where(and(publishedPost, activeUser, visibleTo(viewerId, posts.userId), page.before === null ? undefined : lt(posts.publishedAt, page.before), ...where))
    .orderBy(...newestFirst)
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((r) => r.id);
}

/**
 * A page of visible posts as the viewer sees them, in one prepared statement (see loadPostsOf):
 * the ids of {@link visiblePostIds} as its subquery. `key` names the kind of list and `where`
 * builds its conditions with placeholders, filled from `values`; `viewer` is the viewer's
 * placeholder. Blocks and hides apply unless `hideFromViewer` is false (a profile's own list).
 */
export function visiblePosts(
  ctx: AppContext,
  list: { key: string; where?: () => (SQL | undefined)[]; values?: Record<string, unknown>; hideFromViewer?: boolean; named?: boolean },
  viewerId: number | null,
  page: Page,
): Promise<Post[]> {
  const hide = viewerId !== null && (list.hideFromViewer ?? true);
  const before = page.before !== null;
  const name = `${list.key}:${hide ? 'hide' : 'all'}:${before ? 'before' : 'newest'}`;
  return pagedPosts(ctx, `${name}|${JSON.stringify(list.values ?? {})}|${viewerId}|${page.before?.getTime() ?? ''}`, page, (after) => {
    // A page counted from an offset is planned for that offset: a plan made once for every
    // offset reads the whole list to skip an unknown number of posts. The others are prepared,
    // one statement per page size with the size written in it: with the size a parameter,
    // PostgreSQL costs the plan made once as if it read a tenth of the list, and plans every
    // run afresh instead (planning a page cost more than reading it).
    const named = (list.named ?? true) && (after !== undefined || page.offset === 0);
    return loadPostsOf(
      ctx,
      `${name}${after === undefined ? (page.offset > 0 ? ':deep' : '') : ':after'}${named ? `:${pageLimit(page)}` : ''}`,
      () => {
        const ids = ctx.db
          .select({ id: posts.id })
          .from(posts)
          .innerJoin(users, eq(users.id, posts.userId))
          .where(
            and(
              publishedPost,
              activeUser,
              hide ? visibleTo(sql.placeholder('viewer'), posts.userId) : undefined,
              before ? sql`${posts.publishedAt} < ${sql.placeholder('before')}::timestamptz` : undefined,
              after === undefined ? undefined : afterPost,
              ...(list.where?.() ?? []),
            ),
          )
          .orderBy(...newestFirst);
        return named ? sql`${ids.getSQL()} limit ${sql.raw(String(pageLimit(page)))}` : ids.limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).getSQL();
      },
      {
        ...list.values,
        ...(named ? {} : { limit: page.limit, offset: page.offset }),
        ...(before ? { before: page.before!.toISOString() } : {}),
        ...(after === undefined ? {} : { after }),
      },
      viewerId,
      { named },
    );
  });
}

/** A page's size as it is written into a statement: a whole number the page bounds allowed. */
function pageLimit(page: Page): number {
  if (!Number.isSafeInteger(page.limit) || page.limit < 1) throw new Error(`a page of ${page.limit} posts`);
  return page.limit;
}

/** Posts after the one in the `after` placeholder, in the lists' order (newest first). */
const afterPost = sql`(${posts.publishedAt}, ${posts.id}) < (select p.published_at, p.id from ${posts} p where p.id = ${sql.placeholder('after')})`;

const postCursors = new WeakMap<AppContext, PageCursors<number>>();

/**
 * A page of an offset-paged list of posts (`list` names it with everything that shapes it): after
 * the last post of the page before when this node served that one (http/page-cursors.ts), else
 * by offset. A cursor whose post is gone gives no rows; the offset then answers.
 */
async function pagedPosts(ctx: AppContext, list: string, page: Page, read: (after: number | undefined) => Promise<Post[]>): Promise<Post[]> {
  let cursors = postCursors.get(ctx);
  if (cursors === undefined) {
    cursors = new PageCursors<number>();
    postCursors.set(ctx, cursors);
  }
  const after = cursors.after(`${list}|${page.limit}`, page.offset);
  let rows = await read(after);
  if (after !== undefined && rows.length === 0) rows = await read(undefined);
  cursors.served(`${list}|${page.limit}`, page.offset, page.limit, rows.length, rows.at(-1)?.id);
  return rows;
}

/**
 * The ids of a page of the private timeline for someone following a few people (placeholders
 * `viewer`, `reach` = offset + limit, `limit`, `offset`, and `before` / `after` when asked):
 * a merge of the authors' newest posts that reads about `reach` posts plus one probe per
 * author, however many posts each has.
 *
 * Each author's newest `depth` posts come first (`depth` = reach ÷ authors, rounded up, so
 * all of them together are about `reach`); the `reach`-th newest of those, the threshold, is
 * no newer than the `reach`-th newest of the page's whole list, so that list holds no post
 * older than it. Only an author whose `depth`-th post is still newer than the threshold can
 * have more posts in it: those authors alone are read further, down to the threshold and at
 * most `reach` posts each. Fewer than `reach` posts in the first round leave no threshold,
 * and every author who had `depth` posts is read further, to `reach`. The page is cut from
 * what both rounds found.
 */
function boundedMerge(options: { before: boolean; after: boolean }): SQL {
  const viewer = sql.placeholder('viewer');
  const reach = sql`${sql.placeholder('reach')}::int`;
  const bounds = sql`${options.before ? sql`and ${posts.publishedAt} < ${sql.placeholder('before')}::timestamptz` : sql``}
    ${options.after ? sql`and ${afterPost}` : sql``}`;
  return sql`
    with authors as materialized (
      select distinct ${users.id} as id
      from unnest(array(select ${follows.followedId} from ${follows} where ${follows.followerId} = ${viewer}) || ${viewer}::int) as author(id)
      join ${users} on ${users.id} = author.id
      where ${and(activeUser, visibleTo(viewer, users.id))}
    ),
    depth as (select ((${reach} + count(*) - 1) / greatest(count(*), 1))::int as n from authors),
    first_round as materialized (
      select authors.id as author, newest.id, newest.published_at, newest.k
      from authors cross join lateral (
        select page.id, page.published_at, row_number() over (order by page.published_at desc, page.id desc) as k
        from (
          select ${posts.id} as id, ${posts.publishedAt} as published_at from ${posts}
          where ${posts.userId} = authors.id and ${publishedPost} ${bounds}
          order by ${sql.join(newestFirst, sql`, `)}
          limit (select n from depth)
        ) page
      ) newest
    ),
    threshold as materialized (
      select published_at, id from first_round order by published_at desc, id desc offset ${reach} - 1 limit 1
    ),
    further as (
      select first_round.author, first_round.published_at, first_round.id, threshold.published_at as threshold_at, threshold.id as threshold_id
      from first_round left join threshold on true
      where first_round.k = (select n from depth)
        and (threshold.id is null or (first_round.published_at, first_round.id) > (threshold.published_at, threshold.id))
    ),
    second_round as (
      select older.id, older.published_at
      from further cross join lateral (
        select ${posts.id} as id, ${posts.publishedAt} as published_at
        from ${posts}
        where ${posts.userId} = further.author and ${publishedPost}
          and (${posts.publishedAt}, ${posts.id}) < (further.published_at, further.id)
          and (${posts.publishedAt}, ${posts.id}) >= (coalesce(further.threshold_at, '-infinity'), coalesce(further.threshold_id, 0))
        order by ${sql.join(newestFirst, sql`, `)}
        limit ${reach} - (select n from depth)
      ) older
    )
    select merged.id from (
      select id, published_at from first_round
      union all
      select id, published_at from second_round
    ) merged
    order by merged.published_at desc, merged.id desc
    limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}`;
}

export function createTimelineService(ctx: AppContext) {
  const { db } = ctx;

  const postIds = (where: (SQL | undefined)[], viewerId: number | null, page: Page) => visiblePostIds(ctx, where, viewerId, page);

  const tours = new TtlCache<number, number[]>(tourCacheTtlMs, 16);

  /** The active user a profile reference (username or id) names, or user-not-found. */
  async function profileOwner(ref: string): Promise<number> {
    const parsed = parseUserRef(ref);
    if (parsed === null) throw errors.userNotFound();
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and('id' in parsed ? eq(users.id, parsed.id) : sql`lower(${users.username}) = lower(${parsed.username})`, activeUser))
      .limit(1);
    if (row === undefined) throw errors.userNotFound();
    return row.id;
  }

  /**
   * Whether the viewer follows more people than the private timeline merges per author. Both
   * plans give the same page, so the answer is remembered for a while (a follow or two since
   * changes only which plan reads it), sparing a query on every page.
   */
  const followCounts = new TtlCache<number, boolean>(followsManyTtlMs, 10_000);
  async function followsMany(viewerId: number): Promise<boolean> {
    let many = followCounts.get(viewerId);
    if (many === undefined) {
      const rows = await db.select({ id: follows.followedId }).from(follows).where(eq(follows.followerId, viewerId)).limit(privateLateralMaxAuthors + 1);
      many = rows.length > privateLateralMaxAuthors;
      followCounts.set(viewerId, many);
    }
    return many;
  }

  async function isBlockedBetween(viewerId: number | null, ownerId: number): Promise<boolean> {
    if (viewerId === null || viewerId === ownerId) return false;
    const [row] = await db
      .select({ blocked: sql<boolean>`not ${notBlockedBetween(viewerId, users.id)}` })
      .from(users)
      .where(eq(users.id, ownerId));
    return row?.blocked ?? false;
  }

  return {
    /** `/papi/2/timeline`: everyone's posts, by the gender filter (already resolved). */
    async publicTimeline(viewerId: number | null, filter: number, page: Page): Promise<Post[]> {
      const gender = profileGenderOf(filter);
      if (gender === null) return visiblePosts(ctx, { key: 'public' }, viewerId, page);
      return visiblePosts(ctx, { key: 'public-gender', where: () => [eq(users.gender, sql.placeholder('gender'))], values: { gender } }, viewerId, page);
    },

    /**
     * `/api/2/timeline`: the viewer's own posts and those of the people they follow.
     *
     * Someone following a few creators would make a walk down the newest-posts index read
     * almost every post to find a page of theirs; instead each author's newest posts come from
     * the (user, publishedAt) index and are merged, reading about offset + limit of them in all
     * (see boundedMerge).
     * For people following very many, their posts are dense on the global index, and the walk
     * down it is the cheaper plan.
     */
    async privateTimeline(viewerId: number, page: Page): Promise<Post[]> {
      if (await followsMany(viewerId)) {
        const viewer = sql.placeholder('viewer');
        return visiblePosts(
          ctx,
          {
            key: 'private-walk',
            where: () => [or(eq(posts.userId, viewer), inArray(posts.userId, db.select({ id: follows.followedId }).from(follows).where(eq(follows.followerId, viewer))))],
          },
          viewerId,
          page,
        );
      }
      const before = page.before !== null;
      return pagedPosts(ctx, `private-merge|${viewerId}|${page.before?.getTime() ?? ''}`, page, (after) =>
        loadPostsOf(
          ctx,
          `private-merge:${before ? 'before' : 'newest'}${after === undefined ? (page.offset > 0 ? ':deep' : '') : ':after'}`,
          () => boundedMerge({ before, after: after !== undefined }),
          {
            reach: (after === undefined ? page.offset : 0) + page.limit,
            limit: page.limit,
            offset: after === undefined ? page.offset : 0,
            ...(before ? { before: page.before!.toISOString() } : {}),
            ...(after === undefined ? {} : { after }),
          },
          viewerId,
          // One plan serves every offset: each author is read by the index, never skipped through.
          { named: true },
        ),
      );
    },

    /**
     * `/papi/2/posts?username` and the profile grid: a profile's published posts (the grid only
     * those with media). Blocked either way, the list is empty, like the profile behind it.
     */
    async profilePosts(ref: string, viewerId: number | null, page: Page, mediaOnly: boolean): Promise<Post[]> {
      const ownerId = await profileOwner(ref);
      if (await isBlockedBetween(viewerId, ownerId)) return [];
      // The owner is never hidden from their own profile, whoever looks.
      return visiblePosts(
        ctx,
        {
          key: mediaOnly ? 'profile-media' : 'profile',
          where: () => [eq(posts.userId, sql.placeholder('owner')), mediaOnly ? hasMedia : undefined],
          values: { owner: ownerId },
          hideFromViewer: false,
        },
        viewerId,
        page,
      );
    },

    /** `/api/unlocked-posts`: posts holding media the viewer unlocked, newest first. */
    async unlockedPosts(viewerId: number, page: Page): Promise<Post[]> {
      const unlocked = db
        .select({ id: postMedia.postId })
        .from(postMedia)
        .innerJoin(mediaUnlocks, eq(mediaUnlocks.mediaId, postMedia.mediaId))
        .where(eq(mediaUnlocks.userId, viewerId));
      // What was paid for stays reachable; blocks and hides do not take it away.
      const ids = await postIds([inArray(posts.id, unlocked)], null, page);
      return loadPosts(ctx, ids, viewerId);
    },

    /**
     * `/api/scheduled-posts`: the viewer's posts still waiting for their start, the next to go
     * live first; `ts` pages to those starting later.
     */
    async scheduledPosts(viewerId: number, page: Page): Promise<Post[]> {
      const rows = await db
        .select({ id: posts.id })
        .from(posts)
        .where(
          and(
            eq(posts.userId, viewerId),
            sql`${posts.deletedAt} is null`,
            gt(posts.publishedAt, sql`now()`),
            page.before === null ? undefined : gt(posts.publishedAt, page.before),
          ),
        )
        .orderBy(...oldestFirst)
        .limit(page.limit)
        .offset(page.offset);
      return loadPosts(
        ctx,
        rows.map((r) => r.id),
        viewerId,
      );
    },

    /** `/papi/posts/hashtag/{tag}`: posts carrying the tag, newest first. */
    async hashtagPosts(rawTag: string, viewerId: number | null, page: Page): Promise<Post[]> {
      const tag = normaliseTag(rawTag);
      if (tag === null) throw errors.invalidRequest({ location: 'params', field: 'tag', reason: 'not a hashtag' });
      const rows = await db
        .select({ id: postHashtags.postId })
        .from(postHashtags)
        .innerJoin(posts, eq(posts.id, postHashtags.postId))
        .innerJoin(users, eq(users.id, posts.userId))
        .where(
          and(
            eq(postHashtags.tag, tag),
            publishedPost,
            activeUser,
            visibleTo(viewerId, posts.userId),
            page.before === null ? undefined : lt(postHashtags.publishedAt, page.before),
          ),
        )
        .orderBy(sql`${postHashtags.publishedAt} desc nulls last`, sql`${postHashtags.postId} desc`)
        .limit(page.limit)
        .offset(page.offset);
      return loadPosts(
        ctx,
        rows.map((r) => r.id),
        viewerId,
      );
    },

    /**
     * `/papi/posts/media/tour`: a random handful of recent posts with media. The draw is held
     * per node for 30 s (SPEC §4), so a visitor paging through the tour sees one stable set.
     */
    async tour(viewerId: number | null, limit: number): Promise<Post[]> {
      let ids = tours.get(limit);
      if (ids === undefined) {
        const pool = await postIds([hasMedia], null, { limit: tourPoolSize, offset: 0, before: null });
        ids = sample(pool, limit);
        tours.set(limit, ids);
      }
      if (viewerId !== null && ids.length > 0) {
        // The draw is shared; who the viewer blocked or hid is taken out afterwards.
        const allowed = await db
          .select({ id: posts.id })
          .from(posts)
          .where(and(inArray(posts.id, ids), visibleTo(viewerId, posts.userId)));
        const keep = new Set(allowed.map((r) => r.id));
        ids = ids.filter((id) => keep.has(id));
      }
      return loadPosts(ctx, ids, viewerId);
    },

    /**
     * `/papi/online-users`: creators seen within the online window. With a `seed`, a stable
     * shuffle (the same seed pages without repeats, as who-to-follow); without, the most
     * recently seen first.
     */
    async onlineUsers(viewerId: number | null, query: { limit: number; offset: number; seed: number | undefined }): Promise<PublicProfile[]> {
      const since = new Date(Date.now() - onlineWindowMs);
      const rows: ProfileRow[] = await db
        .select(profileColumns)
        .from(users)
        .leftJoin(media, eq(media.id, users.avatarMediaId))
        .where(
          and(
            activeCreator,
            gt(users.lastSeenAt, since),
            viewerId === null ? undefined : ne(users.id, viewerId),
            visibleTo(viewerId, users.id),
          ),
        )
        .orderBy(
          ...(query.seed === undefined ? [desc(users.lastSeenAt)] : [sql`md5(${users.id}::text || ':' || ${query.seed}::text)`]),
          asc(users.id),
        )
        .limit(query.limit)
        .offset(query.offset);
      const now = Date.now();
      return rows.map((row) => toPublicProfile(row, now));
    },
  };
}

export type TimelineService = ReturnType<typeof createTimelineService>;

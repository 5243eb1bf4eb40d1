import { and, asc, desc, eq, lt, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Post } from '../../../../lib/contract/posts';
import type { SearchTips, TagResult } from '../../../../lib/contract/search';
import type { PublicProfile } from '../../../../lib/contract/users';
import type { AppContext } from '../../context';
import { media, postHashtags, posts, users } from '../../db/schema';
import { profileColumns } from '../users/service';
import { toPublicProfile, type ProfileRow } from '../users/domain';
import { activeCreator, activeUser, notBlockedBetween, publishedPost, visibleTo } from '../timeline/conditions';
import { profileGenderOf, type Page } from '../timeline/domain';
import { hasMedia, visiblePosts } from '../timeline/service';
import { birthdayRange, discoverPlan, type DiscoverFilter, prefixTsQuery, searchSizes, tagPrefix } from './domain';

/** The expression users_search_idx indexes; written the same so the planner uses the index. */
const userDocument = sql`to_tsvector('simple', ${users.username} || ' ' || ${users.displayName})`;

export function createSearchService(ctx: AppContext) {
  const { db } = ctx;

  function profiles(rows: ProfileRow[]): PublicProfile[] {
    const now = Date.now();
    return rows.map((row) => toPublicProfile(row, now));
  }

  /** Neither the viewer themself nor anyone blocked either way. */
  function othersOf(viewerId: number | null): SQL | undefined {
    return viewerId === null ? undefined : and(ne(users.id, viewerId), notBlockedBetween(viewerId, users.id));
  }

  async function searchUsers(q: string, viewerId: number | null, limit: number, offset: number): Promise<PublicProfile[]> {
    return profiles(await searchUserRows(q, viewerId, limit, offset));
  }

  async function searchUserRows(q: string, viewerId: number | null, limit: number, offset: number): Promise<ProfileRow[]> {
    const query = prefixTsQuery(q);
    if (query === null) return [];
    const rows: ProfileRow[] = await db
      .select(profileColumns)
      .from(users)
      .leftJoin(media, eq(media.id, users.avatarMediaId))
      // Admins have no public profile (SPEC §3 level 500).
      .where(and(sql`${userDocument} @@ to_tsquery('simple', ${query})`, activeUser, lt(users.level, 500), othersOf(viewerId)))
      .orderBy(desc(users.followersCount), asc(users.id))
      .limit(limit)
      .offset(offset);
    return rows;
  }

  async function searchTags(q: string, limit: number): Promise<TagResult[]> {
    const prefix = tagPrefix(q);
    if (prefix === null) return [];
    const count = sql<number>`count(*)::int`;
    // Counted on post_hashtags alone: the posts service keeps rows there for live posts only
    // (deleting a post deletes its tags), and only the scheduled ones need leaving out. A
    // range on the primary key (tag, post_id) finds the prefix — every tag starting with it
    // sorts between it and it followed by the last code point in the databases' codepoint
    // collations — and starts_with keeps the answer exact whatever the collation.
    const rows = await db
      .select({ tag: postHashtags.tag, count })
      .from(postHashtags)
      .where(
        and(
          sql`${postHashtags.tag} >= ${prefix}`,
          sql`${postHashtags.tag} < ${prefix} || chr(1114111)`,
          sql`starts_with(${postHashtags.tag}, ${prefix})`,
          lte(postHashtags.publishedAt, sql`now()`),
        ),
      )
      .groupBy(postHashtags.tag)
      .orderBy(desc(count), asc(postHashtags.tag))
      .limit(limit);
    return rows;
  }

  return {
    /** `/papi/discover/search`: creators by the filter and tab, 30 a page. */
    async discover(filter: DiscoverFilter, viewerId: number | null): Promise<PublicProfile[]> {
      const plan = discoverPlan(filter);
      const gender = plan.genderFilter === null ? null : profileGenderOf(plan.genderFilter);
      const ages = birthdayRange(plan.ageMin, plan.ageMax, new Date());
      const query = plan.q === null ? null : prefixTsQuery(plan.q);
      if (plan.q !== null && query === null) return [];
      const latestPost = sql`(select max(${posts.publishedAt}) from ${posts} where ${posts.userId} = ${users.id} and ${publishedPost})`;
      const conditions: (SQL | undefined)[] = [
        activeCreator,
        viewerId === null ? undefined : ne(users.id, viewerId),
        visibleTo(viewerId, users.id),
        gender === null ? undefined : eq(users.gender, gender),
        plan.sexuality === null ? undefined : eq(users.sexuality, plan.sexuality),
        plan.preferences === null ? undefined : eq(users.preferences, plan.preferences),
        plan.language === null ? undefined : sql`${plan.language} = any(${users.languages})`,
        plan.hair === null ? undefined : eq(users.hair, plan.hair),
        plan.body === null ? undefined : eq(users.body, plan.body),
        plan.bigBoobs ? eq(users.bigBoobs, true) : undefined,
        plan.bigDick ? eq(users.bigDick, true) : undefined,
        plan.wantsFun ? eq(users.wantsFun, true) : undefined,
        plan.hasBadge ? eq(users.hasBadge, true) : undefined,
        ages.bornOnOrBefore === null ? undefined : sql`${users.birthday} <= ${ages.bornOnOrBefore}`,
        ages.bornAfter === null ? undefined : sql`${users.birthday} > ${ages.bornAfter}`,
        query === null ? undefined : sql`${userDocument} @@ to_tsquery('simple', ${query})`,
        plan.order === 'active' ? sql`${users.lastSeenAt} is not null` : undefined,
        plan.order === 'newPosts' ? sql`${latestPost} is not null` : undefined,
      ];
      const order =
        plan.order === 'active'
          ? [desc(users.lastSeenAt), asc(users.id)]
          : plan.order === 'newPosts'
            ? [sql`${latestPost} desc`, asc(users.id)]
            : [desc(users.followersCount), asc(users.id)];
      const rows: ProfileRow[] = await db
        .select(profileColumns)
        .from(users)
        .leftJoin(media, eq(media.id, users.avatarMediaId))
        .where(and(...conditions))
        .orderBy(...order)
        .limit(plan.limit)
        .offset(plan.offset);
      return profiles(rows);
    },

    /** `/papi/discover/active-users`: creators by when they were last seen. */
    async activeUsers(viewerId: number | null, limit: number, offset: number): Promise<PublicProfile[]> {
      return this.discover({ tab: 'activeusers', limit, offset }, viewerId);
    },

    /** `/papi/discover/new-posts`: the newest posts with media. */
    async newPosts(viewerId: number | null, page: Page): Promise<Post[]> {
      return visiblePosts(ctx, { key: 'new-posts', where: () => [hasMedia] }, viewerId, page);
    },

    /** `/papi/search/users?q`: people whose username or display name has words starting with those typed. */
    users: (q: string, viewerId: number | null, limit: number = searchSizes.users, offset = 0) => searchUsers(q, viewerId, limit, offset),
    /** The same people as `users`, as rows (GET /api/users?name: the viewer's relations are added to them). */
    userRows: (q: string, viewerId: number | null, limit: number = searchSizes.users, offset = 0) => searchUserRows(q, viewerId, limit, offset),

    /** `/papi/search/tags?q`: tags starting with the word typed, the most used first. */
    tags: (q: string, limit: number = searchSizes.tags) => searchTags(q, limit),

    /** `/papi/search/tips?q`: quick-search suggestions, at most 8 in all: people first, tags fill up. */
    async tips(q: string, viewerId: number | null): Promise<SearchTips> {
      const [people, tags] = await Promise.all([searchUsers(q, viewerId, searchSizes.tipUsers, 0), searchTags(q, searchSizes.tips)]);
      return { users: people, tags: tags.slice(0, searchSizes.tips - people.length) };
    },

    /**
     * `/papi/search/posts?q`: posts whose text matches the words (websearch syntax: quotes,
     * `or`, `-word`; it never fails on odd input), newest first.
     */
    async posts(q: string, viewerId: number | null, page: Page): Promise<Post[]> {
      if (q.trim() === '') return [];
      return visiblePosts(
        ctx,
        // Unnamed: the best plan depends on the words (docs/performance.md, Text search).
        { key: 'search', where: () => [sql`${posts.search} @@ websearch_to_tsquery('simple', ${sql.placeholder('q')})`], values: { q }, named: false },
        viewerId,
        page,
      );
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

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
import { birthdayRange, discoverPlan, type DiscoverFilter, searchSizes, tagPrefix } from './domain';
import { peopleOrder, searchPeople } from './people';

/**
 * Up to this many posts matching a search are read through the GIN index and sorted; past it the
 * newest posts are walked, where one in `rareMatches / posts` matches (bench/scale.ts).
 */
const rareMatches = 2000;

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
    return searchPeople(db, {
      q,
      viewerId,
      // Admins have no public profile (SPEC §3 level 500).
      filters: [activeUser, lt(users.level, 500), othersOf(viewerId)],
      order: peopleOrder(viewerId),
      limit,
      offset,
    });
  }

  async function searchTags(q: string, limit: number): Promise<TagResult[]> {
    const prefix = tagPrefix(q);
    if (prefix === null) return [];
    const count = sql<number>`count(*)::int`;
    // Counted on post_hashtags alone: the posts service keeps rows there for live posts only
    // (deleting a post deletes its tags), and only the scheduled ones need leaving out. The tag
    // without accents is compared ("leto" finds #léto): a range of post_hashtags_search_idx finds
    // the prefix — every tag starting with it sorts between it and it followed by the last code
    // point in byte order ("C") — and starts_with keeps the answer exact.
    const folded = sql`(public.fanstage_unaccent(${postHashtags.tag})) collate "C"`;
    const start = sql`public.fanstage_unaccent(${prefix})`;
    const rows = await db
      .select({ tag: postHashtags.tag, count })
      .from(postHashtags)
      .where(and(sql`${folded} >= ${start}`, sql`${folded} < ${start} || chr(1114111)`, sql`starts_with(${folded}, ${start})`, lte(postHashtags.publishedAt, sql`now()`)))
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
        plan.order === 'active' ? sql`${users.lastSeenAt} is not null` : undefined,
        plan.order === 'newPosts' ? sql`${latestPost} is not null` : undefined,
      ];
      const order =
        plan.order === 'active'
          ? [desc(users.lastSeenAt), asc(users.id)]
          : plan.order === 'newPosts'
            ? [sql`${latestPost} desc`, asc(users.id)]
            : [desc(users.followersCount), asc(users.id)];
      // With words, the people search ranks by match first and the tab's order within a match.
      if (plan.q !== null) return profiles(await searchPeople(db, { q: plan.q, viewerId, filters: conditions, order, limit: plan.limit, offset: plan.offset }));
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
     * `or`, `-word`; it never fails on odd input; accents ignored), newest first.
     *
     * Which read is cheap depends on how many posts match, which PostgreSQL guesses badly for a
     * word outside its statistics (it takes a rare word for a common one and walks the newest
     * posts, all of them). So it is counted first, on the GIN index, up to `rareMatches`: that
     * many or fewer are read by id and sorted; more are dense enough among the newest posts that
     * walking them finds a page soon (docs/performance.md, Text search).
     */
    async posts(q: string, viewerId: number | null, page: Page): Promise<Post[]> {
      if (q.trim() === '') return [];
      const matches = sql`${posts.search} @@ websearch_to_tsquery('public.fanstage_search', ${q})`;
      const hits = await db.transaction(async (tx) => {
        // The count must come from the index whatever the estimate says: bitmap scans only.
        await tx.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)`);
        return tx.select({ id: posts.id }).from(posts).where(matches).limit(rareMatches + 1);
      });
      if (hits.length <= rareMatches) {
        if (hits.length === 0) return [];
        return visiblePosts(
          ctx,
          { key: 'search-few', where: () => [sql`${posts.id} = any(${sql.placeholder('ids')}::int[])`], values: { ids: hits.map((h) => h.id) }, named: false },
          viewerId,
          page,
        );
      }
      return visiblePosts(
        ctx,
        { key: 'search', where: () => [sql`${posts.search} @@ websearch_to_tsquery('public.fanstage_search', ${sql.placeholder('q')})`], values: { q }, named: false },
        viewerId,
        page,
      );
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

/**
 * Pure rules of the post lists: page sizes, the public timeline's gender filter and paging.
 * The queries live in service.ts; everything here is decided before the database is asked.
 */

/** SPEC §9 page sizes of the lists this feature serves. */
export const pageSizes = {
  timeline: 15,
  profilePosts: 15,
  /** The profile grid, the unlocked, scheduled and hashtag feeds. */
  feed: 30,
  tour: 7,
  onlineUsers: 20,
} as const;

/**
 * Up to this many followed people, the private timeline reads each one's newest posts and merges
 * them; beyond it, it walks the newest posts of everyone (see service.ts).
 */
export const privateLateralMaxAuthors = 200;

/** How long a node remembers which of the two plans a viewer's private timeline takes. */
export const followsManyTtlMs = 60_000;

/** How long the tour (`/papi/posts/media/tour`) is held per server node (SPEC §4 Tour cache). */
export const tourCacheTtlMs = 30_000;

/** The tour draws its random set from this many of the newest posts with media. */
export const tourPoolSize = 120;

/**
 * How long a visitor's page of the public timeline or of post search is answered from memory
 * per node (./visitor-pages.ts). The first page is by far the most requested list (every visit
 * to `/` asks for it); a post made on another node shows up for visitors at most this late (on
 * this node at once), and logged-in viewers always read fresh.
 */
export const publicFirstPageTtlMs = 1_500;

/**
 * Past its time, a held visitor's page is still answered for this long while one request
 * reloads it, so an expiry never makes a crowd of visitors wait for the database together.
 */
export const publicFirstPageStaleMs = 5_000;

/** How many visitors' pages (deep timeline pages, post searches) a node holds at most. */
export const visitorPagesMaxEntries = 256;

/**
 * How long a signed-in viewer's page of her own timeline is answered from memory per node
 * (./visitor-pages.ts, `VisitorPages.getForViewer`): a reload, a second tab, the app coming back to the
 * foreground ask for the same page within moments. Never answered past it: a viewer sees her
 * own writes, and any write drops every held page on every node.
 */
export const viewerPageTtlMs = 1_500;

/** How many viewers' pages a node holds at most (about 20 KB each). */
export const viewerPagesMaxEntries = 1_024;

/**
 * SPEC §3: the gender filter takes 0–4, 0 only for logged-in users, default 1. Profiles carry
 * gender 1 (man) or 2 (woman), so the filter values map to:
 *
 *   0 everyone (logged-in only)
 *   1 women (profile gender 2) — the default: the platform's creators are mostly women
 *   2 men (profile gender 1)
 *   3 couples, 4 trans: reserved for profile genders 3 and 4, which no profile can hold yet,
 *     so these pages are empty until profiles can say so
 */
export const genderFilter = { all: 0, women: 1, men: 2, couples: 3, trans: 4, default: 1 } as const;

/** The profile gender a filter value selects, or null for everyone. */
export function profileGenderOf(filter: number): number | null {
  switch (filter) {
    case genderFilter.all:
      return null;
    case genderFilter.women:
      return 2;
    case genderFilter.men:
      return 1;
    default:
      return filter;
  }
}

/** The filter a request asks for, or null when a visitor asks for 0 (which only logged-in users may). */
export function resolveGenderFilter(requested: number | undefined, loggedIn: boolean): number | null {
  const filter = requested ?? genderFilter.default;
  if (filter === genderFilter.all && !loggedIn) return null;
  return filter;
}

export interface Page {
  limit: number;
  offset: number;
  /** Only items published before this instant (the `ts` of the last item seen). */
  before: Date | null;
}

/**
 * A page from the query. `ts` is the cursor (epoch ms of the last item the client holds) and
 * `offset` skips items after it; both may come together. A page shorter than `limit` is the
 * last one (SPEC §4 Timeline paging).
 */
export function pageOf(query: { limit?: number; offset?: number; ts?: number }, defaultLimit: number): Page {
  return {
    limit: query.limit ?? defaultLimit,
    offset: query.offset ?? 0,
    before: query.ts === undefined ? null : new Date(query.ts),
  };
}

/** Whether a request is the cacheable first page: no cursor, no offset. */
export function isFirstPage(page: Page): boolean {
  return page.before === null && page.offset === 0;
}

/**
 * `count` items of `pool` in a random order (Fisher–Yates on a copy). `random` is injectable
 * so tests can pin it.
 */
export function sample<T>(pool: readonly T[], count: number, random: () => number = Math.random): T[] {
  const copy = [...pool];
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

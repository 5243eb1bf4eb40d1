import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { DiscoverTab, Post, PublicProfile, SearchFilter, TagResult } from '../../contract';
import { AgeFilter, DiscoverTabs } from '../../contract/constants';
import type { FanstageClient } from '../client';
import { discoverApi } from '../api-discover';
import { pageSizes } from '../rules/constants';
import { createPagedList, type PagedList } from './shared/paged';

// Paged lists live in ./shared/paged (every store pages the same way); named here too, as before.
export { createPagedList } from './shared/paged';
export type { PagedStatus, PageCursor, PagedListOptions, PagedList } from './shared/paged';

// ---------------------------------------------------------------------------------------------
// The discover filter (SPEC §3 Search filter, §5, §9)
// ---------------------------------------------------------------------------------------------

/** The fields of the filter form; a field that is absent is not set and not sent. */
export type DiscoverFilter = Omit<SearchFilter, 'q' | 'tab' | 'limit' | 'offset'>;

/** The tabs that list creators by a preset search; newposts lists posts, activeusers who is around. */
export const presetTabs: readonly DiscoverTab[] = ['hasBadge', 'teens', 'milf', 'boobs', 'blonde-girls', 'brunette-girls'];

export function isDiscoverTab(value: unknown): value is DiscoverTab {
  return typeof value === 'string' && (DiscoverTabs as readonly string[]).includes(value);
}

/** Whether a tab lists posts rather than creators. */
export function isPostTab(tab: DiscoverTab): boolean {
  return tab === 'newposts';
}

/** The age range a tab starts from (SPEC §9): 18–42, teens up to 25, milf 30–50. */
export function ageBoundsFor(tab: DiscoverTab): { min: number; max: number } {
  if (tab === 'teens') return { min: AgeFilter.min, max: AgeFilter.teenMax };
  if (tab === 'milf') return { min: AgeFilter.milfMin, max: AgeFilter.milfMax };
  return { min: AgeFilter.min, max: AgeFilter.max };
}

/** The gender filter's choices (SPEC §3): 0 (everyone) only for a logged-in viewer; 1 is the default. */
export function genderChoices(loggedIn: boolean): number[] {
  return loggedIn ? [0, 1, 2, 3, 4] : [1, 2, 3, 4];
}

export const DEFAULT_GENDER = 1;

/** Whether any field of the filter is set. */
export function isFilterSet(filter: DiscoverFilter): boolean {
  return Object.values(filter).some((value) => value !== undefined);
}

/** Keeps only the fields a person set: empty strings, false boxes and undefined are "not set". */
export function cleanFilter(filter: DiscoverFilter): DiscoverFilter {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    if (typeof value === 'number' && !Number.isFinite(value)) continue;
    out[key] = value;
  }
  return out as DiscoverFilter;
}

export interface SearchQueryInput {
  tab: DiscoverTab;
  filter: DiscoverFilter;
  /** Free text: the address's `q`, or else the filter's stored text. */
  text?: string;
  loggedIn: boolean;
  offset?: number;
  limit?: number;
}

/**
 * The query of `/papi/discover/search`. SPEC §5: filter queries are sent only when a filter
 * is set, so a field the person left alone (or set back to the tab's own default, like the
 * age range) is not in the query at all, and the server's defaults apply. A moved age range
 * is sent whole, so moving only its lower end still keeps the upper one.
 */
export function searchQuery(input: SearchQueryInput): SearchFilter {
  const filter = cleanFilter(input.filter);
  const query: SearchFilter = {};
  if (presetTabs.includes(input.tab) || input.tab === 'activeusers') query.tab = input.tab;
  const bounds = ageBoundsFor(input.tab);
  // The age range is one slider: once either end moved, both ends are the filter.
  const ageSet = (filter.age_gte !== undefined && filter.age_gte !== bounds.min) || (filter.age_lte !== undefined && filter.age_lte !== bounds.max);
  for (const [key, value] of Object.entries(filter) as [keyof DiscoverFilter, never][]) {
    if (key === 'age_gte' || key === 'age_lte') continue;
    // A visitor cannot choose everyone (SPEC §5): their filter falls back to the default.
    if (key === 'gender' && value === 0 && !input.loggedIn) continue;
    query[key] = value;
  }
  if (ageSet) {
    query.age_gte = filter.age_gte ?? bounds.min;
    query.age_lte = filter.age_lte ?? bounds.max;
  }
  const text = input.text?.trim();
  if (text) query.q = text.slice(0, 100);
  if (input.offset) query.offset = input.offset;
  query.limit = input.limit ?? pageSizes.discoverSearch;
  return query;
}

// ---------------------------------------------------------------------------------------------
// The store
// ---------------------------------------------------------------------------------------------

/** Quick-search tabs (SPEC §2: they start at best). */
export const quickSearchTabs = ['best', 'people', 'tags'] as const;
export type QuickSearchTab = (typeof quickSearchTabs)[number];

export type QuickSearchResult = { kind: 'user'; user: PublicProfile } | { kind: 'tag'; tag: TagResult };

/** The part of Web Storage the store needs to keep the free-text filter. */
export interface FilterStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** SPEC §9: the free-text filter is stored locally under this key. */
export const FILTER_TEXT_KEY = 'fltr';

export interface SearchStoreOptions {
  isLoggedIn?: () => boolean;
  /** Who is signed in (`null` for a visitor): shared suggestions are the viewer's own. */
  viewerId?: () => number | null;
  /** Where the free-text filter is kept; `localStorage` when there is one. */
  storage?: FilterStorage | null;
  /** Profiles of every list arrive here, so cards and follow buttons render without asking again. */
  rememberProfiles?: (profiles: readonly PublicProfile[]) => void;
}

const SUGGESTIONS_KEPT_MS = 60_000;

function defaultStorage(): FilterStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage blocked by the browser's privacy settings: the filter then lasts for the page.
    return null;
  }
}

/**
 * Discover, search and who-to-follow: the chosen tab, filter and query as signals, the
 * actions that change them, the quick search, and the lists they lead to.
 */
export function createSearchStore(client: FanstageClient, options: SearchStoreOptions = {}) {
  const api = discoverApi(client);
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const loggedIn = () => options.isLoggedIn?.() ?? false;
  const remember = (list: readonly PublicProfile[]) => options.rememberProfiles?.(list);

  function readText(): string {
    try {
      return storage?.getItem(FILTER_TEXT_KEY) ?? '';
    } catch {
      return '';
    }
  }

  const filter = signal<DiscoverFilter>({});
  const filterText = signal<string>(readText());
  const filterActive = computed(() => isFilterSet(filter.value) || filterText.value.trim() !== '');

  /** Sets the filter; fields left empty are dropped, so they are not sent. */
  function setFilter(next: DiscoverFilter): void {
    filter.value = cleanFilter(next);
  }

  function setFilterText(text: string): void {
    const value = text.slice(0, 100);
    filterText.value = value;
    try {
      if (value.trim()) storage?.setItem(FILTER_TEXT_KEY, value);
      else storage?.removeItem(FILTER_TEXT_KEY);
    } catch {
      // A full or blocked storage only costs remembering the text.
    }
  }

  /** SPEC §2: tapping the active tab or the logo resets search and filters. */
  function resetFilters(): void {
    batch(() => {
      filter.value = {};
      setFilterText('');
    });
    clearQuick();
  }

  /**
   * The creators of a tab, in pages of 30 (SPEC §9), with the filter and text as they are now.
   * activeusers without a filter is its own list; with one, it is a search like the presets.
   */
  function users(tab: DiscoverTab, query = '', pageSize: number = pageSizes.discoverSearch): PagedList<PublicProfile> {
    const snapshot = { filter: filter.peek(), text: query.trim() || filterText.peek() };
    const plain = tab === 'activeusers' && !isFilterSet(snapshot.filter) && !snapshot.text.trim();
    return createPagedList<PublicProfile>({
      pageSize,
      cap: pageSizes.userLists,
      idOf: (p) => p.id,
      onPage: remember,
      fetchPage: ({ offset, limit }, signal) =>
        plain
          ? api.activeUsers({ offset: offset || undefined, limit }, signal)
          : api.search(searchQuery({ tab, filter: snapshot.filter, text: snapshot.text, loggedIn: loggedIn(), offset, limit }), signal),
    });
  }

  /**
   * Everyone whose name matches `query`, as the quick search finds them (creators and fans,
   * ranked by how well the name matches): the people of the search results page.
   */
  function people(query: string, pageSize: number = pageSizes.discoverSearch): PagedList<PublicProfile> {
    const text = query.trim().slice(0, 100);
    return createPagedList<PublicProfile>({
      pageSize,
      cap: pageSizes.userLists,
      idOf: (p) => p.id,
      onPage: remember,
      fetchPage: ({ offset, limit }, signal) => (text ? api.people(text, { limit, ...(offset ? { offset } : {}) }, signal) : Promise.resolve([])),
    });
  }

  /** Who to follow (SPEC §9: 15 a page); a user list, so at most 30 in all. */
  function whoToFollow(pageSize: number = pageSizes.whoToFollow): PagedList<PublicProfile> {
    return createPagedList<PublicProfile>({
      pageSize,
      cap: pageSizes.userLists,
      idOf: (p) => p.id,
      onPage: remember,
      fetchPage: ({ offset, limit }, signal) => api.whoToFollow({ limit, offset: offset || undefined }, signal),
    });
  }

  /**
   * The first page of who to follow, asked once for every part of a screen that shows it
   * (the home's creator grid and the feed's suggestions) and kept for a minute for the
   * same viewer; a failed answer is not kept.
   */
  let suggestions: { viewer: number | null; at: number; list: Promise<PublicProfile[]> } | null = null;
  function suggested(): Promise<PublicProfile[]> {
    const viewer = options.viewerId?.() ?? null;
    if (suggestions && suggestions.viewer === viewer && Date.now() - suggestions.at < SUGGESTIONS_KEPT_MS) return suggestions.list;
    const list = api.whoToFollow({ limit: pageSizes.whoToFollow }).then((profiles) => {
      remember(profiles);
      return profiles;
    });
    const entry = { viewer, at: Date.now(), list };
    suggestions = entry;
    list.catch(() => {
      if (suggestions === entry) suggestions = null;
    });
    return list;
  }

  /** Posts paged by the last one's `ts` until a short page. */
  function postList(pageSize: number, fetch: (query: { ts?: number; limit: number }, signal: AbortSignal) => Promise<Post[]>): PagedList<Post> {
    return createPagedList<Post>({
      pageSize,
      idOf: (p) => p.id,
      onPage: (posts) => remember(posts.map((p) => p.user)),
      fetchPage: ({ last, limit }, signal) => fetch({ ...(last ? { ts: last.ts } : {}), limit }, signal),
    });
  }

  const newPosts = (pageSize: number = pageSizes.section) => postList(pageSize, (q, s) => api.newPosts(q, s));
  const hashtagPosts = (tag: string) => postList(pageSizes.hashtagTimeline, (q, s) => api.hashtagPosts(tag.replace(/^#/, ''), q, s));
  const searchPosts = (text: string) => postList(pageSizes.discoverSearch, (q, s) => api.posts(text, q, s));

  // --- quick search -----------------------------------------------------------------------

  const quickQuery = signal('');
  const quickTab = signal<QuickSearchTab>('best');
  const quickStatus = signal<'idle' | 'loading' | 'ready' | 'error'>('idle');
  const quickUsers = signal<readonly PublicProfile[]>([]);
  const quickTags = signal<readonly TagResult[]>([]);
  let quickController: AbortController | null = null;

  /** At most 8 results (SPEC §2): best mixes creators then hashtags. */
  const quickResults = computed<QuickSearchResult[]>(() => {
    const users: QuickSearchResult[] = quickUsers.value.map((user) => ({ kind: 'user', user }));
    const tags: QuickSearchResult[] = quickTags.value.map((tag) => ({ kind: 'tag', tag }));
    const list = quickTab.value === 'people' ? users : quickTab.value === 'tags' ? tags : [...users, ...tags];
    return list.slice(0, pageSizes.quickSearch);
  });

  async function runQuick(): Promise<void> {
    quickController?.abort();
    const q = quickQuery.peek().trim();
    if (!q) {
      batch(() => {
        quickUsers.value = [];
        quickTags.value = [];
        quickStatus.value = 'idle';
      });
      return;
    }
    const own = new AbortController();
    quickController = own;
    quickStatus.value = 'loading';
    const tab = quickTab.peek();
    try {
      let users: PublicProfile[] = [];
      let tags: TagResult[] = [];
      if (tab === 'best') ({ users, tags } = await api.tips(q, own.signal));
      else if (tab === 'people') users = await api.users(q, own.signal);
      else tags = await api.tags(q, own.signal);
      if (own.signal.aborted) return;
      remember(users);
      batch(() => {
        quickUsers.value = users;
        quickTags.value = tags;
        quickStatus.value = 'ready';
      });
    } catch {
      if (!own.signal.aborted) quickStatus.value = 'error';
    }
  }

  /** Searches as the person types; an older answer never replaces a newer one. */
  function quickSearch(text: string): Promise<void> {
    quickQuery.value = text.slice(0, 100);
    return runQuick();
  }

  function setQuickTab(tab: QuickSearchTab): Promise<void> {
    if (quickTab.peek() === tab) return Promise.resolve();
    quickTab.value = tab;
    return runQuick();
  }

  function clearQuick(): void {
    quickController?.abort();
    quickController = null;
    batch(() => {
      quickQuery.value = '';
      quickTab.value = 'best';
      quickUsers.value = [];
      quickTags.value = [];
      quickStatus.value = 'idle';
    });
  }

  return {
    filter: filter as ReadonlySignal<DiscoverFilter>,
    filterText: filterText as ReadonlySignal<string>,
    /** Whether any filter or filter text is set (the filter button shows it). */
    filterActive,
    setFilter,
    setFilterText,
    resetFilters,
    users,
    people,
    whoToFollow,
    suggested,
    newPosts,
    hashtagPosts,
    searchPosts,
    quick: {
      query: quickQuery as ReadonlySignal<string>,
      tab: quickTab as ReadonlySignal<QuickSearchTab>,
      status: quickStatus as ReadonlySignal<'idle' | 'loading' | 'ready' | 'error'>,
      results: quickResults,
      search: quickSearch,
      setTab: setQuickTab,
      clear: clearQuick,
    },
  };
}

export type SearchStore = ReturnType<typeof createSearchStore>;

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ageBoundsFor,
  createClient,
  createPagedList,
  createSearchStore,
  FILTER_TEXT_KEY,
  genderChoices,
  searchQuery,
  type FilterStorage,
  type PublicProfile,
} from '../../lib/sdk';
import { sendEnvelope, startApiServer, type ApiServer } from './support/api-server';
import { profile } from './support/profiles';

let server: ApiServer;
/** How many creators the fake directory holds; each test sets it. */
let directorySize = 0;

function people(from: number, count: number): PublicProfile[] {
  return Array.from({ length: Math.max(0, count) }, (_, i) => profile({ id: from + i + 1, username: `creator${from + i + 1}`, displayName: `Creator ${from + i + 1}` }));
}

function queryOf(url: string): URLSearchParams {
  return new URL(url, 'http://x').searchParams;
}

beforeAll(async () => {
  server = await startApiServer();
  const page = (url: string) => {
    const q = queryOf(url);
    const offset = Number(q.get('offset') ?? 0);
    const limit = Number(q.get('limit') ?? 30);
    return people(offset, Math.min(limit, directorySize - offset));
  };
  server.on('/papi/discover/search', (req, res) => sendEnvelope(res, { statusCode: 2, body: page(req.url) }));
  server.on('/papi/discover/active-users', (req, res) => sendEnvelope(res, { statusCode: 2, body: page(req.url) }));
  server.on('/papi/who-to-follow', (req, res) => sendEnvelope(res, { statusCode: 2, body: page(req.url) }));
  server.on('/papi/search/tips', (_req, res) => sendEnvelope(res, { statusCode: 2, body: { users: people(0, 6), tags: [{ tag: 'sunset', count: 4 }, { tag: 'sun', count: 2 }, { tag: 'sunday', count: 1 }] } }));
  server.on('/papi/search/tags', (_req, res) => sendEnvelope(res, { statusCode: 2, body: [{ tag: 'sunset', count: 4 }] }));
});

afterAll(() => server.close());

function memoryStorage(): FilterStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

function requests(path: string) {
  return server.requests.filter((r) => r.url.split('?')[0] === path);
}

describe('the discover search query', () => {
  it('sends no filter field that was not set', () => {
    expect(searchQuery({ tab: 'activeusers', filter: {}, loggedIn: false })).toEqual({ tab: 'activeusers', limit: 30 });
    expect(searchQuery({ tab: 'teens', filter: { hair: undefined, hasBadge: false }, text: '  ', loggedIn: true })).toEqual({ tab: 'teens', limit: 30 });
  });

  it('sends the fields that were set, the free text and the offset', () => {
    expect(searchQuery({ tab: 'hasBadge', filter: { hair: 2, bigBoobs: true, age_gte: 21 }, text: ' lucy ', loggedIn: false, offset: 30 })).toEqual({
      tab: 'hasBadge',
      hair: 2,
      bigBoobs: true,
      age_gte: 21,
      age_lte: 42,
      q: 'lucy',
      offset: 30,
      limit: 30,
    });
  });

  it('starts the age range at 18–42, teens at 18–25 and milf at 30–50, and leaves a tab’s own range out', () => {
    expect(ageBoundsFor('activeusers')).toEqual({ min: 18, max: 42 });
    expect(ageBoundsFor('teens')).toEqual({ min: 18, max: 25 });
    expect(ageBoundsFor('milf')).toEqual({ min: 30, max: 50 });
    expect(searchQuery({ tab: 'milf', filter: { age_gte: 30, age_lte: 50 }, loggedIn: false })).toEqual({ tab: 'milf', limit: 30 });
    // A moved range is sent whole: both of its ends.
    expect(searchQuery({ tab: 'milf', filter: { age_gte: 30, age_lte: 45 }, loggedIn: false })).toEqual({ tab: 'milf', age_gte: 30, age_lte: 45, limit: 30 });
    expect(searchQuery({ tab: 'hasBadge', filter: { age_gte: 25 }, loggedIn: false })).toEqual({ tab: 'hasBadge', age_gte: 25, age_lte: 42, limit: 30 });
  });

  it('offers gender 0 (everyone) only to a logged-in viewer and never sends it for a visitor', () => {
    expect(genderChoices(false)).toEqual([1, 2, 3, 4]);
    expect(genderChoices(true)).toEqual([0, 1, 2, 3, 4]);
    expect(searchQuery({ tab: 'boobs', filter: { gender: 0 }, loggedIn: false })).toEqual({ tab: 'boobs', limit: 30 });
    expect(searchQuery({ tab: 'boobs', filter: { gender: 0 }, loggedIn: true })).toEqual({ tab: 'boobs', gender: 0, limit: 30 });
  });
});

describe('user lists', () => {
  it('end when a page comes back short', async () => {
    directorySize = 12;
    const store = createSearchStore(createClient({ baseUrl: server.baseUrl }), { storage: null });
    const list = store.users('teens');
    await list.start();
    expect(list.items.value).toHaveLength(12);
    expect(list.status.value).toBe('ended');
    expect(list.canLoadMore.value).toBe(false);
    const before = requests('/papi/discover/search').length;
    await list.nextPage();
    expect(requests('/papi/discover/search')).toHaveLength(before);
  });

  it('fetch nothing when the next page is asked for with 30 or more loaded', async () => {
    directorySize = 100;
    const store = createSearchStore(createClient({ baseUrl: server.baseUrl }), { storage: null });
    const list = store.users('hasBadge');
    await list.start();
    expect(list.items.value).toHaveLength(30);
    expect(list.status.value).toBe('ready');
    expect(list.canLoadMore.value).toBe(false);
    const before = requests('/papi/discover/search').length;
    await list.nextPage();
    expect(requests('/papi/discover/search')).toHaveLength(before);
    expect(list.items.value).toHaveLength(30);
  });

  it('page on below 30: who to follow loads 15, then 15 more, then stops', async () => {
    directorySize = 100;
    const store = createSearchStore(createClient({ baseUrl: server.baseUrl }), { storage: null });
    const list = store.whoToFollow();
    await list.start();
    expect(list.items.value.map((p) => p.id)).toEqual(people(0, 15).map((p) => p.id));
    await list.nextPage();
    expect(list.items.value).toHaveLength(30);
    expect(queryOf(requests('/papi/who-to-follow').at(-1)!.url).get('offset')).toBe('15');
    const before = requests('/papi/who-to-follow').length;
    await list.nextPage();
    expect(requests('/papi/who-to-follow')).toHaveLength(before);
  });

  it('use the active-users list until a filter is set, then search with the tab', async () => {
    directorySize = 3;
    const store = createSearchStore(createClient({ baseUrl: server.baseUrl }), { storage: null });
    await store.users('activeusers').start();
    expect(requests('/papi/discover/active-users').length).toBeGreaterThan(0);
    store.setFilter({ hasBadge: true, hair: undefined });
    expect(store.filter.value).toEqual({ hasBadge: true });
    await store.users('activeusers').start();
    const sent = queryOf(requests('/papi/discover/search').at(-1)!.url);
    expect(Object.fromEntries(sent)).toEqual({ tab: 'activeusers', hasBadge: 'true', limit: '30' });
  });

  it('keep going until a short page when uncapped', async () => {
    let served = 0;
    const list = createPagedList<number>({
      pageSize: 5,
      fetchPage: async ({ offset, limit }) => {
        served += 1;
        return Array.from({ length: Math.min(limit, 12 - offset) }, (_, i) => offset + i);
      },
    });
    await list.start();
    await list.nextPage();
    expect(list.status.value).toBe('ready');
    await list.nextPage();
    expect(list.items.value).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(list.status.value).toBe('ended');
    await list.nextPage();
    expect(served).toBe(3);
  });
});

describe('the free-text filter', () => {
  it('is kept in local storage as fltr and read back by the next store', () => {
    const storage = memoryStorage();
    const store = createSearchStore(createClient({ baseUrl: server.baseUrl }), { storage });
    store.setFilterText('rivers');
    expect(storage.map.get(FILTER_TEXT_KEY)).toBe('rivers');
    expect(store.filterActive.value).toBe(true);
    const again = createSearchStore(createClient({ baseUrl: server.baseUrl }), { storage });
    expect(again.filterText.value).toBe('rivers');
    again.resetFilters();
    expect(storage.map.has(FILTER_TEXT_KEY)).toBe(false);
    expect(again.filterActive.value).toBe(false);
  });

  it('goes into the search query as q when no query is given', async () => {
    directorySize = 1;
    const storage = memoryStorage();
    storage.setItem(FILTER_TEXT_KEY, 'lucy');
    const store = createSearchStore(createClient({ baseUrl: server.baseUrl }), { storage });
    await store.users('teens').start();
    expect(queryOf(requests('/papi/discover/search').at(-1)!.url).get('q')).toBe('lucy');
    await store.users('teens', 'marek').start();
    expect(queryOf(requests('/papi/discover/search').at(-1)!.url).get('q')).toBe('marek');
  });
});

describe('the quick search', () => {
  it('starts at best and shows at most 8 results, creators first', async () => {
    const store = createSearchStore(createClient({ baseUrl: server.baseUrl }), { storage: null });
    expect(store.quick.tab.value).toBe('best');
    await store.quick.search('sun');
    const results = store.quick.results.value;
    expect(results).toHaveLength(8);
    expect(results.slice(0, 6).every((r) => r.kind === 'user')).toBe(true);
    expect(results.slice(6).map((r) => (r.kind === 'tag' ? r.tag.tag : ''))).toEqual(['sunset', 'sun']);
    await store.quick.setTab('tags');
    expect(store.quick.results.value).toEqual([{ kind: 'tag', tag: { tag: 'sunset', count: 4 } }]);
    store.quick.clear();
    expect(store.quick.tab.value).toBe('best');
    expect(store.quick.results.value).toEqual([]);
  });
});

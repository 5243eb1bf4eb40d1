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
import { startTestServer, type TestServer } from '../support/server';
import { person, post, word } from '../server/support-feeds';

let server: TestServer;
/** Every request the stores of this file sent, in order. */
const sent: URL[] = [];

/** A birthday (YYYY-MM-DD) that makes its holder `years` old today. */
function bornYearsAgo(years: number): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years, date.getUTCMonth(), date.getUTCDate() - 30);
  return date.toISOString().slice(0, 10);
}

/**
 * The directory, kept apart by what each tab looks at: 12 teen women (no badge, never seen; one is Lucy Rivers),
 * 35 verified men without a birthday (3 of them seen lately), and 6 "Sunny" creators whose
 * posts carry the tags #sunset (4), #sun (2) and #sunday (1).
 */
beforeAll(async () => {
  server = await startTestServer({ seed: false });
  const { app } = server;
  for (let i = 0; i < 12; i++) {
    const named = i === 0 ? { displayName: 'Lucy Rivers' } : {};
    await person(app, { gender: 2, birthday: bornYearsAgo(19 + (i % 5)), followersCount: 100 - i, ...named });
  }
  for (let i = 0; i < 35; i++) {
    await person(app, { gender: 1, hasBadge: true, followersCount: 500 - i, lastSeenAt: i < 3 ? new Date(Date.now() - i * 60_000) : null });
  }
  const sunny: number[] = [];
  for (let i = 0; i < 6; i++) sunny.push((await person(app, { gender: 1, displayName: `Sunny ${word('n')}`, followersCount: 10 + i })).id);
  const tagged: string[][] = [['sunset', 'sun', 'sunday'], ['sunset', 'sun'], ['sunset'], ['sunset']];
  for (const [i, tags] of tagged.entries()) await post(app, sunny[i]!, { text: `Light ${i}`, tags });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

function clientOf() {
  const recording: typeof fetch = (input, init) => {
    sent.push(new URL(String(input instanceof Request ? input.url : input)));
    return fetch(input, init);
  };
  return createClient({ baseUrl: server.baseUrl, fetch: recording });
}

/** The same request asked of the server directly: what the store should show. */
async function serverIds(url: string): Promise<number[]> {
  const response = await server.app.inject({ method: 'GET', url });
  return (response.json() as { body: PublicProfile[] }).body.map((p) => p.id);
}

function memoryStorage(): FilterStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

function requests(path: string): URL[] {
  return sent.filter((url) => url.pathname === path);
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
    const store = createSearchStore(clientOf(), { storage: null });
    const list = store.users('teens');
    await list.start();
    expect(list.items.value).toHaveLength(12);
    expect(list.items.value.map((p) => p.id)).toEqual(await serverIds('/papi/discover/search?tab=teens&limit=30'));
    expect(list.status.value).toBe('ended');
    expect(list.canLoadMore.value).toBe(false);
    const before = requests('/papi/discover/search').length;
    await list.nextPage();
    expect(requests('/papi/discover/search')).toHaveLength(before);
  });

  it('fetch nothing when the next page is asked for with 30 or more loaded', async () => {
    const store = createSearchStore(clientOf(), { storage: null });
    const list = store.users('hasBadge');
    await list.start();
    expect(list.items.value).toHaveLength(30);
    expect(list.items.value.every((p) => p.hasBadge)).toBe(true);
    expect(list.status.value).toBe('ready');
    expect(list.canLoadMore.value).toBe(false);
    const before = requests('/papi/discover/search').length;
    await list.nextPage();
    expect(requests('/papi/discover/search')).toHaveLength(before);
    expect(list.items.value).toHaveLength(30);
  });

  it('page on below 30: who to follow loads 15, then 15 more, then stops', async () => {
    const expected = await serverIds('/papi/who-to-follow?limit=30');
    expect(expected).toHaveLength(30);
    const store = createSearchStore(clientOf(), { storage: null });
    const list = store.whoToFollow();
    await list.start();
    expect(list.items.value.map((p) => p.id)).toEqual(expected.slice(0, 15));
    await list.nextPage();
    expect(list.items.value.map((p) => p.id)).toEqual(expected);
    expect(requests('/papi/who-to-follow').at(-1)!.searchParams.get('offset')).toBe('15');
    const before = requests('/papi/who-to-follow').length;
    await list.nextPage();
    expect(requests('/papi/who-to-follow')).toHaveLength(before);
  });

  it('use the active-users list until a filter is set, then search with the tab', async () => {
    const seenLately = await serverIds('/papi/discover/active-users');
    expect(seenLately).toHaveLength(3);
    const store = createSearchStore(clientOf(), { storage: null });
    const active = store.users('activeusers');
    await active.start();
    expect(requests('/papi/discover/active-users').length).toBeGreaterThan(0);
    expect(active.items.value.map((p) => p.id)).toEqual(seenLately);
    store.setFilter({ hasBadge: true, hair: undefined });
    expect(store.filter.value).toEqual({ hasBadge: true });
    const filtered = store.users('activeusers');
    await filtered.start();
    expect(filtered.items.value.map((p) => p.id)).toEqual(seenLately);
    const query = requests('/papi/discover/search').at(-1)!.searchParams;
    expect(Object.fromEntries(query)).toEqual({ tab: 'activeusers', hasBadge: 'true', limit: '30' });
  });

  it('page the people of a search from the quick search’s own search, fans and creators alike', async () => {
    const store = createSearchStore(clientOf(), { storage: null });
    const people = store.people('  sunny ', 4);
    await people.start();
    await people.nextPage();
    expect(people.items.value.map((p) => p.id)).toEqual(await serverIds('/papi/search/users?q=sunny&limit=6'));
    const asked = requests('/papi/search/users').slice(-2).map((url) => Object.fromEntries(url.searchParams));
    expect(asked).toEqual([
      { q: 'sunny', limit: '4' },
      { q: 'sunny', limit: '4', offset: '4' },
    ]);
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
    const store = createSearchStore(clientOf(), { storage });
    store.setFilterText('rivers');
    expect(storage.map.get(FILTER_TEXT_KEY)).toBe('rivers');
    expect(store.filterActive.value).toBe(true);
    const again = createSearchStore(clientOf(), { storage });
    expect(again.filterText.value).toBe('rivers');
    again.resetFilters();
    expect(storage.map.has(FILTER_TEXT_KEY)).toBe(false);
    expect(again.filterActive.value).toBe(false);
  });

  it('goes into the search query as q when no query is given', async () => {
    const storage = memoryStorage();
    storage.setItem(FILTER_TEXT_KEY, 'lucy');
    const store = createSearchStore(clientOf(), { storage });
    const lucy = store.users('teens');
    await lucy.start();
    expect(requests('/papi/discover/search').at(-1)!.searchParams.get('q')).toBe('lucy');
    expect(lucy.items.value.map((p) => p.displayName)).toEqual(['Lucy Rivers']);
    const marek = store.users('teens', 'marek');
    await marek.start();
    expect(requests('/papi/discover/search').at(-1)!.searchParams.get('q')).toBe('marek');
    expect(marek.items.value).toEqual([]);
  });
});

describe('the quick search', () => {
  it('starts at best and shows at most 8 results, creators first', async () => {
    const store = createSearchStore(clientOf(), { storage: null });
    expect(store.quick.tab.value).toBe('best');
    await store.quick.search('sun');
    const results = store.quick.results.value;
    // The server gives at most 5 people of the 6 Sunny creators, and tags fill up to 8.
    expect(results).toHaveLength(8);
    expect(results.slice(0, 5).map((r) => (r.kind === 'user' ? r.user.displayName.split(' ')[0] : r.kind))).toEqual(Array(5).fill('Sunny'));
    expect(results.slice(5).map((r) => (r.kind === 'tag' ? r.tag.tag : ''))).toEqual(['sunset', 'sun', 'sunday']);
    await store.quick.setTab('tags');
    expect(store.quick.results.value).toEqual([
      { kind: 'tag', tag: { tag: 'sunset', count: 4 } },
      { kind: 'tag', tag: { tag: 'sun', count: 2 } },
      { kind: 'tag', tag: { tag: 'sunday', count: 1 } },
    ]);
    store.quick.clear();
    expect(store.quick.tab.value).toBe('best');
    expect(store.quick.results.value).toEqual([]);
  });
});

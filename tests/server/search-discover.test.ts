import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { block, get, ids, pageThrough, person, post, word, type Person } from './support-feeds';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

/** A birthday making someone exactly `age` today (1 January of the right year). */
const bornAged = (age: number) => `${new Date().getUTCFullYear() - age}-01-01`;

/**
 * People whose display names share a word no other test uses, so a discover search with that
 * word as `q` sees only them.
 */
async function group(size: number, fields: (i: number) => Parameters<typeof person>[1] = () => ({})) {
  const tag = word('grp');
  const people: Person[] = [];
  for (let i = 0; i < size; i++) {
    const f = fields(i) ?? {};
    people.push(await person(app, { displayName: `${tag} ${word('n')}`, followersCount: 1000 - i, ...f }));
  }
  return { q: tag, people, ids: people.map((p) => p.id) };
}

describe('discover search', () => {
  it('finds creators only, the most followed first, never staff, fans, banned or deleted people', async () => {
    const g = await group(8, (i) =>
      [{}, {}, { isSeller: false, isPartner: true }, { isSeller: false }, { level: 100 }, { level: 500 }, { bannedAt: new Date() }, { deletedAt: new Date() }][i],
    );
    expect(await ids(app, `/papi/discover/search?q=${g.q}`)).toEqual(g.ids.slice(0, 3));
  });

  it('applies the tabs’ presets: teens, milf, boobs, blonde and brunette girls, badge', async () => {
    const g = await group(9, (i) =>
      [
        { gender: 2, birthday: bornAged(19), hair: 1 },
        { gender: 2, birthday: bornAged(25), hair: 2, bigBoobs: true },
        { gender: 2, birthday: bornAged(26) },
        { gender: 2, birthday: bornAged(30), hasBadge: true },
        { gender: 2, birthday: bornAged(50), hair: 1, bigBoobs: true },
        { gender: 2, birthday: bornAged(51) },
        { gender: 1, birthday: bornAged(20), hair: 1, hasBadge: true },
        { gender: 2 },
        { gender: 1, bigBoobs: true },
      ][i],
    );
    const [a19, b25, c26, d30, e50, , m20, , m] = g.ids;
    const tab = (name: string, extra = '') => ids(app, `/papi/discover/search?q=${g.q}&tab=${name}${extra}`);
    expect(await tab('teens')).toEqual([a19, b25]);
    expect(await tab('milf')).toEqual([d30, e50]);
    expect(await tab('boobs')).toEqual([b25, e50, m]);
    expect(await tab('blonde-girls')).toEqual([a19, e50]);
    expect(await tab('brunette-girls')).toEqual([b25]);
    expect(await tab('hasBadge')).toEqual([d30, m20]);
    expect(await tab('teens', '&age_gte=20')).toEqual([b25]);
    expect(await ids(app, `/papi/discover/search?q=${g.q}&age_gte=25&age_lte=30`)).toEqual([b25, c26, d30]);
    expect(await ids(app, `/papi/discover/search?q=${g.q}&gender=2`)).toEqual([m20, m]);
    expect(await ids(app, `/papi/discover/search?q=${g.q}&gender=2&hair=1&hasBadge=true`)).toEqual([m20]);
    expect((await get(app, `/papi/discover/search?tab=nope`)).status).toBe(400);
    expect((await get(app, `/papi/discover/search?age_gte=17`)).status).toBe(400);
  });

  it('leaves out the viewer and people blocked either way', async () => {
    const g = await group(4);
    const [me, blockedByMe, blockingMe, other] = g.people;
    await block(app, me!.id, blockedByMe!.id);
    await block(app, blockingMe!.id, me!.id);
    expect(await ids(app, `/papi/discover/search?q=${g.q}`, me)).toEqual([other!.id]);
    expect(await ids(app, `/papi/discover/search?q=${g.q}`)).toEqual(g.ids);
  });

  it('pages by 30 and ends on a short page, or an empty one after exactly 30', async () => {
    const g = await group(31);
    const pages = await pageThrough(app, (c) => `/papi/discover/search?q=${g.q}&offset=${c.offset}`, 30, { by: 'offset' });
    expect(pages.sizes).toEqual([30, 1]);
    expect(pages.all).toEqual(g.ids);
    const h = await group(30);
    expect((await pageThrough(app, (c) => `/papi/discover/search?q=${h.q}&offset=${c.offset}`, 30, { by: 'offset' })).sizes).toEqual([30, 0]);
  });

  it('orders the active-users tab by last seen and the new-posts tab by the latest post', async () => {
    const now = Date.now();
    const g = await group(3, (i) => ({ lastSeenAt: new Date(now - [5, 1, 3][i]! * 60_000) }));
    await person(app, { displayName: `${g.q} never`, lastSeenAt: null });
    const [a, b, c] = g.ids;
    expect(await ids(app, `/papi/discover/search?q=${g.q}&tab=activeusers`)).toEqual([b, c, a]);
    await post(app, a!, { publishedAt: new Date(now - 1000) });
    await post(app, c!, { publishedAt: new Date(now - 5000) });
    await post(app, b!, { publishedAt: new Date(now + 3_600_000) });
    expect(await ids(app, `/papi/discover/search?q=${g.q}&tab=newposts`)).toEqual([a, c]);
    const active = await ids(app, '/papi/discover/active-users?limit=50');
    expect(active.filter((id) => g.ids.includes(id))).toEqual([b, c, a]);
  });
});

describe('discover new posts', () => {
  it('lists the newest posts with media, 30 a page, ending on a short page', async () => {
    const creator = await person(app);
    const top = Date.UTC(2025, 0, 1);
    const expected: number[] = [];
    for (let i = 0; i < 44; i++) {
      const p = await post(app, creator.id, { publishedAt: new Date(top - i * 60_000), media: i % 4 === 3 ? 0 : 1 });
      if (i % 4 !== 3) expected.push(p.id);
    }
    const pages = await pageThrough(app, (c) => `/papi/discover/new-posts?ts=${c.ts ?? top + 1}`, 30, { by: 'ts' });
    expect(pages.all).toEqual(expected);
    expect(pages.sizes).toEqual([30, 3]);
  });
});

describe('search', () => {
  it('finds people by the starts of the words of their username and display name', async () => {
    const first = word('fn');
    const last = word('ln');
    const lucy = await person(app, { displayName: `${first} ${last}`, followersCount: 10 });
    const lucas = await person(app, { username: `${first}.x${word()}`, displayName: 'Someone', followersCount: 20 });
    await person(app, { displayName: `${first} gone`, deletedAt: new Date() });
    await person(app, { displayName: `${first} boss`, level: 500 });
    const fan = await person(app, { displayName: `${first} fan`, isSeller: false, followersCount: 0 });

    expect(await ids(app, `/papi/search/users?q=${first.slice(0, 5)}`)).toEqual([lucas.id, lucy.id, fan.id]);
    expect(await ids(app, `/papi/search/users?q=${encodeURIComponent(`${first.slice(0, 4)} ${last.slice(0, 4).toUpperCase()}`)}`)).toEqual([lucy.id]);
    expect(await ids(app, `/papi/search/users?q=${lucas.username.slice(0, first.length + 2)}`)).toEqual([lucas.id]);
    expect(await ids(app, `/papi/search/users?q=${first}`, lucy)).toEqual([lucas.id, fan.id]);
    await block(app, fan.id, lucy.id);
    expect(await ids(app, `/papi/search/users?q=${first}`, lucy)).toEqual([lucas.id]);
  });

  it('takes any text as a search without failing', async () => {
    for (const q of ["'", "a'b", '\\', '& | ! :*', '((', 'a:*b', '<->', '"', "' or 1=1 --", '%', '   ', '', 'x'.repeat(100), 'ž', '#']) {
      for (const path of ['users', 'tips', 'tags', 'posts']) {
        const answer = await get(app, `/papi/search/${path}?q=${encodeURIComponent(q)}`);
        expect([answer.status, answer.json.statusCode], `${path} ${q}`).toEqual([200, 2]);
      }
    }
    expect((await get(app, `/papi/search/users?q=${'x'.repeat(101)}`)).status).toBe(400);
    expect((await get(app, '/papi/search/users')).status).toBe(400);
  });

  it('suggests tags by prefix with the number of visible posts carrying them', async () => {
    const stem = word('st');
    const creator = await person(app);
    const past = new Date(Date.now() - 60_000);
    for (let i = 0; i < 3; i++) await post(app, creator.id, { publishedAt: past, tags: [`${stem}a`] });
    await post(app, creator.id, { publishedAt: past, tags: [`${stem}b`] });
    await post(app, creator.id, { publishedAt: past, tags: [`${stem}b`], deletedAt: new Date() });
    await post(app, creator.id, { publishedAt: new Date(Date.now() + 3_600_000), tags: [`${stem}c`] });
    const tags = (await get(app, `/papi/search/tags?q=%23${stem.toUpperCase()}`)).json.body;
    expect(tags).toEqual([
      { tag: `${stem}a`, count: 3 },
      { tag: `${stem}b`, count: 1 },
    ]);
    expect((await get(app, `/papi/search/tags?q=${stem}b`)).json.body).toEqual([{ tag: `${stem}b`, count: 1 }]);
  });

  it('gives at most 8 tips: people first, tags fill the rest', async () => {
    const stem = word('tp');
    for (let i = 0; i < 6; i++) await person(app, { displayName: `${stem}${i}` });
    const creator = await person(app);
    for (let i = 0; i < 5; i++) await post(app, creator.id, { publishedAt: new Date(Date.now() - 60_000), tags: [`${stem}${i}`] });
    const tips = (await get(app, `/papi/search/tips?q=${stem}`)).json.body;
    expect(tips.users).toHaveLength(5);
    expect(tips.tags).toHaveLength(3);
    const few = (await get(app, `/papi/search/tips?q=${stem}4`)).json.body;
    expect([few.users.length, few.tags.length]).toEqual([1, 1]);
  });

  it('finds posts by their words, newest first, 15 a page, ending on a short page', async () => {
    const term = word('pw');
    const creator = await person(app);
    const top = Date.UTC(2024, 0, 1);
    const expected: number[] = [];
    for (let i = 0; i < 17; i++) expected.push((await post(app, creator.id, { publishedAt: new Date(top - i * 60_000), text: `Look at ${term.toUpperCase()} number ${i}` })).id);
    await post(app, creator.id, { publishedAt: new Date(top), text: `${term} deleted`, deletedAt: new Date() });
    await post(app, creator.id, { publishedAt: new Date(Date.now() + 3_600_000), text: `${term} scheduled` });
    const banned = await person(app, { bannedAt: new Date() });
    await post(app, banned.id, { publishedAt: new Date(top), text: term });

    const pages = await pageThrough(app, (c) => `/papi/search/posts?q=${term}${c.ts === undefined ? '' : `&ts=${c.ts}`}`, 15, { by: 'ts' });
    expect(pages.all).toEqual(expected);
    expect(pages.sizes).toEqual([15, 2]);
    expect(await ids(app, `/papi/search/posts?q=${encodeURIComponent(`"${term} number 3"`)}`)).toEqual([expected[3]]);
    expect(await ids(app, `/papi/search/posts?q=${encodeURIComponent(`${term} -number`)}`)).toEqual([]);
    const reader = await person(app, { isSeller: false });
    await block(app, reader.id, creator.id);
    expect(await ids(app, `/papi/search/posts?q=${term}`, reader)).toEqual([]);
  });
});

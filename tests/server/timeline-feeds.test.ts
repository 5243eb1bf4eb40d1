import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { follows, posts } from '../../server/src/db/schema';
import { eq } from '../support/db';
import { privateLateralMaxAuthors } from '../../server/src/features/timeline/domain';
import { compressionThreshold } from '../../server/src/http/compression';
import { block, follow, get, hide, ids, pageThrough, person, post, unlock, word } from './support-feeds';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

/**
 * Every test publishes its posts in a window of time older than the previous test's, so a
 * list read from the top of a test's window holds that test's posts and nothing newer.
 */
let windowTop = Date.UTC(2026, 0, 1);
function timeWindow() {
  windowTop -= 30 * 86_400_000;
  const top = windowTop;
  return { ts: top + 1, at: (minutesBefore: number) => new Date(top - minutesBefore * 60_000) };
}

const minute = 60_000;

describe('the public timeline', () => {
  it('shows visitors the published posts of women creators newest first, 15 a page, ending on a short page', async () => {
    const w = timeWindow();
    const [anna, bea, carl] = [await person(app, { gender: 2 }), await person(app, { gender: 2 }), await person(app, { gender: 1 })];
    const women: number[] = [];
    for (let i = 0; i < 20; i++) women.push((await post(app, i % 2 ? anna.id : bea.id, { publishedAt: w.at(i), text: `post ${i}` })).id);
    const men: number[] = [];
    for (let i = 0; i < 3; i++) men.push((await post(app, carl.id, { publishedAt: w.at(100 + i) })).id);
    // None of these may show: deleted, scheduled, by a banned and by a deleted author.
    await post(app, anna.id, { publishedAt: w.at(0.5), deletedAt: new Date() });
    await post(app, anna.id, { publishedAt: new Date(Date.now() + 3_600_000) });
    const banned = await person(app, { gender: 2, bannedAt: new Date() });
    await post(app, banned.id, { publishedAt: w.at(1.5) });
    const gone = await person(app, { gender: 2, deletedAt: new Date() });
    await post(app, gone.id, { publishedAt: w.at(2.5) });

    const byTs = await pageThrough(app, (c) => `/papi/2/timeline?${c.ts === undefined ? '' : `ts=${c.ts}`}`, 15, { by: 'ts' });
    expect(byTs.all).toEqual(women);
    expect(byTs.sizes).toEqual([15, 5]);
    const byOffset = await pageThrough(app, (c) => `/papi/2/timeline?gender=1&offset=${c.offset}`, 15, { by: 'offset' });
    expect(byOffset.all).toEqual(women);

    expect(await ids(app, '/papi/2/timeline?gender=2')).toEqual(men);
    expect(await ids(app, '/papi/2/timeline?gender=3')).toEqual([]);
    expect(await ids(app, '/papi/2/timeline?gender=4&limit=50')).toEqual([]);

    const raw = await app.inject({ method: 'GET', url: '/papi/2/timeline?limit=1' });
    expect(raw.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(raw.headers.apiversion).toBe('1.0');
    const answer = await get(app, '/papi/2/timeline?limit=1');
    expect(answer.json.body[0]).toMatchObject({ id: women[0], text: 'post 0', user: { id: bea.id, isFollowed: false }, isMy: false, startDate: null, ts: w.at(0).getTime() });
  });

  it('lets only logged-in people see everyone with gender 0', async () => {
    const visitor = await get(app, '/papi/2/timeline?gender=0');
    expect([visitor.status, visitor.json.statusCode, visitor.json.statusText]).toEqual([400, -1, 'invalid-request']);
    const fan = await person(app, { isSeller: false, gender: 1 });
    const everyone = await ids(app, '/papi/2/timeline?gender=0&limit=50', fan);
    const women = await ids(app, '/papi/2/timeline?gender=1&limit=50', fan);
    const men = await ids(app, '/papi/2/timeline?gender=2&limit=50', fan);
    expect(new Set(everyone)).toEqual(new Set([...women, ...men]));
    expect(everyone.length).toBe(23);
    expect((await get(app, '/papi/2/timeline?gender=5')).status).toBe(400);
  });

  it('hides people the viewer blocked, who blocked the viewer, or whom the viewer hid', async () => {
    const w = timeWindow();
    const [blocked, blocker, hidden, shown] = await Promise.all([1, 2, 3, 4].map(() => person(app)));
    const mine = new Map<number, number>();
    for (const [i, author] of [blocked!, blocker!, hidden!, shown!].entries()) mine.set((await post(app, author.id, { publishedAt: w.at(i) })).id, author.id);
    const viewer = await person(app, { isSeller: false });
    await block(app, viewer.id, blocked!.id);
    await block(app, blocker!.id, viewer.id);
    await hide(app, viewer.id, hidden!.id);
    const seen = (await ids(app, `/papi/2/timeline?ts=${w.ts}&limit=50`, viewer)).filter((id) => mine.has(id));
    expect(seen.map((id) => mine.get(id))).toEqual([shown!.id]);
    // A visitor sees all four.
    expect((await ids(app, `/papi/2/timeline?ts=${w.ts}&limit=50`)).filter((id) => mine.has(id))).toHaveLength(4);
  });

  it('sends a visitor’s held page compressed as each request accepts, the same page decoded', async () => {
    const w = timeWindow();
    const author = await person(app, { gender: 2 });
    for (let i = 0; i < 15; i++) await post(app, author.id, { publishedAt: w.at(i), text: `a held page, post ${i}` });
    const url = `/papi/2/timeline?ts=${w.ts}`;
    const plain = await app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(compressionThreshold);
    expect(String(plain.headers.vary)).toMatch(/Accept-Encoding/);
    for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
      // Twice each: the second is the page held in its compressed form.
      for (const round of [1, 2]) {
        const answer = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
        expect(answer.headers['content-encoding'], `${encoding} ${round}`).toBe(encoding);
        expect(answer.headers['content-type'], `${encoding} ${round}`).toMatch(/^application\/json/);
        expect(String(answer.headers.vary), `${encoding} ${round}`).toMatch(/Accept-Encoding/);
        expect(decode(answer.rawPayload).toString(), `${encoding} ${round}`).toBe(plain.payload);
        expect(answer.rawPayload.length, `${encoding} ${round}`).toBeLessThan(plain.rawPayload.length / 2);
      }
    }
  });
});

describe('the private timeline', () => {
  it('holds the viewer’s own posts and those of the people they follow, and ends with an empty page after exactly 15', async () => {
    const w = timeWindow();
    const [me, followed, stranger] = [await person(app), await person(app), await person(app)];
    await follow(app, me.id, followed.id);
    const expected: number[] = [];
    for (let i = 0; i < 15; i++) expected.push((await post(app, i < 3 ? me.id : followed.id, { publishedAt: w.at(i) })).id);
    await post(app, stranger.id, { publishedAt: w.at(0.5) });
    const scheduled = await post(app, me.id, { publishedAt: new Date(Date.now() + 86_400_000) });

    const pages = await pageThrough(app, (c) => `/api/2/timeline${c.ts === undefined ? '' : `?ts=${c.ts}`}`, 15, { by: 'ts', who: me });
    expect(pages.all).toEqual(expected);
    expect(pages.sizes).toEqual([15, 0]);
    expect(pages.all).not.toContain(scheduled.id);
    expect(await ids(app, '/api/2/timeline?offset=10&limit=10', me)).toEqual(expected.slice(10));

    const first = (await get(app, '/api/2/timeline?limit=4', me)).json.body;
    expect(first.map((p: { isMy: boolean }) => p.isMy)).toEqual([true, true, true, false]);
    expect(first[3].user.isFollowed).toBe(true);
    expect((await get(app, '/api/2/timeline')).status).toBe(401);
  });
  it('pages the same for someone following more people than the per-author merge takes', async () => {
    const w = timeWindow();
    const me = await person(app, { isSeller: false });
    const followed = [];
    for (let i = 0; i < privateLateralMaxAuthors + 1; i++) followed.push(await person(app));
    await app.fanstage.db.insert(follows).values(followed.map((f) => ({ followerId: me.id, followedId: f.id })));
    const expected: number[] = [];
    for (let i = 0; i < 17; i++) expected.push((await post(app, followed[(i * 37) % followed.length]!.id, { publishedAt: w.at(i) })).id);
    const pages = await pageThrough(app, (c) => `/api/2/timeline${c.ts === undefined ? '' : `?ts=${c.ts}`}`, 15, { by: 'ts', who: me });
    expect(pages.all).toEqual(expected);
    expect(pages.sizes).toEqual([15, 2]);
    expect(await ids(app, '/api/2/timeline?offset=15', me)).toEqual(expected.slice(15));
  });

  it('merges a busy author with quiet ones at any offset: each page is the one the whole list sorted would give', async () => {
    const w = timeWindow();
    const me = await person(app);
    const [busy, blocked, ...quiet] = [await person(app), await person(app), await person(app), await person(app), await person(app), await person(app)];
    for (const other of [busy, blocked, ...quiet]) await follow(app, me.id, other.id);
    await block(app, me.id, blocked.id);
    const all: { id: number; at: number }[] = [];
    const add = async (userId: number, minutesBefore: number) => {
      const { id } = await post(app, userId, { publishedAt: w.at(minutesBefore) });
      all.push({ id, at: minutesBefore });
    };
    // The busy author posts forty times in the newest hour, the quiet ones a few times a day,
    // some at the very minute of another (the id orders those); the viewer twice.
    for (let i = 0; i < 40; i++) await add(busy.id, i * 1.5);
    for (const [n, author] of quiet.entries()) for (let d = 0; d < 4; d++) await add(author.id, d * 600 + n * 15);
    await add(me.id, 30);
    await add(me.id, 3000);
    await post(app, blocked.id, { publishedAt: w.at(1) });
    await post(app, busy.id, { publishedAt: w.at(0.5), deletedAt: new Date() });
    await post(app, quiet[0]!.id, { publishedAt: new Date(Date.now() + 86_400_000) });
    const expected = all.sort((a, b) => a.at - b.at || b.id - a.id).map((p) => p.id);
    expect(expected).toHaveLength(58);

    // Counted from the top, newest and before a moment (every page here is asked once, so
    // none starts after a page served before).
    const asked = [[0, 15], [0, 5], [3, 20], [15, 15], [30, 15], [39, 2], [45, 15], [57, 10], [58, 15], [0, 50], [8, 50]] as const;
    for (const [i, [offset, limit]] of asked.entries()) {
      const url = `/api/2/timeline?offset=${offset}&limit=${limit}${i % 2 ? `&ts=${w.ts}` : ''}`;
      expect(await ids(app, url, me), url).toEqual(expected.slice(offset, offset + limit));
    }
  });

  it('starts the page after one it served where that one ended: a post published between them repeats nothing, a vanished post falls back to the offset', async () => {
    const w = timeWindow();
    const [me, followed] = [await person(app), await person(app)];
    await follow(app, me.id, followed.id);
    const expected: number[] = [];
    for (let i = 0; i < 20; i++) expected.push((await post(app, followed.id, { publishedAt: w.at(i + 1) })).id);
    const profile = `/papi/2/posts?username=${followed.username}&limit=5`;
    expect(await ids(app, '/api/2/timeline?limit=5', me)).toEqual(expected.slice(0, 5));
    expect(await ids(app, profile, me)).toEqual(expected.slice(0, 5));

    // Counting offset 5 again would show the fifth post twice; both lists go on after it.
    const newer = await post(app, followed.id, { publishedAt: w.at(0) });
    expect(await ids(app, '/api/2/timeline?limit=5&offset=5', me)).toEqual(expected.slice(5, 10));
    expect(await ids(app, `${profile}&offset=5`, me)).toEqual(expected.slice(5, 10));
    // Counted from the top (no page ended at 3), the list has the new post first.
    expect(await ids(app, '/api/2/timeline?limit=5&offset=3', me)).toEqual(expected.slice(2, 7));
    expect(await ids(app, '/api/2/timeline?limit=1&offset=0&ts=' + (w.ts + 1), me)).toEqual([newer.id]);

    // The post a cursor points at is gone for good: the offset answers, as it always did.
    await app.fanstage.db.delete(posts).where(eq(posts.id, expected[9]!));
    expect(await ids(app, `${profile}&offset=10`, me)).toEqual(expected.slice(10, 15));
  });
});

describe('a profile’s posts', () => {
  it('lists the published posts by username or id, and the grid only those with media', async () => {
    const w = timeWindow();
    const owner = await person(app);
    const withMedia = (await post(app, owner.id, { publishedAt: w.at(1), media: 2, price: 320 })).id;
    const textOnly = (await post(app, owner.id, { publishedAt: w.at(2) })).id;
    await post(app, owner.id, { publishedAt: w.at(0), deletedAt: new Date() });
    await post(app, owner.id, { publishedAt: new Date(Date.now() + minute * 60), media: 1 });

    expect(await ids(app, `/papi/2/posts?username=${owner.username.toUpperCase()}`)).toEqual([withMedia, textOnly]);
    expect(await ids(app, `/papi/2/posts?username=${owner.username}`, owner)).toEqual([withMedia, textOnly]);
    expect(await ids(app, `/papi/posts/media/timeline/${owner.id}`)).toEqual([withMedia]);
    expect(await ids(app, `/api/posts/media/timeline/${owner.username}`, owner)).toEqual([withMedia]);

    const seen = (await get(app, `/papi/posts/media/timeline/${owner.username}`)).json.body[0];
    expect(seen.media).toHaveLength(2);
    expect(seen.media[0]).toMatchObject({ mediaPrice: 320, mediaUnlockHash: null });
    const own = (await get(app, `/papi/posts/media/timeline/${owner.username}`, owner)).json.body[0];
    expect(own.media[0].mediaUnlockHash).not.toBeNull();
    expect(own.isMy).toBe(true);
  });

  it('is empty between people who blocked each other and user-not-found for nobody', async () => {
    const w = timeWindow();
    const owner = await person(app);
    await post(app, owner.id, { publishedAt: w.at(1), media: 1 });
    const blocked = await person(app, { isSeller: false });
    await block(app, owner.id, blocked.id);
    expect(await ids(app, `/papi/2/posts?username=${owner.username}`, blocked)).toEqual([]);
    expect(await ids(app, `/papi/posts/media/timeline/${owner.username}`, blocked)).toEqual([]);
    for (const url of ['/papi/2/posts?username=nobody.here', '/papi/posts/media/timeline/nobody.here', '/papi/2/posts?username=bad%20name']) {
      const answer = await get(app, url);
      expect([answer.status, answer.json.statusText], url).toEqual([404, 'user-not-found']);
    }
  });
});

describe('scheduled and unlocked posts', () => {
  it('shows the owner their scheduled posts, the next to go live first, and nobody else', async () => {
    const owner = await person(app);
    const soon = Date.now() + 3_600_000;
    const later = (await post(app, owner.id, { publishedAt: new Date(soon + 2 * minute) })).id;
    const first = (await post(app, owner.id, { publishedAt: new Date(soon) })).id;
    const second = (await post(app, owner.id, { publishedAt: new Date(soon + minute) })).id;
    await post(app, owner.id, { publishedAt: new Date(soon), deletedAt: new Date() });

    const list = (await get(app, '/api/scheduled-posts', owner)).json.body;
    expect(list.map((p: { id: number }) => p.id)).toEqual([first, second, later]);
    expect(list[0].startDate).toBe(soon);
    expect(await ids(app, `/api/scheduled-posts?ts=${soon}`, owner)).toEqual([second, later]);
    expect(await ids(app, '/api/scheduled-posts', await person(app))).toEqual([]);
    expect((await get(app, '/api/scheduled-posts')).status).toBe(401);
  });

  it('lists the posts whose media the viewer unlocked, with the key to open them', async () => {
    const w = timeWindow();
    const creator = await person(app);
    const fan = await person(app, { isSeller: false });
    const a = await post(app, creator.id, { publishedAt: w.at(2), media: 1, price: 320 });
    const b = await post(app, creator.id, { publishedAt: w.at(1), media: 2, price: 640 });
    await post(app, creator.id, { publishedAt: w.at(0), media: 1, price: 320 });
    await unlock(app, fan.id, a.mediaIds[0]!);
    await unlock(app, fan.id, b.mediaIds[1]!);

    const list = (await get(app, '/api/unlocked-posts', fan)).json.body;
    expect(list.map((p: { id: number }) => p.id)).toEqual([b.id, a.id]);
    expect(list[0].media.map((m: { mediaUnlockHash: string | null }) => m.mediaUnlockHash !== null)).toEqual([false, true]);
    expect(await ids(app, `/api/unlocked-posts?ts=${list[0].ts}`, fan)).toEqual([a.id]);
  });
});

describe('the hashtag timeline', () => {
  it('finds tagged posts whatever the case, 30 a page, and ends on a short page', async () => {
    const w = timeWindow();
    const tag = word('tag');
    const creator = await person(app);
    const expected: number[] = [];
    for (let i = 0; i < 31; i++) expected.push((await post(app, creator.id, { publishedAt: w.at(i), tags: [tag] })).id);
    await post(app, creator.id, { publishedAt: w.at(0.5), tags: [tag], deletedAt: new Date() });
    await post(app, creator.id, { publishedAt: new Date(Date.now() + 3_600_000), tags: [tag] });

    const pages = await pageThrough(app, (c) => `/papi/posts/hashtag/${tag.toUpperCase()}${c.ts === undefined ? '' : `?ts=${c.ts}`}`, 30, { by: 'ts' });
    expect(pages.all).toEqual(expected);
    expect(pages.sizes).toEqual([30, 1]);
    expect(await ids(app, `/papi/posts/hashtag/%23${tag}?offset=30`)).toEqual([expected[30]]);
    expect(await ids(app, '/papi/posts/hashtag/nosuchtagever')).toEqual([]);
    for (const bad of ['2024', '...', 'a%20b', 'x'.repeat(65)]) {
      expect((await get(app, `/papi/posts/hashtag/${bad}`)).status, bad).toBe(400);
    }
  });
});

describe('the tour', () => {
  it('draws a handful of recent posts with media and holds the draw', async () => {
    const first = await ids(app, '/papi/posts/media/tour');
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThanOrEqual(7);
    expect(new Set(first).size).toBe(first.length);
    expect(await ids(app, '/papi/posts/media/tour')).toEqual(first);
    const answer = await get(app, '/papi/posts/media/tour?limit=2');
    expect(answer.json.body).toHaveLength(2);
    for (const p of answer.json.body) expect(p.media.length).toBeGreaterThan(0);
    expect((await get(app, '/papi/posts/media/tour?limit=0')).status).toBe(400);
  });
});

describe('online users', () => {
  it('lists creators seen in the last minutes, never the viewer, in a stable shuffle per seed', async () => {
    const now = new Date();
    const online = await Promise.all([0, 1, 2, 3, 4].map((i) => person(app, { lastSeenAt: new Date(now.getTime() - i * 1000) })));
    await person(app, { lastSeenAt: new Date(now.getTime() - 10 * minute) });
    await person(app, { isSeller: false, lastSeenAt: now });
    await person(app, { level: 100, lastSeenAt: now });
    await person(app, { lastSeenAt: now, bannedAt: now });

    const list = (await get(app, '/papi/online-users')).json.body;
    expect(list.map((p: { id: number }) => p.id)).toEqual(online.map((p) => p.id));
    expect(list.every((p: { online: boolean }) => p.online)).toBe(true);
    expect(await ids(app, '/papi/online-users', online[0])).toEqual(online.slice(1).map((p) => p.id));

    const shuffled = await ids(app, '/papi/online-users?seed=42');
    expect(await ids(app, '/papi/online-users?seed=42')).toEqual(shuffled);
    expect(new Set(shuffled)).toEqual(new Set(online.map((p) => p.id)));
    const paged = [...(await ids(app, '/papi/online-users?seed=42&limit=2')), ...(await ids(app, '/papi/online-users?seed=42&limit=2&offset=2')), ...(await ids(app, '/papi/online-users?seed=42&limit=2&offset=4'))];
    expect(paged).toEqual(shuffled);
  });
});

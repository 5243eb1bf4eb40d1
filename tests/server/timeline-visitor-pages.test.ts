import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from '../../server/src/db';
import { startTestServer, type TestServer } from '../support/server';
import { posts } from '../../server/src/db/schema';
import { block, follow, get, ids, person, post, word } from './support-feeds';

/**
 * Visitors' pages of the public timeline and of post search are answered from memory for a
 * moment (server/src/features/timeline/visitor-pages.ts). These check what must never be
 * held: a write on this node shows at once, and a logged-in viewer never gets a visitor's page.
 */
let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

describe('visitors’ pages held in memory', () => {
  it('drop a post its owner deletes at once, from a deep page and from search', async () => {
    const anna = await person(app, { gender: 2 });
    const term = word('sunset');
    // Far in the past, so a page of its own: 20 posts, the second page holds the oldest 5.
    const top = Date.UTC(2001, 0, 1);
    const made: number[] = [];
    for (let i = 0; i < 20; i++) made.push((await post(app, anna.id, { publishedAt: new Date(top - i * 60_000), text: `${term} ${i}` })).id);
    const deep = `/papi/2/timeline?ts=${top + 1}&offset=15`;
    const search = `/papi/search/posts?q=${term}&offset=15`;
    expect(await ids(app, deep)).toEqual(made.slice(15));
    expect(await ids(app, search)).toEqual(made.slice(15));

    const victim = made[17]!;
    const gone = await app.inject({ method: 'DELETE', url: `/api/posts/${victim}`, headers: { authorization: `Bearer ${anna.token}` } });
    expect(gone.statusCode).toBe(200);
    expect(await ids(app, deep)).toEqual(made.slice(15).filter((id) => id !== victim));
    expect(await ids(app, search)).toEqual(made.slice(15).filter((id) => id !== victim));
  });

  it('are held between writes, and a failed write keeps them', async () => {
    const bea = await person(app, { gender: 2 });
    const term = word('lake');
    const first = await post(app, bea.id, { publishedAt: new Date(Date.UTC(2000, 5, 1)), text: term });
    const url = `/papi/search/posts?q=${term}`;
    expect(await ids(app, url)).toEqual([first.id]);
    // Written behind the server's back (as another node would): the held page is still answered.
    await app.fanstage.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, first.id));
    expect(await ids(app, url)).toEqual([first.id]);
    const refused = await app.inject({ method: 'DELETE', url: `/api/posts/${first.id}`, headers: { authorization: `Bearer ${bea.token}` } });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(await ids(app, url)).toEqual([first.id]);
    // Any successful write of this node starts afresh.
    const other = await person(app);
    const liked = await app.inject({ method: 'POST', url: `/api/posts/${(await post(app, other.id)).id}/likes`, headers: { authorization: `Bearer ${bea.token}` } });
    expect(liked.statusCode).toBe(200);
    expect(await ids(app, url)).toEqual([]);
  });

  it('are never what a logged-in viewer gets: blocks apply to them at once', async () => {
    const [cleo, fan] = [await person(app, { gender: 2 }), await person(app, { isSeller: false, gender: 1 })];
    const term = word('studio');
    const top = Date.UTC(1999, 0, 1);
    const made: number[] = [];
    for (let i = 0; i < 16; i++) made.push((await post(app, cleo.id, { publishedAt: new Date(top - i * 60_000), text: term })).id);
    const deep = `/papi/2/timeline?ts=${top + 1}&offset=15`;
    const search = `/papi/search/posts?q=${term}`;
    expect(await ids(app, deep)).toEqual([made[15]]);
    expect((await ids(app, search)).length).toBe(15);
    await block(app, fan.id, cleo.id);
    expect(await ids(app, deep, fan)).toEqual([]);
    expect(await ids(app, search, fan)).toEqual([]);
    // The visitor's held pages are unchanged by it.
    expect(await ids(app, deep)).toEqual([made[15]]);
  });

  it('hold a viewer’s own timeline page for her alone, and her writes show at once', async () => {
    const [dana, fan, other] = [await person(app, { gender: 2 }), await person(app, { isSeller: false, gender: 1 }), await person(app, { isSeller: false })];
    await follow(app, fan.id, dana.id);
    const first = await post(app, dana.id, { text: word('harbour') });
    expect(await ids(app, '/api/2/timeline', fan)).toEqual([first.id]);
    // Another viewer never gets her page.
    expect(await ids(app, '/api/2/timeline', other)).toEqual([]);
    // Written behind the server's back (as another node would): her held page is still answered.
    const second = await post(app, dana.id, { text: word('harbour') });
    expect(await ids(app, '/api/2/timeline', fan)).toEqual([first.id]);
    // Her own write on this node: the next page is read afresh, with the like and the new post.
    const liked = await app.inject({ method: 'POST', url: `/api/posts/${first.id}/likes`, headers: { authorization: `Bearer ${fan.token}` } });
    expect(liked.statusCode).toBe(200);
    const { json } = await get(app, '/api/2/timeline', fan);
    expect((json.body as { id: number; likedByMe: boolean }[]).map(({ id, likedByMe }) => ({ id, likedByMe }))).toEqual([
      { id: second.id, likedByMe: false },
      { id: first.id, likedByMe: true },
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { and, eq } from '../support/db';
import { posts, postStats } from '../../server/src/db/schema';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const call = apiCaller(() => app);

async function newPost(author: TestAccount, extra: Record<string, unknown> = {}): Promise<number> {
  const { json } = await call('POST', '/api/posts', author, { text: 'a post to like', ...extra });
  expect(json.statusCode).toBe(2);
  return json.body.id;
}

async function row(id: number) {
  const [found] = await app.fanstage.db.select({ likes: posts.likesCount, visits: posts.visitsCount }).from(posts).where(eq(posts.id, id));
  return found!;
}

describe('likes', () => {
  it('are idempotent both ways and the count agrees everywhere', async () => {
    const creator = await createAccount(app, { seller: true });
    const [a, b] = [await createAccount(app), await createAccount(app)];
    const id = await newPost(creator);
    for (let i = 0; i < 2; i++) expect((await call('POST', `/api/posts/${id}/likes`, a)).json.body).toEqual({ totalLikesCount: 1, likedByMe: true });
    await Promise.all([1, 2, 3].map(() => call('POST', `/api/posts/${id}/likes`, b)));
    expect((await row(id)).likes).toBe(2);
    expect((await call('GET', `/api/posts/${id}`, a)).json.body).toMatchObject({ totalLikesCount: 2, likedByMe: true });
    expect((await call('GET', `/papi/posts/${id}`)).json.body).toMatchObject({ totalLikesCount: 2, likedByMe: false });
    for (let i = 0; i < 2; i++) expect((await call('DELETE', `/api/posts/${id}/likes`, a)).json.body).toEqual({ totalLikesCount: 1, likedByMe: false });
    expect((await call('GET', `/api/posts/${id}`, a)).json.body).toMatchObject({ totalLikesCount: 1, likedByMe: false });
  });

  it('need a verified e-mail, a visible post, and a post that has started', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const unverified = await createAccount(app, { verified: false });
    const id = await newPost(creator);
    expect((await call('POST', `/api/posts/${id}/likes`, unverified)).json.statusText).toBe('email-not-verified');
    expect((await call('POST', `/api/posts/${id}/likes`)).status).toBe(401);

    const scheduled = await newPost(creator, { startDate: Date.now() + 3_600_000 });
    expect((await call('POST', `/api/posts/${scheduled}/likes`, creator)).json.statusText).toBe('post-scheduled');
    expect((await call('POST', `/api/posts/${scheduled}/likes`, fan)).json.statusText).toBe('post-doesnt-exists');

    await call('POST', '/api/users/block', fan, { id: creator.id });
    const blocked = await call('POST', `/api/posts/${id}/likes`, fan);
    expect([blocked.status, blocked.json.statusText]).toEqual([404, 'post-doesnt-exists']);
    expect((await call('POST', `/api/posts/${id}/likes`, creator)).json.body.totalLikesCount).toBe(1);
    expect((await row(id)).likes).toBe(1);

    await call('DELETE', `/api/posts/${id}`, creator);
    expect((await call('DELETE', `/api/posts/${id}/likes`, creator)).json.statusText).toBe('post-doesnt-exists');
  });

  it('list their people, newest first, 15 a page, to the post’s owner only', async () => {
    const creator = await createAccount(app, { seller: true });
    const id = await newPost(creator);
    const fans: TestAccount[] = [];
    for (let i = 0; i < 17; i++) {
      const fan = await createAccount(app);
      fans.push(fan);
      await call('POST', `/api/posts/${id}/likes`, fan);
    }
    const first = await call('GET', `/api/posts/${id}/likes`, creator);
    expect(first.json.body).toHaveLength(15);
    expect(first.json.body[0]).toMatchObject({ id: fans[16]!.id, username: fans[16]!.username });
    const second = await call('GET', `/api/posts/${id}/likes?offset=15`, creator);
    expect(second.json.body.map((p: { id: number }) => p.id)).toEqual([fans[1]!.id, fans[0]!.id]);
    const forbidden = await call('GET', `/api/posts/${id}/likes`, fans[0]);
    expect([forbidden.status, forbidden.json.statusText]).toEqual([403, 'forbidden']);
    // Someone the owner blocked leaves the list.
    await call('POST', '/api/users/block', creator, { id: fans[16]!.id });
    expect((await call('GET', `/api/posts/${id}/likes?limit=1`, creator)).json.body[0].id).toBe(fans[15]!.id);
  });
});

describe('post statistics', () => {
  it('count visits from visitors and logged-in viewers and keep a row each', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const id = await newPost(creator);
    expect((await call('POST', `/papi/posts/${id}/visit`)).json).toEqual({ statusCode: 1 });
    expect((await call('POST', `/papi/posts/${id}/visit`, fan)).json).toEqual({ statusCode: 1 });
    expect((await row(id)).visits).toBe(2);
    const rows = await app.fanstage.db.select().from(postStats).where(and(eq(postStats.postId, id), eq(postStats.kind, 'visit')));
    expect(rows.map((r) => r.userId).sort()).toEqual([fan.id, null].sort());
    expect((await call('POST', '/papi/posts/2147483647/visit')).json.statusText).toBe('post-doesnt-exists');
  });

  it('record what a viewer saw of a post', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const id = await newPost(creator);
    const body = { postId: id, duration: 1500, visibleRatio: 0.75, fullscreen: true, cta: 'like' };
    expect((await call('POST', '/papi/ga/', fan, body)).json).toEqual({ statusCode: 1 });
    expect((await call('POST', '/papi/ga/', undefined, { postId: id, duration: 400, visibleRatio: 1 })).json).toEqual({ statusCode: 1 });
    const rows = await app.fanstage.db.select().from(postStats).where(and(eq(postStats.postId, id), eq(postStats.kind, 'seen')));
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.userId === fan.id)).toMatchObject({ durationMs: 1500, visibleRatio: 0.75, fullscreen: true, cta: 'like' });
    expect((await call('POST', '/papi/ga/', fan, { ...body, visibleRatio: 2 })).json.statusText).toBe('invalid-request');
    const scheduled = await newPost(creator, { startDate: Date.now() + 3_600_000 });
    expect((await call('POST', '/papi/ga/', fan, { ...body, postId: scheduled })).json.statusText).toBe('post-doesnt-exists');
  });
});

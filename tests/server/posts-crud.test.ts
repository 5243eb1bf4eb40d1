import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { eq, sql } from '../support/db';
import { media, notifications, postHashtags, posts, users } from '../../server/src/db/schema';

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

let hashes = 0;
/** A processed picture of `owner`, as the media pipeline leaves it. */
async function picture(owner: TestAccount, values: { status?: number; kind?: string; price?: number } = {}): Promise<number> {
  const [row] = await app.fanstage.db
    .insert(media)
    .values({ hash: `posts-crud-${process.pid}-${++hashes}`, ownerId: owner.id, kind: values.kind ?? 'post', format: 'webp', width: 800, height: 1000, status: values.status ?? 3, price: values.price ?? 0, aspectRatio: 0.8 })
    .returning({ id: media.id });
  return row!.id;
}

async function postsCount(id: number): Promise<number> {
  const [row] = await app.fanstage.db.select({ count: users.postsCount }).from(users).where(eq(users.id, id));
  return row!.count;
}

async function tagsOf(postId: number): Promise<string[]> {
  const rows = await app.fanstage.db.select({ tag: postHashtags.tag }).from(postHashtags).where(eq(postHashtags.postId, postId)).orderBy(postHashtags.tag);
  return rows.map((r) => r.tag);
}

async function mediaPrice(id: number): Promise<number> {
  const [row] = await app.fanstage.db.select({ price: media.price }).from(media).where(eq(media.id, id));
  return row!.price;
}

describe('creating a post', () => {
  it('stores the text, its hashtags and the media, and counts the post on the profile', async () => {
    const creator = await createAccount(app, { seller: true });
    const photo = await picture(creator);
    const { json } = await call('POST', '/api/posts', creator, { text: '  Evening light #Sunset #studio_2 #sunset. #2024 a#b ', mediaIds: [photo] });
    expect(json.statusCode).toBe(2);
    const post = json.body;
    expect(post).toMatchObject({ text: 'Evening light #Sunset #studio_2 #sunset. #2024 a#b', isMy: true, startDate: null, totalLikesCount: 0, commentsCount: 0 });
    expect(post.notASeller).toBeUndefined();
    expect(post.media.map((m: { mediaId: number }) => m.mediaId)).toEqual([photo]);
    expect(post.user).toMatchObject({ id: creator.id, isFollowed: false });
    expect(await tagsOf(post.id)).toEqual(['studio_2', 'sunset']);
    expect(await postsCount(creator.id)).toBe(1);
    const seen = await call('GET', `/papi/posts/${post.id}`);
    expect(seen.json.body).toMatchObject({ id: post.id, isMy: false, text: post.text });
  });

  it('needs text or media, and a verified e-mail', async () => {
    const creator = await createAccount(app, { seller: true });
    for (const body of [{}, { text: '   ' }, { text: '', mediaIds: [] }]) {
      const { status, json } = await call('POST', '/api/posts', creator, body);
      expect([status, json.statusText], JSON.stringify(body)).toEqual([400, 'invalid-request']);
    }
    const unverified = await createAccount(app, { verified: false });
    expect((await call('POST', '/api/posts', unverified, { text: 'hello' })).json.statusText).toBe('email-not-verified');
    expect((await call('POST', '/api/posts', undefined, { text: 'hello' })).status).toBe(401);
  });

  it('takes only the author’s own ready post media that no other post holds', async () => {
    const creator = await createAccount(app, { seller: true });
    const other = await createAccount(app, { seller: true });
    const cases: [number, string][] = [
      [await picture(other), 'upload-not-found'],
      [999_999, 'upload-not-found'],
      [await picture(creator, { kind: 'avatar' }), 'upload-not-found'],
      [await picture(creator, { status: 5 }), 'media-not-ready'],
      [await picture(creator, { status: 4 }), 'media-not-ready'],
    ];
    for (const [id, key] of cases) expect((await call('POST', '/api/posts', creator, { mediaIds: [id] })).json.statusText).toBe(key);
    const photo = await picture(creator);
    expect((await call('POST', '/api/posts', creator, { mediaIds: [photo] })).json.statusCode).toBe(2);
    const again = await call('POST', '/api/posts', creator, { mediaIds: [photo] });
    expect([again.status, again.json.statusText, again.json.body.reason]).toEqual([400, 'invalid-request', 'in-use']);
    expect(await postsCount(creator.id)).toBe(1);
  });

  it('prices every media of a seller’s post with a post-media step and refuses other prices', async () => {
    const creator = await createAccount(app, { seller: true });
    const [a, b] = [await picture(creator), await picture(creator)];
    expect((await call('POST', '/api/posts', creator, { mediaIds: [a, b], price: 100 })).json.statusText).toBe('invalid-price');
    const { json } = await call('POST', '/api/posts', creator, { mediaIds: [a, b], price: 320 });
    expect(json.body.media.map((m: { mediaPrice: number }) => m.mediaPrice)).toEqual([320, 320]);
    // The owner holds the key to their own locked media.
    expect(json.body.media[0].mediaUnlockHash).toEqual(expect.any(String));
    const visitor = await call('GET', `/papi/posts/${json.body.id}`);
    expect(visitor.json.body.media[0]).toMatchObject({ mediaPrice: 320, mediaUnlockHash: null });
  });

  it('drops the price of a non-seller and says so with notASeller', async () => {
    const fan = await createAccount(app);
    const photo = await picture(fan);
    const { json } = await call('POST', '/api/posts', fan, { mediaIds: [photo], price: 95 });
    expect(json.statusCode).toBe(2);
    expect(json.body.notASeller).toBe(true);
    expect(await mediaPrice(photo)).toBe(0);
    const free = await call('POST', '/api/posts', fan, { text: 'no price asked', price: 0 });
    expect(free.json.body.notASeller).toBeUndefined();
  });
});

describe('scheduled posts', () => {
  it('are visible to their owner only, with the start date, until they start', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const start = Date.now() + 3_600_000;
    const { json } = await call('POST', '/api/posts', creator, { text: 'Coming soon #teaser', startDate: start });
    expect(json.body).toMatchObject({ startDate: start, ts: start });
    const id = json.body.id;
    expect((await call('GET', `/api/posts/${id}`, creator)).json.body.startDate).toBe(start);
    for (const [url, who] of [[`/papi/posts/${id}`, undefined], [`/api/posts/${id}`, fan]] as const) {
      const { status, json: answer } = await call('GET', url, who);
      expect([status, answer.statusText]).toEqual([404, 'post-doesnt-exists']);
    }
    // Scheduled posts count on the profile from the start.
    expect(await postsCount(creator.id)).toBe(1);
    await app.fanstage.db.update(posts).set({ publishedAt: new Date(Date.now() - 1000), startDate: new Date(Date.now() - 1000) }).where(eq(posts.id, id));
    expect((await call('GET', `/api/posts/${id}`, fan)).json.body).toMatchObject({ id, startDate: null });
  });

  it('refuses start dates more than a year ahead and publishes past ones at once', async () => {
    const creator = await createAccount(app, { seller: true });
    expect((await call('POST', '/api/posts', creator, { text: 'far', startDate: Date.now() + 400 * 86_400_000 })).json.statusText).toBe('invalid-request');
    const past = await call('POST', '/api/posts', creator, { text: 'past', startDate: Date.now() - 60_000 });
    expect(past.json.body.startDate).toBeNull();
    expect((await call('GET', `/papi/posts/${past.json.body.id}`)).json.statusCode).toBe(2);
  });
});

describe('reading a post', () => {
  it('answers post-doesnt-exists for deleted posts, unknown ids and people in a block either way', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const { json } = await call('POST', '/api/posts', creator, { text: 'visible to some' });
    const id = json.body.id;
    expect((await call('GET', `/api/posts/${id}`, fan)).json.statusCode).toBe(2);
    expect((await call('POST', '/api/users/block', creator, { id: fan.id })).json.statusCode).toBe(1);
    expect((await call('GET', `/api/posts/${id}`, fan)).json.statusText).toBe('post-doesnt-exists');
    expect((await call('GET', `/papi/posts/${id}`, fan)).json.statusText).toBe('post-doesnt-exists');
    expect((await call('GET', `/papi/posts/${id}`)).json.statusCode).toBe(2);
    await call('DELETE', '/api/users/block', creator, { id: fan.id });
    expect((await call('POST', '/api/users/block', fan, { id: creator.id })).json.statusCode).toBe(1);
    expect((await call('GET', `/api/posts/${id}`, fan)).json.statusText).toBe('post-doesnt-exists');
    expect((await call('GET', '/papi/posts/2147483647')).json.statusText).toBe('post-doesnt-exists');
    expect((await call('GET', '/papi/posts/abc')).json.statusText).toBe('invalid-request');
  });
});

describe('editing and deleting', () => {
  it('lets only the owner change the text, and reads the hashtags again', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const { json } = await call('POST', '/api/posts', creator, { text: 'first #one #two' });
    const id = json.body.id;
    expect(await tagsOf(id)).toEqual(['one', 'two']);
    const forbidden = await call('PUT', `/api/posts/${id}`, fan, { text: 'mine now' });
    expect([forbidden.status, forbidden.json.statusText]).toEqual([403, 'forbidden']);
    const edited = await call('PUT', `/api/posts/${id}`, creator, { text: 'second #two #three' });
    expect(edited.json.body.text).toBe('second #two #three');
    expect(await tagsOf(id)).toEqual(['three', 'two']);
    // A post without media cannot lose all its text.
    expect((await call('PUT', `/api/posts/${id}`, creator, { text: ' ' })).json.statusText).toBe('invalid-request');
    const photo = await picture(creator);
    const withMedia = await call('POST', '/api/posts', creator, { text: '#x', mediaIds: [photo] });
    expect((await call('PUT', `/api/posts/${withMedia.json.body.id}`, creator, { text: '' })).json.body.text).toBe('');
  });

  it('lets only the owner delete, once, and keeps the posts count right', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const follower = await createAccount(app);
    await call('POST', '/api/users/follow', follower, { id: creator.id });
    const { json } = await call('POST', '/api/posts', creator, { text: 'short-lived #gone' });
    const id = json.body.id;
    expect(await postsCount(creator.id)).toBe(1);
    expect((await call('DELETE', `/api/posts/${id}`, fan)).json.statusText).toBe('forbidden');
    expect((await call('DELETE', `/api/posts/${id}`, creator)).json).toEqual({ statusCode: 1 });
    expect((await call('DELETE', `/api/posts/${id}`, creator)).json.statusText).toBe('post-doesnt-exists');
    expect(await postsCount(creator.id)).toBe(0);
    expect(await tagsOf(id)).toEqual([]);
    expect((await call('GET', `/papi/posts/${id}`)).json.statusText).toBe('post-doesnt-exists');
    // The follower's timeline notification of it is gone with it.
    const page = await call('GET', '/api/2/notifications', follower);
    expect(page.json.body.notifications.filter((n: { postId: number }) => n.postId === id)).toEqual([]);
    const [row] = await app.fanstage.db.select({ count: sql<number>`count(*)::int` }).from(notifications).where(eq(notifications.postId, id));
    expect(row!.count).toBe(1);
  });
});

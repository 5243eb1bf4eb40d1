import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller, type Answer } from '../support/inject';
import { eq } from '../support/db';
import { closeSockets, connectSocket } from '../support/sockets';
import { posts, users } from '../../server/src/db/schema';
import { say } from './support-chat';
import { fundWallet } from '../support/money';
import { fanPriceCents } from '../../lib/sdk/rules/price';

let server: TestServer;
let app: FastifyInstance;
let photo: Buffer;

beforeAll(async () => {
  [server, photo] = await Promise.all([
    startTestServer({ seed: false }),
    sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer(),
  ]);
  app = server.app;
});
afterAll(async () => {
  closeSockets();
  await server?.close();
});

const call = apiCaller(() => app);

/** Upload and create one media through the real pipeline, as the client does. */
async function createMedia(owner: TestAccount, options: { price?: number; purpose?: 'post' | 'chat' } = {}) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  const uploaded = await fetch(`${server.baseUrl}/api/media/binary`, { method: 'POST', headers: { authorization: `Bearer ${owner.accessToken}` }, body: form });
  const { body } = (await uploaded.json()) as Answer;
  const created = await call('POST', '/api/media', owner, { fileNames: [body.fileName], price: options.price, purpose: options.purpose });
  expect(created.json.statusCode).toBe(2);
  return created.json.body[0] as { mediaId: number; mediaHash: string; mediaUnlockHash: string | null };
}

const mediaById = (id: number, viewer: TestAccount) => call('GET', `/api/media/${id}`, viewer);
const file = (hash: string, key?: string | null) => app.inject({ method: 'GET', url: `/media/${hash}.webp${key ? `?k=${encodeURIComponent(key)}` : ''}` });

async function expectNotFound(id: number, viewer: TestAccount) {
  const { status, json } = await mediaById(id, viewer);
  expect([status, json.statusCode, json.statusText]).toEqual([404, -1, 'not-found']);
}

async function expectSeen(id: number, viewer: TestAccount) {
  const { status, json } = await mediaById(id, viewer);
  expect(status).toBe(200);
  expect(json.body.mediaId).toBe(id);
}

describe('GET /api/media/{id} answers only those who may see the media', () => {
  it('a picture sent privately in chat is seen by the two people of that conversation and nobody else', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const stranger = await createAccount(app);
    const picture = await createMedia(creator, { purpose: 'chat' });
    await say(await connectSocket(server, creator), { receiverId: fan.id, text: '', mediaId: picture.mediaId });
    await expectSeen(picture.mediaId, creator);
    await expectSeen(picture.mediaId, fan);
    await expectNotFound(picture.mediaId, stranger);
  });

  it('a media not yet in any post or message is its owner’s alone', async () => {
    const creator = await createAccount(app, { seller: true });
    const picture = await createMedia(creator);
    await expectSeen(picture.mediaId, creator);
    await expectNotFound(picture.mediaId, await createAccount(app));
  });

  it('the media of a post is not-found to someone the owner blocked, and still seen by others', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const other = await createAccount(app);
    const picture = await createMedia(creator);
    expect((await call('POST', '/api/posts', creator, { text: 'open to all', mediaIds: [picture.mediaId] })).json.statusCode).toBe(2);
    await expectSeen(picture.mediaId, fan);
    expect((await call('POST', '/api/users/block', creator, { id: fan.id })).json.statusCode).toBe(1);
    await expectNotFound(picture.mediaId, fan);
    await expectSeen(picture.mediaId, other);
    await expectSeen(picture.mediaId, creator);
  });

  it('a blocked chat partner no longer gets the conversation’s media', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const picture = await createMedia(creator, { purpose: 'chat' });
    await say(await connectSocket(server, creator), { receiverId: fan.id, text: '', mediaId: picture.mediaId });
    await expectSeen(picture.mediaId, fan);
    expect((await call('POST', '/api/users/block', creator, { id: fan.id })).json.statusCode).toBe(1);
    await expectNotFound(picture.mediaId, fan);
  });

  it('a scheduled post’s media is the owner’s alone until the post starts', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const picture = await createMedia(creator);
    const created = await call('POST', '/api/posts', creator, { text: 'tomorrow', mediaIds: [picture.mediaId], startDate: Date.now() + 86_400_000 });
    expect(created.json.body.startDate).toEqual(expect.any(Number));
    await expectSeen(picture.mediaId, creator);
    await expectNotFound(picture.mediaId, fan);
    // Its time comes: the post and its media are everyone's.
    await app.fanstage.db
      .update(posts)
      .set({ publishedAt: new Date(Date.now() - 1000) })
      .where(eq(posts.id, created.json.body.id));
    await expectSeen(picture.mediaId, fan);
  });

  it('a deleted post’s media is gone for others', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const picture = await createMedia(creator);
    const created = await call('POST', '/api/posts', creator, { text: 'for a while', mediaIds: [picture.mediaId] });
    await expectSeen(picture.mediaId, fan);
    expect((await call('DELETE', `/api/posts/${created.json.body.id}`, creator)).json.statusCode).toBe(1);
    await expectNotFound(picture.mediaId, fan);
  });

  it('what a fan paid for stays theirs through a block, as unlocked posts do', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const picture = await createMedia(creator, { price: 64 });
    await call('POST', '/api/posts', creator, { text: 'paid', mediaIds: [picture.mediaId] });
    await app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));
    await fundWallet(app, fan.id, fanPriceCents(64, app.fanstage.config.priceSalt));
    expect((await call('POST', '/api/media/unlock', fan, { id: picture.mediaId, price: 64 })).json.statusCode).toBe(2);
    expect((await call('POST', '/api/users/block', creator, { id: fan.id })).json.statusCode).toBe(1);
    const { json } = await mediaById(picture.mediaId, fan);
    expect(json.body).toMatchObject({ mediaId: picture.mediaId, mediaUnlockHash: expect.any(String) });
  });

  it('an avatar is seen by anyone its owner did not block', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const blocked = await createAccount(app);
    const picture = await createMedia(creator);
    await app.fanstage.db.update(users).set({ avatarMediaId: picture.mediaId }).where(eq(users.id, creator.id));
    await expectSeen(picture.mediaId, fan);
    expect((await call('POST', '/api/users/block', creator, { id: blocked.id })).json.statusCode).toBe(1);
    await expectNotFound(picture.mediaId, blocked);
  });
});

describe('other paths that name a media tell a stranger nothing', () => {
  it('copying someone else’s media, reading their scheduled or blocking post and listing chat media', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const stranger = await createAccount(app);
    const scheduledMedia = await createMedia(creator);
    const scheduled = await call('POST', '/api/posts', creator, { text: 'later', mediaIds: [scheduledMedia.mediaId], startDate: Date.now() + 86_400_000 });
    expect((await call('POST', `/api/media/${scheduledMedia.mediaId}/copy/`, stranger)).json.statusText).toBe('not-found');
    expect((await call('GET', `/api/posts/${scheduled.json.body.id}`, stranger)).json.statusText).toBe('post-doesnt-exists');

    const chatMedia = await createMedia(creator, { purpose: 'chat' });
    await say(await connectSocket(server, creator), { receiverId: fan.id, text: '', mediaId: chatMedia.mediaId });
    // The list names the viewer's own conversation with the partner, which a stranger never had.
    const listed = await call('GET', `/api/chat/conversations-media/?receiverId=${creator.id}`, stranger);
    expect(listed.json.body.messages).toEqual([]);
    const fansList = await call('GET', `/api/chat/conversations-media/?receiverId=${creator.id}`, fan);
    expect(fansList.json.body.messages.map((m: { mediaId: number }) => m.mediaId)).toEqual([chatMedia.mediaId]);

    const open = await createMedia(creator);
    const post = await call('POST', '/api/posts', creator, { text: 'now', mediaIds: [open.mediaId] });
    expect((await call('POST', '/api/users/block', creator, { id: stranger.id })).json.statusCode).toBe(1);
    expect((await call('GET', `/api/posts/${post.json.body.id}`, stranger)).json.statusText).toBe('post-doesnt-exists');
    expect((await call('GET', `/papi/2/posts?username=${creator.username}`, stranger)).json.body ?? []).toEqual([]);
  });
});

describe('a media that becomes priced moves to a new address', () => {
  /** The free original is out there, publicly cached for a year. */
  async function servedFree(hash: string) {
    const response = await file(hash);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  }

  /** The old address serves nothing; the new one only with the key. */
  async function movedAndLocked(oldHash: string, view: { mediaHash: string; mediaPrice: number; mediaUnlockHash: string | null }, price: number) {
    expect(view.mediaPrice).toBe(price);
    expect(view.mediaHash).not.toBe(oldHash);
    expect((await file(oldHash)).statusCode).toBe(404);
    expect((await file(view.mediaHash)).statusCode).toBe(403);
    expect((await file(view.mediaHash, view.mediaUnlockHash)).statusCode).toBe(200);
  }

  it('when a post is created with a price', async () => {
    const creator = await createAccount(app, { seller: true });
    const picture = await createMedia(creator);
    await servedFree(picture.mediaHash);
    const { json } = await call('POST', '/api/posts', creator, { text: 'paid', mediaIds: [picture.mediaId], price: 64 });
    expect(json.statusCode).toBe(2);
    await movedAndLocked(picture.mediaHash, json.body.media[0], 64);
    // The stored media agrees with the post: the by-id answer names the new address.
    expect((await mediaById(picture.mediaId, creator)).json.body.mediaHash).toBe(json.body.media[0].mediaHash);
  });

  it('when a free post’s media, left by a deleted post, is priced in a new one', async () => {
    const creator = await createAccount(app, { seller: true });
    const picture = await createMedia(creator);
    const first = await call('POST', '/api/posts', creator, { text: 'free', mediaIds: [picture.mediaId] });
    await servedFree(picture.mediaHash);
    await call('DELETE', `/api/posts/${first.json.body.id}`, creator);
    const { json } = await call('POST', '/api/posts', creator, { text: 'now paid', mediaIds: [picture.mediaId], price: 32 });
    await movedAndLocked(picture.mediaHash, json.body.media[0], 32);
  });

  it('keeps the address when a post does not price the media (no price, or a non-seller’s dropped price)', async () => {
    const creator = await createAccount(app, { seller: true });
    const picture = await createMedia(creator);
    const { json } = await call('POST', '/api/posts', creator, { text: 'free', mediaIds: [picture.mediaId] });
    expect(json.body.media[0].mediaHash).toBe(picture.mediaHash);
    await servedFree(picture.mediaHash);
  });

  it('when the owner prices it with PUT /api/media/{id}, in a post or in chat', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const inPost = await createMedia(creator);
    await call('POST', '/api/posts', creator, { text: 'free for now', mediaIds: [inPost.mediaId] });
    await servedFree(inPost.mediaHash);
    const priced = await call('PUT', `/api/media/${inPost.mediaId}`, creator, { price: 95 });
    await movedAndLocked(inPost.mediaHash, priced.json.body, 95);
    // The fan sees the post's media at its new address, locked.
    expect((await mediaById(inPost.mediaId, fan)).json.body).toMatchObject({ mediaHash: priced.json.body.mediaHash, mediaUnlockHash: null });

    const inChat = await createMedia(creator, { purpose: 'chat' });
    await say(await connectSocket(server, creator), { receiverId: fan.id, text: '', mediaId: inChat.mediaId });
    await servedFree(inChat.mediaHash);
    const pricedChat = await call('PUT', `/api/media/${inChat.mediaId}`, creator, { price: 48 });
    await movedAndLocked(inChat.mediaHash, pricedChat.json.body, 48);
  });

  it('leaves nothing half moved when the storage fails mid-way: the post is not made, the media keep their free addresses', async () => {
    const creator = await createAccount(app, { seller: true });
    const first = await createMedia(creator);
    const second = await createMedia(creator);
    const storage = app.fanstage.storage;
    const copy = storage.copy;
    const copied: string[] = [];
    let answer: Awaited<ReturnType<typeof call>>;
    // A disk that fills up once the first media's files were copied: a fault the real storage cannot be made to have.
    storage.copy = async (from, to) => {
      if (from.includes(second.mediaHash)) throw new Error('disk full');
      copied.push(to);
      return copy.call(storage, from, to);
    };
    try {
      answer = await call('POST', '/api/posts', creator, { text: 'paid', mediaIds: [first.mediaId, second.mediaId], price: 64 });
    } finally {
      storage.copy = copy;
    }
    expect(answer.status).toBe(500);
    expect(copied.length).toBeGreaterThan(0);
    for (const key of copied) expect(await storage.exists(key), key).toBe(false);
    for (const picture of [first, second]) {
      expect((await mediaById(picture.mediaId, creator)).json.body).toMatchObject({ mediaHash: picture.mediaHash, mediaPrice: 0 });
      expect((await file(picture.mediaHash)).statusCode).toBe(200);
    }
    const [count] = await app.fanstage.db.select({ n: users.postsCount }).from(users).where(eq(users.id, creator.id));
    expect(count!.n).toBe(0);
  });

  it('a chat media priced at upload has an address that never served it free', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const picture = await createMedia(creator, { purpose: 'chat', price: 48 });
    expect((await file(picture.mediaHash)).statusCode).toBe(403);
    const sent = await say(await connectSocket(server, creator), { receiverId: fan.id, text: '', mediaId: picture.mediaId });
    expect(sent.media).toMatchObject({ mediaHash: picture.mediaHash, mediaPrice: 48 });
    expect((await file(picture.mediaHash)).statusCode).toBe(403);
  });
});

describe('multipart uploads', () => {
  async function postForm(url: string, account: TestAccount, form: FormData) {
    const response = await fetch(`${server.baseUrl}${url}`, { method: 'POST', headers: { authorization: `Bearer ${account.accessToken}` }, body: form });
    return { status: response.status, json: (await response.json()) as Answer };
  }

  for (const url of ['/api/media/binary', '/api/users/me/avatar']) {
    it(`${url} answers 400 invalid-request to a form with a text field before the file`, async () => {
      const me = await createAccount(app);
      const form = new FormData();
      form.append('caption', 'my photo');
      form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
      const { status, json } = await postForm(url, me, form);
      expect([status, json.statusCode, json.statusText]).toEqual([400, -1, 'invalid-request']);
    });

    it(`${url} still takes the file alone`, async () => {
      const me = await createAccount(app);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
      const { status, json } = await postForm(url, me, form);
      expect([status, json.statusCode]).toEqual([200, 2]);
    });
  }
});

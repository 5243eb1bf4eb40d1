import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { and, eq } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { blocks, media, mediaUnlocks, notifications, postMedia, posts, subscriptionOffers, subscriptions } from '../../server/src/db/schema';
import { mediaKey } from '../../server/src/media/images';
import { createSpendingService } from '../../server/src/features/spending/service';

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

interface Gift {
  id: number;
  gValue: number;
  cValue: number;
}
let catalogue: Gift[] = [];
async function gift(index = 0): Promise<Gift> {
  if (catalogue.length === 0) catalogue = (await call('GET', '/papi/gifts')).json.body;
  return catalogue[index]!;
}

async function newPost(author: TestAccount, extra: Record<string, unknown> = {}): Promise<number> {
  const { json } = await call('POST', '/api/posts', author, { text: 'a post to gift', ...extra });
  expect(json.statusCode).toBe(2);
  return json.body.id;
}

const original = Buffer.from('the original picture bytes');

/** A published post of `ownerId` with one ready priced picture whose original is in the media storage. */
async function pricedPost(ownerId: number, price: number, fields: { publishedAt?: Date; deletedAt?: Date } = {}): Promise<{ postId: number; mediaId: number; hash: string }> {
  const { db } = app.fanstage;
  const hash = randomBytes(16).toString('hex');
  const publishedAt = fields.publishedAt ?? new Date(Date.now() - 60_000);
  const [p] = await db
    .insert(posts)
    .values({ userId: ownerId, text: 'locked', publishedAt, startDate: publishedAt.getTime() > Date.now() ? publishedAt : null, deletedAt: fields.deletedAt ?? null })
    .returning({ id: posts.id });
  const [m] = await db.insert(media).values({ hash, ownerId, kind: 'post', format: 'webp', width: 800, height: 600, status: 3, price }).returning({ id: media.id });
  await db.insert(postMedia).values({ postId: p!.id, mediaId: m!.id, position: 0 });
  await app.fanstage.storage.put(mediaKey(hash, 'webp'), original);
  return { postId: p!.id, mediaId: m!.id, hash };
}

async function agreeNsfw(account: TestAccount): Promise<void> {
  const { json } = await call('PUT', '/api/users/me', account, { nsfwAgreement: 1 });
  expect(json.statusCode).toBe(2);
}

async function notificationsOf(userId: number, type: string) {
  return app.fanstage.db
    .select({ fromUserId: notifications.fromUserId, postId: notifications.postId, giftId: notifications.giftId, mediaId: notifications.mediaId, count: notifications.count })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
}

const giftsCount = async (postId: number) => (await app.fanstage.db.select({ n: posts.giftsCount }).from(posts).where(eq(posts.id, postId)))[0]!.n;

describe('gifts on posts', () => {
  it('move the gift’s values, count on the post and notify the creator', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const g = await gift(1);
    const postId = await newPost(creator);
    await fundWallet(app, fan.id, g.gValue * 2 + 7);

    const first = await call('POST', '/api/posts/gift', fan, { postId, giftId: g.id });
    expect(first.status).toBe(200);
    expect(first.json.body).toMatchObject({ gBalance: g.gValue + 7, totalGiftsCount: 1 });
    expect(typeof first.json.body.ts).toBe('number');
    const second = await call('POST', '/api/posts/gift', fan, { postId, giftId: g.id });
    expect(second.json.body).toMatchObject({ gBalance: 7, totalGiftsCount: 2 });

    expect(await walletOf(app, fan.id)).toBe(7);
    expect(await earningsOf(app, creator.id)).toBe(g.cValue * 2);
    expect(await giftsCount(postId)).toBe(2);
    expect((await call('GET', `/api/posts/${postId}`, fan)).json.body.totalGiftsCount).toBe(2);
    const notes = await notificationsOf(creator.id, 'postGift');
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatchObject({ fromUserId: fan.id, postId, giftId: g.id });
    await expectLedgerBalanced(app);
  });

  it('answer noMoney (402) and move nothing when the wallet cannot pay', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const g = await gift(0);
    const postId = await newPost(creator);
    await fundWallet(app, fan.id, g.gValue - 1);
    const answer = await call('POST', '/api/posts/gift', fan, { postId, giftId: g.id });
    expect([answer.status, answer.json.statusCode, answer.json.statusText]).toEqual([402, -1, 'noMoney']);
    expect(await walletOf(app, fan.id)).toBe(g.gValue - 1);
    expect(await earningsOf(app, creator.id)).toBe(0);
    expect(await giftsCount(postId)).toBe(0);
    expect(await notificationsOf(creator.id, 'postGift')).toHaveLength(0);
    await expectLedgerBalanced(app);
  });

  it('given together by many fans, share one transaction yet keep each its own refusal, key and notification', async () => {
    const creator = await createAccount(app, { seller: true });
    const g = await gift(0);
    const postId = await newPost(creator);
    const [rich, rich2, poor, twice] = await Promise.all([1, 2, 3, 4].map(() => createAccount(app)));
    for (const fan of [rich!, rich2!, twice!]) await fundWallet(app, fan.id, g.gValue * 2);
    await fundWallet(app, poor!.id, g.gValue - 1);
    const spending = createSpendingService(app.fanstage);
    const give = (fan: TestAccount, idempotencyKey?: string) => spending.giftPost(fan.id, { postId, giftId: g.id, ...(idempotencyKey ? { idempotencyKey } : {}) }, { channel: 'platform', at: new Date() });
    const key = `k-${randomBytes(6).toString('hex')}`;
    // All in one turn of the event loop: one batch (the key given twice is answered as a resend).
    const [a, b, broke, first, resend, own] = await Promise.allSettled([give(rich!), give(rich2!), give(poor!), give(twice!, key), give(twice!, key), give(creator)]);
    expect(a).toMatchObject({ status: 'fulfilled', value: { gBalance: g.gValue } });
    expect(b).toMatchObject({ status: 'fulfilled', value: { gBalance: g.gValue } });
    expect(broke).toMatchObject({ status: 'rejected', reason: { key: 'noMoney' } });
    expect(own).toMatchObject({ status: 'rejected', reason: { key: 'cannot-target-self' } });
    expect(first).toMatchObject({ status: 'fulfilled', value: { gBalance: g.gValue } });
    expect(resend).toMatchObject({ status: 'fulfilled', value: { gBalance: g.gValue } });
    const counts = [a, b, first].map((r) => (r as PromiseFulfilledResult<{ totalGiftsCount: number }>).value.totalGiftsCount).sort((x, y) => x - y);
    expect(counts).toEqual([1, 2, 3]);
    expect(await giftsCount(postId)).toBe(3);
    expect(await walletOf(app, poor!.id)).toBe(g.gValue - 1);
    expect(await walletOf(app, twice!.id)).toBe(g.gValue);
    expect(await earningsOf(app, creator.id)).toBe(g.cValue * 3);
    const notes = await notificationsOf(creator.id, 'postGift');
    expect(notes.map((n) => n.fromUserId).sort((x, y) => x! - y!)).toEqual([rich!.id, rich2!.id, twice!.id].sort((x, y) => x - y));
    await expectLedgerBalanced(app);
  });

  it('give once when resent with the same idempotency key, and refuse the key for another gift', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const g = await gift(0);
    const postId = await newPost(creator);
    await fundWallet(app, fan.id, g.gValue * 5);
    const body = { postId, giftId: g.id, idempotencyKey: `k-${randomBytes(6).toString('hex')}` };
    const answers = await Promise.all([1, 2, 3].map(() => call('POST', '/api/posts/gift', fan, body)));
    for (const a of answers) expect(a.json.body).toMatchObject({ gBalance: g.gValue * 4, totalGiftsCount: 1 });
    const again = await call('POST', '/api/posts/gift', fan, body);
    expect(again.json.body).toMatchObject({ gBalance: g.gValue * 4, totalGiftsCount: 1 });
    expect(await giftsCount(postId)).toBe(1);
    expect(await notificationsOf(creator.id, 'postGift')).toHaveLength(1);
    const other = await call('POST', '/api/posts/gift', fan, { ...body, giftId: (await gift(1)).id });
    expect([other.status, other.json.statusText]).toEqual([409, 'idempotency-conflict']);
    expect(await walletOf(app, fan.id)).toBe(g.gValue * 4);
    await expectLedgerBalanced(app);
  });

  it('are refused on one’s own post, across a block, on scheduled or deleted posts and for unknown gifts', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const g = await gift(0);
    const postId = await newPost(creator);
    await fundWallet(app, creator.id, 10_000);
    await fundWallet(app, fan.id, 10_000);

    const own = await call('POST', '/api/posts/gift', creator, { postId, giftId: g.id });
    expect([own.status, own.json.statusText]).toEqual([400, 'cannot-target-self']);
    const unknown = await call('POST', '/api/posts/gift', fan, { postId, giftId: 999_999 });
    expect([unknown.status, unknown.json.statusText]).toEqual([404, 'gift-not-found']);
    const missing = await call('POST', '/api/posts/gift', fan, { postId: 999_999, giftId: g.id });
    expect(missing.json.statusText).toBe('post-doesnt-exists');

    const scheduled = await newPost(creator, { startDate: Date.now() + 3_600_000 });
    expect((await call('POST', '/api/posts/gift', fan, { postId: scheduled, giftId: g.id })).json.statusText).toBe('post-doesnt-exists');

    const deleted = await newPost(creator);
    await call('DELETE', `/api/posts/${deleted}`, creator);
    expect((await call('POST', '/api/posts/gift', fan, { postId: deleted, giftId: g.id })).json.statusText).toBe('post-doesnt-exists');

    await app.fanstage.db.insert(blocks).values({ blockerId: creator.id, blockedId: fan.id });
    const blocked = await call('POST', '/api/posts/gift', fan, { postId, giftId: g.id });
    expect([blocked.status, blocked.json.statusText]).toEqual([404, 'post-doesnt-exists']);

    expect(await walletOf(app, fan.id)).toBe(10_000);
    expect(await walletOf(app, creator.id)).toBe(10_000);
    expect(await giftsCount(postId)).toBe(0);
    await expectLedgerBalanced(app);
  });

  it('answer the envelope for bad input, never a server error', async () => {
    const fan = await createAccount(app);
    for (const body of [{}, { postId: 'x', giftId: 1 }, { postId: 1, giftId: -3 }, { postId: 1, giftId: 1, idempotencyKey: 'short' }, null]) {
      const answer = await call('POST', '/api/posts/gift', fan, body ?? undefined);
      expect(answer.status).toBeLessThan(500);
      expect(answer.json.statusCode).toBe(-1);
    }
    expect((await call('POST', '/api/posts/gift', undefined, { postId: 1, giftId: 1 })).status).toBe(401);
    const unverified = await createAccount(app, { verified: false });
    expect((await call('POST', '/api/posts/gift', unverified, { postId: 1, giftId: 1 })).json.statusText).toBe('email-not-verified');
  });
});

describe('tips', () => {
  it('pay a creator a gift without a post and notify them', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const g = await gift(2);
    await fundWallet(app, fan.id, g.gValue);
    const key = `tip-${randomBytes(6).toString('hex')}`;
    const answer = await call('POST', '/api/users/tip', fan, { userId: creator.id, giftId: g.id, idempotencyKey: key });
    expect(answer.json.body).toMatchObject({ gBalance: 0 });
    expect((await call('POST', '/api/users/tip', fan, { userId: creator.id, giftId: g.id, idempotencyKey: key })).json.body.gBalance).toBe(0);
    expect(await earningsOf(app, creator.id)).toBe(g.cValue);
    expect(await notificationsOf(creator.id, 'postGift')).toEqual([{ fromUserId: fan.id, postId: null, giftId: g.id, mediaId: null, count: 1 }]);
    expect((await call('POST', '/api/users/tip', fan, { userId: creator.id, giftId: g.id })).json.statusText).toBe('noMoney');
    await expectLedgerBalanced(app);
  });

  it('go only to creators, never to oneself, nobody in a block, or someone unknown', async () => {
    const creator = await createAccount(app, { seller: true });
    const member = await createAccount(app);
    const fan = await createAccount(app);
    const g = await gift(0);
    await fundWallet(app, fan.id, 10_000);
    expect((await call('POST', '/api/users/tip', fan, { userId: fan.id, giftId: g.id })).json.statusText).toBe('cannot-target-self');
    expect((await call('POST', '/api/users/tip', fan, { userId: member.id, giftId: g.id })).json.statusText).toBe('gift-send-error');
    expect((await call('POST', '/api/users/tip', fan, { userId: 999_999, giftId: g.id })).json.statusText).toBe('user-not-found');
    expect((await call('POST', '/api/users/tip', fan, { userId: creator.id, giftId: 999_999 })).json.statusText).toBe('gift-not-found');
    await app.fanstage.db.insert(blocks).values({ blockerId: fan.id, blockedId: creator.id });
    expect((await call('POST', '/api/users/tip', fan, { userId: creator.id, giftId: g.id })).json.statusText).toBe('user-not-found');
    expect(await walletOf(app, fan.id)).toBe(10_000);
    await expectLedgerBalanced(app);
  });
});

describe('unlocks', () => {
  const salt = () => app.fanstage.config.priceSalt;

  it('charge the fan the salted price, pay the creator the price and open the original with the key', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await agreeNsfw(fan);
    const { postId, mediaId, hash } = await pricedPost(creator.id, 320);
    const charged = fanPriceCents(320, salt());
    expect(charged).toBeGreaterThan(320);
    await fundWallet(app, fan.id, charged + 50);

    const locked = await app.inject({ method: 'GET', url: `/media/${hash}.webp` });
    expect(locked.statusCode).toBe(403);
    const before = (await call('GET', `/api/posts/${postId}`, fan)).json.body.media[0];
    expect(before.mediaUnlockHash).toBeNull();

    const answer = await call('POST', '/api/media/unlock', fan, { id: mediaId, price: 320 });
    expect(answer.status).toBe(200);
    expect(answer.json.body).toMatchObject({ mediaId, gBalance: 50 });
    const key: string = answer.json.body.mediaUnlockHash;
    const served = await app.inject({ method: 'GET', url: `/media/${hash}.webp?k=${encodeURIComponent(key)}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(original)).toBe(true);
    expect((await app.inject({ method: 'GET', url: `/media/${hash}.webp?k=${encodeURIComponent(`${key.slice(0, -2)}AA`)}` })).statusCode).toBe(403);

    expect(await walletOf(app, fan.id)).toBe(50);
    expect(await earningsOf(app, creator.id)).toBe(320);
    const [row] = await app.fanstage.db.select().from(mediaUnlocks).where(and(eq(mediaUnlocks.userId, fan.id), eq(mediaUnlocks.mediaId, mediaId)));
    expect(row?.pricePaid).toBe(charged);
    expect(await notificationsOf(creator.id, 'postMediaUnlock')).toEqual([{ fromUserId: fan.id, postId, giftId: null, mediaId, count: 1 }]);

    // The post now carries the key for the fan, and the creator sees what the media earned.
    const after = (await call('GET', `/api/posts/${postId}`, fan)).json.body.media[0];
    expect(after.mediaUnlockHash).not.toBeNull();
    expect(after.earnedCents).toBe(0);
    const own = (await call('GET', `/api/posts/${postId}`, creator)).json.body.media[0];
    expect(own).toMatchObject({ mediaIsOwner: true, earnedCents: 320 });

    // Unlocking again answers the key and charges nothing, even at a price the fan no longer knows.
    const again = await call('POST', '/api/media/unlock', fan, { id: mediaId, price: 1 });
    expect(again.json.body).toMatchObject({ mediaId, gBalance: 50 });
    expect(await walletOf(app, fan.id)).toBe(50);
    expect(await notificationsOf(creator.id, 'postMediaUnlock')).toHaveLength(1);
    await expectLedgerBalanced(app);
  });

  it('refuse a changed price, a missing NSFW agreement and an empty wallet, moving nothing', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const { mediaId } = await pricedPost(creator.id, 640);
    await fundWallet(app, fan.id, fanPriceCents(640, salt()));

    const noAgreement = await call('POST', '/api/media/unlock', fan, { id: mediaId, price: 640 });
    expect([noAgreement.status, noAgreement.json.statusText]).toEqual([403, 'nsfw-agreement-required']);
    await agreeNsfw(fan);
    const changed = await call('POST', '/api/media/unlock', fan, { id: mediaId, price: 320 });
    expect([changed.status, changed.json.statusText]).toEqual([409, 'price-changed']);
    expect(changed.json.body).toMatchObject({ mediaId, price: 640 });

    await app.fanstage.db.update(media).set({ price: 1600 }).where(eq(media.id, mediaId));
    expect((await call('POST', '/api/media/unlock', fan, { id: mediaId, price: 640 })).json.statusText).toBe('price-changed');
    const poor = await call('POST', '/api/media/unlock', fan, { id: mediaId, price: 1600 });
    expect([poor.status, poor.json.statusText]).toEqual([402, 'noMoney']);

    expect(await walletOf(app, fan.id)).toBe(fanPriceCents(640, salt()));
    expect(await earningsOf(app, creator.id)).toBe(0);
    expect(await app.fanstage.db.select().from(mediaUnlocks).where(eq(mediaUnlocks.userId, fan.id))).toHaveLength(0);
    expect(await notificationsOf(creator.id, 'postMediaUnlock')).toHaveLength(0);
    await expectLedgerBalanced(app);
  });

  it('answer the owner their key, and hide media of deleted, scheduled or blocked posts', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await agreeNsfw(fan);
    await fundWallet(app, fan.id, 100_000);
    const visible = await pricedPost(creator.id, 320);
    const own = await call('POST', '/api/media/unlock', creator, { id: visible.mediaId, price: 1 });
    expect(own.json.body.mediaUnlockHash).toEqual(expect.any(String));
    expect((await app.inject({ method: 'GET', url: `/media/${visible.hash}.webp?k=${encodeURIComponent(own.json.body.mediaUnlockHash)}` })).statusCode).toBe(200);

    const deleted = await pricedPost(creator.id, 320, { deletedAt: new Date() });
    const scheduled = await pricedPost(creator.id, 320, { publishedAt: new Date(Date.now() + 3_600_000) });
    for (const m of [deleted, scheduled]) {
      const answer = await call('POST', '/api/media/unlock', fan, { id: m.mediaId, price: 320 });
      expect([answer.status, answer.json.statusText]).toEqual([404, 'post-doesnt-exists']);
    }
    expect((await call('POST', '/api/media/unlock', fan, { id: 999_999, price: 320 })).json.statusText).toBe('post-doesnt-exists');
    const free = await pricedPost(creator.id, 0);
    expect((await call('POST', '/api/media/unlock', fan, { id: free.mediaId, price: 0 })).json.statusText).toBe('invalid-price');

    await app.fanstage.db.insert(blocks).values({ blockerId: fan.id, blockedId: creator.id });
    expect((await call('POST', '/api/media/unlock', fan, { id: visible.mediaId, price: 320 })).json.statusText).toBe('post-doesnt-exists');
    expect(await walletOf(app, fan.id)).toBe(100_000);
    await expectLedgerBalanced(app);
  });

  it('are not needed by a subscriber while the subscription is active', async () => {
    const creator = await createAccount(app, { seller: true });
    const subscriber = await createAccount(app);
    const { postId, mediaId, hash } = await pricedPost(creator.id, 320);
    const { db, clock } = app.fanstage;
    const [offer] = await db.insert(subscriptionOffers).values({ userId: creator.id, name: 'Monthly', priceCents: 900 }).returning({ id: subscriptionOffers.id });
    await db.insert(subscriptions).values({
      offerId: offer!.id,
      subscriberId: subscriber.id,
      creatorId: creator.id,
      status: 21,
      priceCents: 900,
      periodsPaid: 1,
      periodEnd: new Date(clock.now().getTime() + 3_600_000),
    });

    const seen = (await call('GET', `/api/posts/${postId}`, subscriber)).json.body.media[0];
    expect(seen.mediaUnlockHash).toEqual(expect.any(String));
    expect((await app.inject({ method: 'GET', url: `/media/${hash}.webp?k=${encodeURIComponent(seen.mediaUnlockHash)}` })).statusCode).toBe(200);
    const unlock = await call('POST', '/api/media/unlock', subscriber, { id: mediaId, price: 320 });
    expect(unlock.json.body).toMatchObject({ mediaId, gBalance: 0 });
    expect(await earningsOf(app, creator.id)).toBe(0);

    // A cancelled subscription still opens until its period ends; after that the media is locked again.
    await db.update(subscriptions).set({ status: 24 }).where(eq(subscriptions.subscriberId, subscriber.id));
    expect((await call('GET', `/api/posts/${postId}`, subscriber)).json.body.media[0].mediaUnlockHash).not.toBeNull();
    clock.advance(2 * 3_600_000);
    expect((await call('GET', `/api/posts/${postId}`, subscriber)).json.body.media[0].mediaUnlockHash).toBeNull();
    const expired = await call('POST', '/api/media/unlock', subscriber, { id: mediaId, price: 320 });
    expect(expired.json.statusText).toBe('nsfw-agreement-required');
    await db.update(subscriptions).set({ status: 50, periodEnd: new Date(clock.now().getTime() + 3_600_000) }).where(eq(subscriptions.subscriberId, subscriber.id));
    expect((await call('GET', `/api/posts/${postId}`, subscriber)).json.body.media[0].mediaUnlockHash).toBeNull();
  });

  it('answer the envelope for bad input, never a server error', async () => {
    const fan = await createAccount(app);
    for (const body of [{}, { id: 0, price: 1 }, { id: 1, price: -1 }, { id: 'a', price: 1 }, { id: 1 }]) {
      const answer = await call('POST', '/api/media/unlock', fan, body);
      expect(answer.status).toBeLessThan(500);
      expect(answer.json.statusCode).toBe(-1);
    }
  });
});

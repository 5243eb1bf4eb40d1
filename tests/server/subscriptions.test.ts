import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SubscriptionStatus } from '../../lib/contract/constants';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { media, notifications, subscriptions, users } from '../../server/src/db/schema';
import { createAccount, type TestAccount } from '../support/accounts';
import { and, eq } from '../support/db';
import { apiCaller } from '../support/inject';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { startTestServer, type TestServer } from '../support/server';

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
const salt = () => app.fanstage.config.priceSalt;
const MONTH_MS = 31 * 24 * 60 * 60 * 1000;

let hashes = 0;
/** A processed picture of `owner`, as the media pipeline leaves it. */
async function picture(owner: TestAccount): Promise<number> {
  const [row] = await app.fanstage.db
    .insert(media)
    .values({ hash: `subscriptions-${process.pid}-${++hashes}`, ownerId: owner.id, kind: 'post', format: 'webp', width: 800, height: 1000, status: 3, aspectRatio: 0.8 })
    .returning({ id: media.id });
  return row!.id;
}

async function offer(creator: TestAccount, priceCents = 320, name = 'Monthly'): Promise<number> {
  const { json } = await call('POST', '/api/subscription/offer', creator, { name, priceCents });
  expect(json.statusCode).toBe(2);
  return json.body.id as number;
}

async function statusOf(id: number): Promise<number> {
  const [row] = await app.fanstage.db.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.id, id));
  return row!.status;
}

async function notificationsOf(userId: number, type: string): Promise<number> {
  const rows = await app.fanstage.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
  return rows.length;
}

describe('offers', () => {
  it('lets a seller make offers at post-media price steps, listed with what subscribers save on posts', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const photos = [await picture(creator), await picture(creator)];
    expect((await call('POST', '/api/posts', creator, { mediaIds: photos, price: 95 })).json.statusCode).toBe(2);

    const made = await call('POST', '/api/subscription/offer', creator, { name: 'Gold', priceCents: 640 });
    expect(made.json).toMatchObject({ statusCode: 2, body: { userId: creator.id, name: 'Gold', priceCents: 640, offerStatus: 'active', activeSubscribersCount: 0, subscription: null } });
    const [flag] = await app.fanstage.db.select({ offers: users.offersSubscriptions }).from(users).where(eq(users.id, creator.id));
    expect(flag!.offers).toBe(true);

    for (const priceCents of [100, 0, 13]) {
      const refused = await call('POST', '/api/subscription/offer', creator, { name: 'Odd', priceCents });
      expect(refused.json.statusText === 'invalid-price' || refused.status === 400).toBe(true);
      expect(refused.json.statusCode).toBeLessThan(0);
    }

    const listed = await call('GET', `/papi/subscription/offer?userId=${creator.id}`);
    expect(listed.json.body).toHaveLength(1);
    expect(listed.json.body[0]).toMatchObject({ savedCentsForPosts: 190, savedGForPosts: 2 * fanPriceCents(95, salt()) });
    expect((await call('GET', `/api/subscription/offer?userId=${creator.id}`, fan)).json.body[0].subscription).toBeNull();
  });

  it('refuses offers from non-sellers with verify-required (-2)', async () => {
    const fan = await createAccount(app);
    const { status, json } = await call('POST', '/api/subscription/offer', fan, { name: 'Mine', priceCents: 320 });
    expect(status).toBe(403);
    expect(json).toMatchObject({ statusCode: -2, statusText: 'verify-required' });
  });

  it('deletes only one’s own offer; its subscribers keep their time as cancelled and the offer leaves the list', async () => {
    const creator = await createAccount(app, { seller: true });
    const other = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator);
    await fundWallet(app, fan.id, 1000);
    const subscribed = await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {});
    expect(subscribed.json.body.subscriptionStatus).toBe(SubscriptionStatus.active);

    expect((await call('DELETE', `/api/subscription/offer/${offerId}`, other)).json.statusText).toBe('offer-not-found');
    expect((await call('DELETE', `/api/subscription/offer/${offerId}`, creator)).json).toEqual({ statusCode: 1 });
    expect((await call('GET', `/papi/subscription/offer?userId=${creator.id}`)).json.body).toEqual([]);
    expect((await call('DELETE', `/api/subscription/offer/${offerId}`, creator)).json.statusText).toBe('offer-not-found');

    const mine = await call('GET', `/api/subscription/${subscribed.json.body.id}`, fan);
    expect(mine.json.body).toMatchObject({ subscriptionStatus: SubscriptionStatus.cancelled, offerStatus: 'deleted' });
    expect(mine.json.body.subscriptionEndDate).toBeGreaterThan(Date.now());
    expect((await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.statusText).toBe('offer-not-found');
    const [flag] = await app.fanstage.db.select({ offers: users.offersSubscriptions }).from(users).where(eq(users.id, creator.id));
    expect(flag!.offers).toBe(false);
  });
});

describe('subscribing with credits', () => {
  it('pays the salted price from the wallet, earns the creator the price, and runs for a calendar month', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 320);
    const fanPrice = fanPriceCents(320, salt());
    await fundWallet(app, fan.id, fanPrice + 10);

    const before = app.fanstage.clock.now();
    const { json } = await call('POST', `/api/subscription/subscribe/${offerId}`, fan, { priceCents: 320 });
    expect(json).toMatchObject({
      statusCode: 2,
      body: { offerId, offerUserId: creator.id, subscriberUserId: fan.id, subscriptionStatus: 21, status: 21, priceCents: 320, name: 'Monthly', payWith: 'credits', offerStatus: 'active', user: { id: creator.id } },
    });
    const expectedEnd = new Date(before);
    expectedEnd.setUTCMonth(expectedEnd.getUTCMonth() + 1);
    expect(Math.abs(json.body.subscriptionEndDate - expectedEnd.getTime())).toBeLessThan(5 * 24 * 60 * 60 * 1000);
    expect(json.body.subscriptionEndDate).toBeGreaterThan(before.getTime() + 27 * 24 * 60 * 60 * 1000);
    expect(await walletOf(app, fan.id)).toBe(10);
    expect(await earningsOf(app, creator.id)).toBe(320);
    expect(await notificationsOf(creator.id, 'subscriptionNewSubscriber')).toBe(1);
    await expectLedgerBalanced(app);

    const offers = await call('GET', `/api/subscription/offer?userId=${creator.id}`, fan);
    expect(offers.json.body[0]).toMatchObject({ activeSubscribersCount: 1, subscription: { id: json.body.id, subscriptionStatus: 21, subscriptionEndDate: json.body.subscriptionEndDate } });
    expect((await call('GET', `/api/subscription/${json.body.id}`, creator)).json.body.user.id).toBe(fan.id);
    const stranger = await createAccount(app);
    expect((await call('GET', `/api/subscription/${json.body.id}`, stranger)).json.statusText).toBe('subscription-not-found');
  });

  it('answers noMoney (402) and leaves nothing behind when the wallet is short', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 640);
    await fundWallet(app, fan.id, fanPriceCents(640, salt()) - 1);
    const { status, json } = await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {});
    expect(status).toBe(402);
    expect(json).toMatchObject({ statusCode: -1, statusText: 'noMoney' });
    expect(await walletOf(app, fan.id)).toBe(fanPriceCents(640, salt()) - 1);
    expect(await earningsOf(app, creator.id)).toBe(0);
    const rows = await app.fanstage.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, fan.id));
    expect(rows).toEqual([]);
    expect((await call('GET', '/api/subscription/subscribing', fan)).json.body).toEqual([]);
    await expectLedgerBalanced(app);
  });

  it('refuses a second subscription while one runs, one’s own offer, a changed price and offers across a block', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 320);
    const second = await offer(creator, 640, 'Platinum');
    await fundWallet(app, fan.id, 10_000);
    expect((await call('POST', `/api/subscription/subscribe/${offerId}`, fan, { priceCents: 160 })).json.statusText).toBe('price-changed');
    expect((await call('POST', `/api/subscription/subscribe/${offerId}`, creator, {})).json.statusCode).toBe(-1);

    const results = await Promise.all([1, 2, 3].map(() => call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})));
    expect(results.filter((r) => r.json.statusCode === 2)).toHaveLength(1);
    expect(results.filter((r) => r.json.statusText === 'already-subscribed')).toHaveLength(2);
    expect((await call('POST', `/api/subscription/subscribe/${second}`, fan, {})).json.statusText).toBe('already-subscribed');
    expect(await walletOf(app, fan.id)).toBe(10_000 - fanPriceCents(320, salt()));

    const blocked = await createAccount(app);
    await fundWallet(app, blocked.id, 10_000);
    expect((await call('POST', '/api/users/block', creator, { id: blocked.id })).json.statusCode).toBe(1);
    expect((await call('POST', `/api/subscription/subscribe/${offerId}`, blocked, {})).json.statusText).toBe('offer-not-found');
    expect(await walletOf(app, blocked.id)).toBe(10_000);
    await expectLedgerBalanced(app);
  });

  it('cancels until the end date and reverts the cancellation while the period lasts; only the subscriber may', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 160);
    await fundWallet(app, fan.id, 1000);
    const id = (await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.body.id as number;

    expect((await call('POST', '/api/subscription/cancel', creator, { id })).json.statusText).toBe('subscription-not-found');
    const cancelled = await call('POST', '/api/subscription/cancel', fan, { id });
    expect(cancelled.json.body).toMatchObject({ id, subscriptionStatus: 24 });
    expect(cancelled.json.body.subscriptionEndDate).toBeGreaterThan(app.fanstage.clock.now().getTime());
    expect((await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.statusText).toBe('already-subscribed');
    expect((await call('POST', '/api/subscription/revert-cancel', fan, { id })).json.body).toMatchObject({ id, subscriptionStatus: 21 });
    expect(await statusOf(id)).toBe(21);
    expect(await walletOf(app, fan.id)).toBe(1000 - fanPriceCents(160, salt()));
  });

  it('ends the subscription both ways when either side blocks', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const fan2 = await createAccount(app);
    const offerId = await offer(creator, 95);
    await fundWallet(app, fan.id, 1000);
    await fundWallet(app, fan2.id, 1000);
    const a = (await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.body.id as number;
    const b = (await call('POST', `/api/subscription/subscribe/${offerId}`, fan2, {})).json.body.id as number;
    expect((await call('POST', '/api/users/block', fan, { id: creator.id })).json.statusCode).toBe(1);
    expect((await call('POST', '/api/users/block', creator, { id: fan2.id })).json.statusCode).toBe(1);
    expect(await statusOf(a)).toBe(SubscriptionStatus.cancelled);
    expect(await statusOf(b)).toBe(SubscriptionStatus.cancelled);
    expect((await call('POST', '/api/subscription/revert-cancel', fan, { id: a })).json.statusCode).toBe(-1);
  });

  it('lists subscriptions and subscribers 30 a page with offset, and subscribers per offer', async () => {
    const fan = await createAccount(app);
    await fundWallet(app, fan.id, 100_000);
    const creators = await Promise.all(Array.from({ length: 32 }, () => createAccount(app, { seller: true })));
    const offerIds: number[] = [];
    for (const creator of creators) offerIds.push(await offer(creator, 32));
    for (const offerId of offerIds) expect((await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.statusCode).toBe(2);

    const first = await call('GET', '/api/subscription/subscribing', fan);
    const next = await call('GET', '/api/subscription/subscribing?offset=30', fan);
    expect(first.json.body).toHaveLength(30);
    expect(next.json.body).toHaveLength(2);
    const seen = new Set([...first.json.body, ...next.json.body].map((s: { offerId: number }) => s.offerId));
    expect(seen).toEqual(new Set(offerIds));
    expect(first.json.body[0].user.id).toBe(creators[31]!.id);

    const creator = creators[0]!;
    const extra = await offer(creator, 48, 'Second');
    const fans = await Promise.all(Array.from({ length: 31 }, () => createAccount(app)));
    for (const [i, someone] of fans.entries()) {
      await fundWallet(app, someone.id, 1000);
      expect((await call('POST', `/api/subscription/subscribe/${i % 2 === 0 ? offerIds[0] : extra}`, someone, {})).json.statusCode).toBe(2);
    }
    const page1 = await call('GET', '/api/subscription/subscribers', creator);
    const page2 = await call('GET', '/api/subscription/subscribers?offset=30', creator);
    expect(page1.json.body).toHaveLength(30);
    expect(page2.json.body).toHaveLength(2);
    expect(page1.json.body[0].user.id).toBe(fans[30]!.id);
    const ofExtra = await call('GET', `/api/subscription/subscribers?offerId=${extra}`, creator);
    expect(ofExtra.json.body).toHaveLength(15);
    expect(ofExtra.json.body.every((s: { offerId: number; name: string }) => s.offerId === extra && s.name === 'Second')).toBe(true);
    expect((await call('GET', '/api/subscription/subscribers', fan)).json.body).toEqual([]);
    await expectLedgerBalanced(app);
  });
});

describe('time', () => {
  it('keeps a cancelled subscription until its end date, then it expires and the creator is told', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 64);
    await fundWallet(app, fan.id, 1000);
    const id = (await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.body.id as number;
    await call('POST', '/api/subscription/cancel', fan, { id });
    await app.fanstage.jobs.runNow('subscription-renewals');
    expect(await statusOf(id)).toBe(SubscriptionStatus.cancelled);
    app.fanstage.clock.advance(MONTH_MS + 60_000);
    expect((await call('POST', '/api/subscription/revert-cancel', fan, { id })).json.statusCode).toBe(-1);
    await app.fanstage.jobs.runNow('subscription-renewals');
    expect(await statusOf(id)).toBe(SubscriptionStatus.expired);
    expect(await notificationsOf(creator.id, 'subscriptionSubscriberLost')).toBe(1);
    expect(await walletOf(app, fan.id)).toBe(1000 - fanPriceCents(64, salt()));
    // Expired, a new subscription may start.
    expect((await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.body.subscriptionStatus).toBe(21);
    await expectLedgerBalanced(app);
  });
});

describe('the API description', () => {
  it('documents the subscription routes and the card checkout answer', async () => {
    const response = await app.inject({ method: 'GET', url: '/papi/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json() as { paths: Record<string, unknown> };
    for (const path of ['/api/subscription/offer', '/papi/subscription/offer', '/api/subscription/subscribe/{offerId}', '/api/subscription/pay-new-card', '/api/subscription/pay-old-card', '/api/subscription/cancel', '/api/subscription/revert-cancel', '/api/subscription/subscribing', '/api/subscription/subscribers', '/api/subscription/{id}']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(JSON.stringify(doc.paths['/api/subscription/pay-new-card'])).toContain('redirectUrl');
  });
});

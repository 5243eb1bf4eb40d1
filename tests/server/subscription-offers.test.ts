import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SubscriptionStatus } from '../../lib/contract/constants';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { subscriptionOffers, subscriptions, users } from '../../server/src/db/schema';
import { createAccount, type TestAccount } from '../support/accounts';
import { eq } from '../support/db';
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

async function offer(creator: TestAccount, priceCents = 320, name = 'Monthly'): Promise<number> {
  const { json } = await call('POST', '/api/subscription/offer', creator, { name, priceCents });
  expect(json.statusCode).toBe(2);
  return json.body.id as number;
}

async function offersFlag(userId: number): Promise<boolean> {
  const [row] = await app.fanstage.db.select({ offers: users.offersSubscriptions }).from(users).where(eq(users.id, userId));
  return row!.offers;
}

async function offerRow(id: number) {
  const [row] = await app.fanstage.db.select().from(subscriptionOffers).where(eq(subscriptionOffers.id, id));
  return row!;
}

async function subscribeWithCredits(fan: TestAccount, offerId: number, priceCents: number) {
  await fundWallet(app, fan.id, fanPriceCents(priceCents, salt()));
  return call('POST', `/api/subscription/subscribe/${offerId}`, fan, { priceCents });
}

describe('editing an offer’s price', () => {
  it('takes a post-media price step; new subscribers pay the new price, those subscribed keep theirs', async () => {
    const creator = await createAccount(app, { seller: true });
    const early = await createAccount(app);
    const late = await createAccount(app);
    const id = await offer(creator, 320);
    const first = await subscribeWithCredits(early, id, 320);
    expect(first.json.body).toMatchObject({ priceCents: 320, subscriptionStatus: SubscriptionStatus.active });

    for (const priceCents of [0, 100, 13]) {
      const refused = await call('PUT', `/api/subscription/offer/${id}`, creator, { priceCents });
      expect(refused.json.statusCode).toBe(-1);
      expect(refused.status).toBe(400);
    }
    expect((await offerRow(id)).priceCents).toBe(320);

    const edited = await call('PUT', `/api/subscription/offer/${id}`, creator, { priceCents: 640 });
    expect(edited.json).toMatchObject({ statusCode: 2, body: { id, priceCents: 640, name: 'Monthly', offerStatus: 'active', activeSubscribersCount: 1 } });
    const renamed = await call('PUT', `/api/subscription/offer/${id}`, creator, { name: '  Gold  ' });
    expect(renamed.json.body).toMatchObject({ name: 'Gold', priceCents: 640 });
    expect((await call('PUT', `/api/subscription/offer/${id}`, creator, { name: '   ' })).json.statusText).toBe('invalid-request');

    // A fan shown the old price is told it changed; at the new price the creator earns it.
    await fundWallet(app, late.id, fanPriceCents(640, salt()));
    expect((await call('POST', `/api/subscription/subscribe/${id}`, late, { priceCents: 320 })).json.statusText).toBe('price-changed');
    const before = await earningsOf(app, creator.id);
    const second = await call('POST', `/api/subscription/subscribe/${id}`, late, { priceCents: 640 });
    expect(second.json.body).toMatchObject({ priceCents: 640 });
    expect(await earningsOf(app, creator.id)).toBe(before + 640);
    expect(await walletOf(app, late.id)).toBe(0);
    const [kept] = await app.fanstage.db.select({ price: subscriptions.priceCents }).from(subscriptions).where(eq(subscriptions.id, first.json.body.id));
    expect(kept!.price).toBe(320);
    await expectLedgerBalanced(app);
  });
});

describe('archiving an offer', () => {
  it('hides it from everyone but its creator and takes no new subscribers, while those subscribed keep it', async () => {
    const creator = await createAccount(app, { seller: true });
    const subscriber = await createAccount(app);
    const newcomer = await createAccount(app);
    const id = await offer(creator, 320);
    const held = await subscribeWithCredits(subscriber, id, 320);
    expect(held.json.statusCode).toBe(2);

    const archived = await call('POST', `/api/subscription/offer/${id}/archive`, creator);
    expect(archived.json).toMatchObject({ statusCode: 2, body: { id, offerStatus: 'archived', activeSubscribersCount: 1 } });
    expect((await offerRow(id)).archivedAt).not.toBeNull();
    // Archiving again changes nothing.
    expect((await call('POST', `/api/subscription/offer/${id}/archive`, creator)).json.body.offerStatus).toBe('archived');
    expect(await offersFlag(creator.id)).toBe(false);

    expect((await call('GET', `/papi/subscription/offer?userId=${creator.id}`)).json.body).toEqual([]);
    expect((await call('GET', `/api/subscription/offer?userId=${creator.id}`, newcomer)).json.body).toEqual([]);
    expect((await call('GET', `/api/subscription/offer?userId=${creator.id}`, creator)).json.body).toMatchObject([{ id, offerStatus: 'archived' }]);

    await fundWallet(app, newcomer.id, fanPriceCents(320, salt()));
    const refused = await call('POST', `/api/subscription/subscribe/${id}`, newcomer, {});
    expect([refused.status, refused.json.statusText]).toEqual([404, 'offer-not-found']);
    expect(await walletOf(app, newcomer.id)).toBe(fanPriceCents(320, salt()));

    // The subscriber goes on: a cancellation is taken back as before.
    const subscriptionId = held.json.body.id as number;
    expect((await call('POST', '/api/subscription/cancel', subscriber, { id: subscriptionId })).json.body.subscriptionStatus).toBe(SubscriptionStatus.cancelled);
    expect((await call('POST', '/api/subscription/revert-cancel', subscriber, { id: subscriptionId })).json.body.subscriptionStatus).toBe(SubscriptionStatus.active);
    expect((await call('GET', `/api/subscription/${subscriptionId}`, subscriber)).json.body.offerStatus).toBe('active');

    const restored = await call('POST', `/api/subscription/offer/${id}/restore`, creator);
    expect(restored.json.body).toMatchObject({ id, offerStatus: 'active' });
    expect(await offersFlag(creator.id)).toBe(true);
    expect((await call('GET', `/papi/subscription/offer?userId=${creator.id}`)).json.body).toMatchObject([{ id, offerStatus: 'active' }]);
    expect((await call('POST', `/api/subscription/subscribe/${id}`, newcomer, {})).json.body).toMatchObject({ subscriptionStatus: SubscriptionStatus.active });
    await expectLedgerBalanced(app);
  });

  it('can be deleted too; a deleted offer is neither edited, archived nor restored', async () => {
    const creator = await createAccount(app, { seller: true });
    const id = await offer(creator, 640);
    expect((await call('POST', `/api/subscription/offer/${id}/archive`, creator)).json.statusCode).toBe(2);
    expect((await call('DELETE', `/api/subscription/offer/${id}`, creator)).json).toEqual({ statusCode: 1 });
    for (const [method, url, body] of [
      ['PUT', `/api/subscription/offer/${id}`, { priceCents: 320 }],
      ['POST', `/api/subscription/offer/${id}/archive`, undefined],
      ['POST', `/api/subscription/offer/${id}/restore`, undefined],
      ['DELETE', `/api/subscription/offer/${id}`, undefined],
    ] as const) {
      const answer = await call(method, url, creator, body);
      expect([answer.status, answer.json.statusText]).toEqual([404, 'offer-not-found']);
    }
    expect((await call('GET', `/api/subscription/offer?userId=${creator.id}`, creator)).json.body).toEqual([]);
  });
});

describe('who may change an offer', () => {
  it('a stranger cannot edit, archive, restore or delete another’s offer, and nothing changes', async () => {
    const creator = await createAccount(app, { seller: true });
    const stranger = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const id = await offer(creator, 320);
    const archivedId = await offer(creator, 640, 'Archived');
    expect((await call('POST', `/api/subscription/offer/${archivedId}/archive`, creator)).json.statusCode).toBe(2);

    for (const who of [stranger, fan]) {
      for (const [method, url, body] of [
        ['PUT', `/api/subscription/offer/${id}`, { priceCents: 1920, name: 'Mine now' }],
        ['POST', `/api/subscription/offer/${id}/archive`, undefined],
        ['POST', `/api/subscription/offer/${archivedId}/restore`, undefined],
        ['DELETE', `/api/subscription/offer/${id}`, undefined],
      ] as const) {
        const answer = await call(method, url, who, body);
        expect(answer.json.statusCode).toBeLessThan(0);
        // A fan is no seller (verify-required, -2) for a change that needs one; otherwise the offer is not theirs.
        expect(['offer-not-found', 'verify-required']).toContain(answer.json.statusText);
      }
    }
    const [open, archived] = [await offerRow(id), await offerRow(archivedId)];
    expect(open).toMatchObject({ priceCents: 320, name: 'Monthly', archivedAt: null, deletedAt: null });
    expect(archived.archivedAt).not.toBeNull();
    expect(archived.deletedAt).toBeNull();
  });

  it('a visitor gets 401, a non-seller verify-required (-2) to edit, and bad input the envelope', async () => {
    const creator = await createAccount(app, { seller: true });
    const id = await offer(creator, 320);
    for (const [method, url] of [
      ['PUT', `/api/subscription/offer/${id}`],
      ['POST', `/api/subscription/offer/${id}/archive`],
      ['POST', `/api/subscription/offer/${id}/restore`],
    ] as const) {
      const answer = await call(method, url, undefined, method === 'PUT' ? { priceCents: 640 } : undefined);
      expect([answer.status, answer.json.statusCode]).toEqual([401, -1]);
    }
    // A creator who is no seller any more cannot change prices (SPEC §5) but may still withdraw.
    await app.fanstage.db.update(users).set({ isSeller: false }).where(eq(users.id, creator.id));
    const unverified = await call('PUT', `/api/subscription/offer/${id}`, creator, { priceCents: 640 });
    expect([unverified.json.statusCode, unverified.json.statusText]).toEqual([-2, 'verify-required']);
    expect((await call('POST', `/api/subscription/offer/${id}/archive`, creator)).json.body.offerStatus).toBe('archived');
    expect((await call('POST', `/api/subscription/offer/${id}/restore`, creator)).json.statusCode).toBe(-2);
    await app.fanstage.db.update(users).set({ isSeller: true }).where(eq(users.id, creator.id));

    for (const [url, body] of [
      [`/api/subscription/offer/${id}`, { priceCents: 'x' }],
      [`/api/subscription/offer/${id}`, { priceCents: 2.5 }],
      [`/api/subscription/offer/${id}`, { name: 'x'.repeat(61) }],
      ['/api/subscription/offer/abc', { priceCents: 640 }],
      ['/api/subscription/offer/0', { priceCents: 640 }],
    ] as const) {
      const answer = await call('PUT', url, creator, body);
      expect([answer.status, answer.json.statusCode]).toEqual([400, -1]);
    }
    expect((await call('POST', '/api/subscription/offer/abc/archive', creator)).json.statusCode).toBe(-1);
    expect((await offerRow(id)).priceCents).toBe(320);
  });

  it('answers invalid-request to an edit with nothing to change, and the offer stays as it was', async () => {
    const creator = await createAccount(app, { seller: true });
    const id = await offer(creator, 320, 'Monthly');
    // Unknown fields are no change either: the body names neither a price nor a name.
    for (const body of [{}, { colour: 'gold' }]) {
      const answer = await call('PUT', `/api/subscription/offer/${id}`, creator, body);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ statusCode: -1, statusText: 'invalid-request', body: { location: 'body', field: null, reason: 'nothing to change: give priceCents or name' } });
    }
    expect(await offerRow(id)).toMatchObject({ priceCents: 320, name: 'Monthly' });
  });
});

describe('the demo creators', () => {
  it('are seeded with their offers, shown to visitors at post-media price steps', async () => {
    const seeded = await startTestServer();
    try {
      const visitor = apiCaller(() => seeded.app);
      const profile = await visitor('GET', '/papi/users/lucy.rivers');
      expect(profile.json.body.offersSubscriptions).toBe(true);
      const offers = await visitor('GET', `/papi/subscription/offer?userId=${profile.json.body.id}`);
      expect(offers.json.body).toMatchObject([{ name: 'Monthly', priceCents: 640, offerStatus: 'active' }]);
    } finally {
      await seeded.close();
    }
  });
});

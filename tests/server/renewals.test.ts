import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SubscriptionStatus } from '../../lib/contract/constants';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { ledgerTransfers, media, notifications, paymentOrders, subscriptions } from '../../server/src/db/schema';
import { CREDITS_RENEWAL_RETRY_MS, RENEWAL_GRACE_MS } from '../../server/src/features/subscriptions/domain';
import { createAccount, type TestAccount } from '../support/accounts';
import { and, eq, sql } from '../support/db';
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
const DAY_MS = 24 * 60 * 60 * 1000;
/** Longer than any calendar month: a period has surely ended. */
const MONTH_MS = 31 * DAY_MS + 60_000;
const renewals = () => app.fanstage.jobs.runNow('subscription-renewals');

async function offer(creator: TestAccount, priceCents: number): Promise<number> {
  const { json } = await call('POST', '/api/subscription/offer', creator, { name: 'Monthly', priceCents });
  expect(json.statusCode).toBe(2);
  return json.body.id as number;
}

async function rowOf(id: number) {
  const [row] = await app.fanstage.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row!;
}

async function notificationsOf(userId: number, type: string): Promise<number> {
  const rows = await app.fanstage.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
  return rows.length;
}

async function ordersOf(subscriptionId: number) {
  return app.fanstage.db.select().from(paymentOrders).where(eq(paymentOrders.subscriptionId, subscriptionId));
}

/** Ledger payments of a subscription (not counting the card top-ups that fund them). */
async function paymentsOf(subscriptionId: number) {
  return app.fanstage.db
    .select({ key: ledgerTransfers.idempotencyKey })
    .from(ledgerTransfers)
    .where(and(eq(ledgerTransfers.kind, 'subscription'), sql`${ledgerTransfers.meta}->>'subscriptionId' = ${String(subscriptionId)}`));
}

/**
 * Pays an order on the sandbox's card page over HTTP, as a fan's browser would: the form is
 * posted with the card, the page calls the platform back (signed) and sends the fan on (303).
 */
async function payOnCheckoutPage(redirectUrl: string, number: string): Promise<void> {
  const page = new URL(redirectUrl);
  expect(page.origin).toBe(server.baseUrl);
  const form = await fetch(redirectUrl);
  expect(form.status).toBe(200);
  expect(await form.text()).toContain('<form');
  const response = await fetch(`${page.origin}${page.pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ sig: page.searchParams.get('sig')!, lang: 'en', number, expiry: '12/40', cvc: '123', name: 'Fan Tester' }).toString(),
  });
  await response.arrayBuffer();
  expect(response.status).toBe(303);
}

/** Subscribes `fan` to `offerId` with a new card paid on the sandbox's page; answers the subscription id. */
async function subscribeByNewCard(fan: TestAccount, offerId: number, number: string): Promise<number> {
  const started = await call('POST', '/api/subscription/pay-new-card', fan, { offerId });
  expect(started.json.statusCode).toBe(2);
  expect(started.json.body.subscription.subscriptionStatus).toBe(SubscriptionStatus.processing);
  expect(started.json.body.order).toMatchObject({ purpose: 'subscription', status: 'created', subscriptionId: started.json.body.subscription.id });
  await payOnCheckoutPage(started.json.body.order.redirectUrl as string, number);
  return started.json.body.subscription.id as number;
}

describe('renewals from the wallet', () => {
  it('renews an active subscription once a period, retries a failed one, and expires it after the grace', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 320);
    const fanPrice = fanPriceCents(320, salt());
    await fundWallet(app, fan.id, 2 * fanPrice);
    const id = (await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.body.id as number;
    const firstEnd = (await rowOf(id)).periodEnd!;
    expect(await walletOf(app, fan.id)).toBe(fanPrice);

    // Nothing is due before the end date.
    await renewals();
    expect((await rowOf(id)).periodsPaid).toBe(1);

    app.fanstage.clock.advance(MONTH_MS);
    await renewals();
    await renewals();
    const renewed = await rowOf(id);
    expect(renewed).toMatchObject({ status: SubscriptionStatus.active, periodsPaid: 2 });
    expect(renewed.periodEnd!.getTime()).toBeGreaterThan(app.fanstage.clock.now().getTime());
    const expected = new Date(firstEnd);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(Math.abs(renewed.periodEnd!.getTime() - expected.getTime())).toBeLessThanOrEqual(3 * DAY_MS);
    expect(await walletOf(app, fan.id)).toBe(0);
    expect(await earningsOf(app, creator.id)).toBe(640);
    expect((await paymentsOf(id)).map((p) => p.key).sort()).toEqual([`subscription:${id}:1`, `subscription:${id}:2`]);
    await expectLedgerBalanced(app);

    // The next period finds the wallet empty: 23, still the fan's until the end date and the grace.
    app.fanstage.clock.advance(MONTH_MS);
    await renewals();
    await renewals();
    expect(await rowOf(id)).toMatchObject({ status: SubscriptionStatus.paymentFailed, periodsPaid: 2 });
    expect(await notificationsOf(fan.id, 'subscriptionPaymentFailed')).toBe(1);
    expect((await call('GET', `/api/subscription/${id}`, fan)).json.body.subscriptionStatus).toBe(SubscriptionStatus.paymentFailed);

    // A top-up during the grace renews it at the next retry, within the hour.
    await fundWallet(app, fan.id, fanPrice);
    await renewals();
    expect((await rowOf(id)).status).toBe(SubscriptionStatus.paymentFailed);
    app.fanstage.clock.advance(CREDITS_RENEWAL_RETRY_MS);
    await renewals();
    expect(await rowOf(id)).toMatchObject({ status: SubscriptionStatus.active, periodsPaid: 3 });
    expect(await earningsOf(app, creator.id)).toBe(960);

    // Empty again at the next period, and still empty after the grace: expired, both are told.
    app.fanstage.clock.advance(MONTH_MS);
    await renewals();
    expect((await rowOf(id)).status).toBe(SubscriptionStatus.paymentFailed);
    app.fanstage.clock.advance(RENEWAL_GRACE_MS);
    await renewals();
    expect((await rowOf(id)).status).toBe(SubscriptionStatus.expired);
    expect(await notificationsOf(fan.id, 'subscriptionExpiredDuePayment')).toBe(1);
    expect(await notificationsOf(creator.id, 'subscriptionSubscriberLost')).toBe(1);
    expect(await earningsOf(app, creator.id)).toBe(960);
    await expectLedgerBalanced(app);
  });

  it('lets a cancelled subscription run to its end date, then expires it without charging', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 95);
    await fundWallet(app, fan.id, 1000);
    const id = (await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.body.id as number;
    expect((await call('POST', '/api/subscription/cancel', fan, { id })).json.body.subscriptionStatus).toBe(SubscriptionStatus.cancelled);
    app.fanstage.clock.advance(MONTH_MS);
    await renewals();
    expect(await rowOf(id)).toMatchObject({ status: SubscriptionStatus.expired, periodsPaid: 1 });
    expect(await walletOf(app, fan.id)).toBe(1000 - fanPriceCents(95, salt()));
    expect(await notificationsOf(creator.id, 'subscriptionSubscriberLost')).toBe(1);
    expect(await notificationsOf(fan.id, 'subscriptionExpiredDuePayment')).toBe(0);
  });
  it('lets a fan whose renewal failed subscribe again: the same subscription is paid and continues', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 128);
    const fanPrice = fanPriceCents(128, salt());
    await fundWallet(app, fan.id, fanPrice);
    const id = (await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.body.id as number;
    const firstEnd = (await rowOf(id)).periodEnd!;
    app.fanstage.clock.advance(MONTH_MS);
    await renewals();
    expect((await rowOf(id)).status).toBe(SubscriptionStatus.paymentFailed);
    expect((await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).status).toBe(402);
    expect((await rowOf(id)).status).toBe(SubscriptionStatus.paymentFailed);

    await fundWallet(app, fan.id, fanPrice);
    const again = await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {});
    expect(again.json.body).toMatchObject({ id, subscriptionStatus: SubscriptionStatus.active });
    const row = await rowOf(id);
    expect(row.periodsPaid).toBe(2);
    expect(row.periodEnd!.getTime()).toBeGreaterThan(firstEnd.getTime());
    expect(await walletOf(app, fan.id)).toBe(0);
    expect(await earningsOf(app, creator.id)).toBe(256);
    // The creator was told of the new subscriber once, not again for the continuation.
    expect(await notificationsOf(creator.id, 'subscriptionNewSubscriber')).toBe(1);
    await expectLedgerBalanced(app);
  });
});

describe('renewals by card', () => {
  it('charges a first card payment at the first-month discount of the link that brought the fan, and renews at the full price', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 320);
    const link = await call('POST', '/api/links', creator, { name: 'Half off', discount: { offerId, percent: 50 } });
    expect(link.json.statusCode).toBe(2);
    expect((await call('POST', '/papi/links/visit', fan, { username: creator.username, code: link.json.body.code })).json.body.discount).toMatchObject({ percent: 50, firstMonthCents: 160 });
    const id = await subscribeByNewCard(fan, offerId, '4242424242424242');
    const [first] = await ordersOf(id);
    expect(first).toMatchObject({ status: 'paid', amount: fanPriceCents(160, salt()) });
    expect(await rowOf(id)).toMatchObject({ status: SubscriptionStatus.active, periodsPaid: 1, priceCents: 320 });
    expect(await walletOf(app, fan.id)).toBe(0);
    expect(await earningsOf(app, creator.id)).toBe(160);

    app.fanstage.clock.advance(MONTH_MS);
    await renewals();
    await renewals();
    expect(await rowOf(id)).toMatchObject({ status: SubscriptionStatus.active, periodsPaid: 2 });
    expect((await ordersOf(id)).map((o) => o.amount).sort((a, b) => a - b)).toEqual([fanPriceCents(160, salt()), fanPriceCents(320, salt())]);
    expect(await earningsOf(app, creator.id)).toBe(160 + 320);
    await expectLedgerBalanced(app);
  });

  it('subscribes with a new card on the processor’s page and renews from the saved card once a period', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 320);
    const id = await subscribeByNewCard(fan, offerId, '4242424242424242');
    const paid = await rowOf(id);
    expect(paid).toMatchObject({ status: SubscriptionStatus.active, payWith: 'card', periodsPaid: 1 });
    expect(paid.cardId).not.toBeNull();
    expect(await walletOf(app, fan.id)).toBe(0);
    expect(await earningsOf(app, creator.id)).toBe(320);
    expect(await notificationsOf(creator.id, 'subscriptionNewSubscriber')).toBe(1);

    app.fanstage.clock.advance(MONTH_MS);
    await renewals();
    await renewals();
    expect(await rowOf(id)).toMatchObject({ status: SubscriptionStatus.active, periodsPaid: 2 });
    expect((await ordersOf(id)).map((o) => o.status).sort()).toEqual(['paid', 'paid']);
    expect(await walletOf(app, fan.id)).toBe(0);
    expect(await earningsOf(app, creator.id)).toBe(640);
    await expectLedgerBalanced(app);

    // The saved card pays another creator's offer at once.
    const other = await createAccount(app, { seller: true });
    const otherOffer = await offer(other, 160);
    const charged = await call('POST', '/api/subscription/pay-old-card', fan, { offerId: otherOffer, cardId: paid.cardId });
    expect(charged.json).toMatchObject({ statusCode: 2, body: { subscription: { subscriptionStatus: SubscriptionStatus.active, payWith: 'card' }, order: { status: 'paid' } } });
    expect(await earningsOf(app, other.id)).toBe(160);
    expect((await call('POST', '/api/subscription/pay-old-card', fan, { offerId: otherOffer, cardId: paid.cardId })).json.statusText).toBe('already-subscribed');
    const stranger = await createAccount(app);
    expect((await call('POST', '/api/subscription/pay-old-card', stranger, { offerId: otherOffer, cardId: paid.cardId })).json.statusText).toBe('card-not-found');
    await expectLedgerBalanced(app);
  });

  it('fails the renewal of a card that declines later (4000000000000341): 23, retried daily, expired after the grace', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 640);
    const id = await subscribeByNewCard(fan, offerId, '4000000000000341');
    expect(await rowOf(id)).toMatchObject({ status: SubscriptionStatus.active, payWith: 'card', periodsPaid: 1 });
    expect(await earningsOf(app, creator.id)).toBe(640);

    app.fanstage.clock.advance(MONTH_MS);
    await renewals();
    await renewals();
    expect(await rowOf(id)).toMatchObject({ status: SubscriptionStatus.paymentFailed, periodsPaid: 1 });
    expect(await notificationsOf(fan.id, 'subscriptionPaymentFailed')).toBe(1);
    expect((await ordersOf(id)).map((o) => o.status).sort()).toEqual(['declined', 'paid']);

    // Retried once a day during the grace.
    app.fanstage.clock.advance(DAY_MS);
    await renewals();
    await renewals();
    expect((await ordersOf(id)).map((o) => o.status).sort()).toEqual(['declined', 'declined', 'paid']);
    expect((await rowOf(id)).status).toBe(SubscriptionStatus.paymentFailed);
    expect(await notificationsOf(fan.id, 'subscriptionPaymentFailed')).toBe(1);

    app.fanstage.clock.advance(RENEWAL_GRACE_MS);
    await renewals();
    expect((await rowOf(id)).status).toBe(SubscriptionStatus.expired);
    expect(await notificationsOf(fan.id, 'subscriptionExpiredDuePayment')).toBe(1);
    expect(await notificationsOf(creator.id, 'subscriptionSubscriberLost')).toBe(1);
    expect(await earningsOf(app, creator.id)).toBe(640);
    expect(await walletOf(app, fan.id)).toBe(0);
    await expectLedgerBalanced(app);
  });

  it('keeps a late card payment in the fan’s wallet when the offer was withdrawn meanwhile', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 192);
    const started = await call('POST', '/api/subscription/pay-new-card', fan, { offerId });
    const id = started.json.body.subscription.id as number;
    expect((await call('DELETE', `/api/subscription/offer/${offerId}`, creator)).json.statusCode).toBe(1);
    expect((await rowOf(id)).status).toBe(SubscriptionStatus.expired);
    await payOnCheckoutPage(started.json.body.order.redirectUrl as string, '4242424242424242');
    expect((await ordersOf(id))[0]!.status).toBe('paid');
    expect(await rowOf(id)).toMatchObject({ status: SubscriptionStatus.expired, periodsPaid: 0 });
    expect(await walletOf(app, fan.id)).toBe(fanPriceCents(192, salt()));
    expect(await earningsOf(app, creator.id)).toBe(0);
    await expectLedgerBalanced(app);
  });

  it('leaves a declined first card payment waiting, then gives it up a day later without an end date', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const offerId = await offer(creator, 48);
    const id = await subscribeByNewCard(fan, offerId, '4000000000000002');
    expect(await rowOf(id)).toMatchObject({ status: SubscriptionStatus.waitingPayment, periodsPaid: 0, periodEnd: null });
    expect(await earningsOf(app, creator.id)).toBe(0);
    app.fanstage.clock.advance(DAY_MS + 60_000);
    await renewals();
    expect((await rowOf(id)).status).toBe(SubscriptionStatus.expired);
    expect((await call('GET', '/api/subscription/subscribing', fan)).json.body).toEqual([]);
    expect(await notificationsOf(creator.id, 'subscriptionSubscriberLost')).toBe(0);
  });
});

describe('what a subscription opens', () => {
  it('shows the creator’s priced post media to an active subscriber', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const [photo] = await app.fanstage.db
      .insert(media)
      .values({ hash: `renewals-${process.pid}-${Date.now()}`, ownerId: creator.id, kind: 'post', format: 'webp', width: 800, height: 1000, status: 3, aspectRatio: 0.8 })
      .returning({ id: media.id });
    const posted = await call('POST', '/api/posts', creator, { mediaIds: [photo!.id], price: 320 });
    expect(posted.json.statusCode).toBe(2);
    const postId = posted.json.body.id as number;
    const hashOf = async () => JSON.stringify((await call('GET', `/api/posts/${postId}`, fan)).json.body).match(/"mediaUnlockHash":("[^"]+"|null)/)?.[1];
    expect(await hashOf()).toBe('null');

    const offerId = await offer(creator, 95);
    // Exactly one month's price: nothing is left for the renewal.
    await fundWallet(app, fan.id, fanPriceCents(95, app.fanstage.config.priceSalt));
    expect((await call('POST', `/api/subscription/subscribe/${offerId}`, fan, {})).json.statusCode).toBe(2);
    expect(await hashOf()).toMatch(/^"[^"]+"$/);
    expect(await walletOf(app, fan.id)).toBe(0);

    // The wallet is empty at renewal: the failed renewal keeps the media open through the grace, then closes them.
    app.fanstage.clock.advance(32 * DAY_MS);
    await renewals();
    expect(await hashOf()).toMatch(/^"[^"]+"$/);
    app.fanstage.clock.advance(4 * DAY_MS);
    await renewals();
    expect(await hashOf()).toBe('null');
  });
});

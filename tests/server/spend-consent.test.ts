import { randomBytes } from 'node:crypto';
import { socketProtocols } from '../../lib/contract/realtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import type { Answer } from '../support/inject';
import { SocketClient, closeSockets } from '../support/sockets';
import { eq } from '../support/db';
import { paymentCards, paymentOrders } from '../../server/src/db/schema';
import { LIMIT_RAISE_DELAY_MS } from '../../server/src/ledger';
import { attempt, setMessagePrice } from './support-chat';

/**
 * Money moves only on the fan's word (docs/spending.md), tried as the page of a site he allowed
 * once would try it with the widget token it holds: no card charged, no spend beyond the
 * allowance he gave the site without his click on the platform, his own limits and cool-down
 * holding on the platform and on every site alike.
 */
let server: TestServer;
const app = () => server.app;
const site = 'https://fan-club.example';
const otherSite = 'https://second-club.example';

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  closeSockets();
  await server.close();
});

interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  token: string;
  origin?: string;
  confirmation?: string;
  payload?: unknown;
}

async function call({ method = 'GET', url, token, origin, confirmation, payload }: Call): Promise<Answer> {
  const response = await app().inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(origin ? { origin } : {}), ...(confirmation ? { 'fanstage-confirmation': confirmation } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return response.json() as Answer;
}

/** The fan allows `origin` in the popup (with `allowance` credits a month) and the widget exchanges its code. */
async function widgetToken(fan: TestAccount, origin: string, allowance?: number): Promise<string> {
  const issued = await call({ method: 'POST', url: '/api/embed/code', token: fan.accessToken, payload: { origin, allow: true, ...(allowance === undefined ? {} : { allowance }) } });
  expect(issued.statusCode).toBe(2);
  const response = await app().inject({ method: 'POST', url: '/papi/embed/exchange', headers: { origin }, payload: { code: issued.body.code, origin } });
  return (response.json() as Answer).body.accessToken as string;
}

let creatorId = 0;
let giftId = 0;
let giftValue = 0;
let packageId = 0;
beforeAll(async () => {
  const lucy = (await app().inject({ url: '/papi/users/lucy.rivers' })).json() as Answer;
  creatorId = lucy.body.id;
  const gifts = ((await app().inject({ url: '/papi/gifts' })).json() as Answer).body as { id: number; gValue: number }[];
  const cheapest = [...gifts].sort((a, b) => a.gValue - b.gValue)[0]!;
  giftId = cheapest.id;
  giftValue = cheapest.gValue;
});

const tip = (token: string, origin?: string, confirmation?: string, idempotencyKey = randomBytes(8).toString('hex')) =>
  call({ method: 'POST', url: '/api/users/tip', token, origin, confirmation, payload: { userId: creatorId, giftId, idempotencyKey } });

async function ordersOf(userId: number) {
  return app().fanstage.db.select().from(paymentOrders).where(eq(paymentOrders.userId, userId));
}

/** A saved card for the fan, as a paid order with `saveCard` leaves it. */
async function savedCard(userId: number): Promise<number> {
  const [card] = await app()
    .fanstage.db.insert(paymentCards)
    .values({ userId, processor: 'sandbox', token: `sbx_ok_${randomBytes(12).toString('hex')}`, brand: 'Visa', last4: '4242', expMonth: 12, expYear: 2040 })
    .returning({ id: paymentCards.id });
  return card!.id;
}

describe('cards are charged only on the platform’s own page', () => {
  it('refuses every card-charging and card-subscription route to a widget token, and pays a site’s request only in the card window', async () => {
    const fan = await createAccount(app());
    const cardId = await savedCard(fan.id);
    const packages = await call({ url: '/api/payments/packages', token: fan.accessToken });
    packageId = packages.body[0].id;
    const offers = await call({ url: `/api/subscription/offer?userId=${creatorId}`, token: fan.accessToken });
    const offerId = offers.body[0].id as number;
    const widget = await widgetToken(fan, site, 100_000);

    const asWidget = (url: string, payload: unknown, confirmation?: string) => call({ method: 'POST', url, token: widget, origin: site, confirmation, payload });
    const attempts: [string, unknown, string][] = [
      ['/api/payments/pay-old-card', { packageId, cardId }, 'topup'],
      ['/api/payments/pay-new-card', { packageId, processor: 'sandbox', saveCard: true }, 'topup'],
      ['/api/subscription/pay-old-card', { offerId, cardId }, 'subscription-card'],
      ['/api/subscription/pay-new-card', { offerId }, 'subscription-card'],
    ];
    for (const [url, payload, kind] of attempts) {
      const refused = await asWidget(url, payload);
      expect({ url, refused }).toMatchObject({ url, refused: { statusCode: -1, statusText: 'confirmation-required', body: { kind } } });
      // Twice, as the page that drained cards did: still nothing.
      expect((await asWidget(url, payload)).statusText).toBe('confirmation-required');
    }
    for (const url of ['/api/payments/order', '/api/payments/gopaybuy']) expect((await asWidget(url, { packageId })).statusText).toBe('widget-scope');
    // A forged confirmation charges nothing either.
    expect((await asWidget('/api/payments/pay-old-card', { packageId, cardId }, randomBytes(16).toString('base64url'))).statusText).toBe('confirmation-invalid');
    expect(await ordersOf(fan.id)).toEqual([]);
    expect(await walletOf(app(), fan.id)).toBe(0);

    // The fan pays the site's request in the platform's card window, with his own session, once.
    const request = await asWidget('/api/payments/pay-old-card', { packageId, cardId });
    const requestId = request.body.id as string;
    // Neither the site's widget nor a stranger can pay or confirm it for him.
    expect((await call({ method: 'POST', url: `/api/spend-requests/${requestId}/confirm`, token: widget, origin: site })).statusText).toBe('widget-scope');
    const stranger = await createAccount(app());
    expect((await call({ url: `/api/spend-requests/${requestId}`, token: stranger.accessToken })).statusText).toBe('not-found');
    expect((await call({ method: 'POST', url: '/api/payments/pay-old-card', token: stranger.accessToken, payload: { packageId, cardId: await savedCard(stranger.id), spendRequestId: requestId } })).statusText).toBe(
      'confirmation-invalid',
    );
    const shown = await call({ url: `/api/spend-requests/${requestId}`, token: fan.accessToken });
    expect(shown.body).toMatchObject({ kind: 'topup', origin: site, status: 'pending', details: { packageId, cardId } });
    const paid = await call({ method: 'POST', url: '/api/payments/pay-old-card', token: fan.accessToken, payload: { packageId, cardId, spendRequestId: requestId } });
    expect(paid.body.status).toBe('paid');
    expect((await call({ url: `/api/spend-requests/${requestId}`, token: widget, origin: site })).body.status).toBe('completed');
    // Paid once: the window cannot pay the same request again.
    expect((await call({ method: 'POST', url: '/api/payments/pay-old-card', token: fan.accessToken, payload: { packageId, cardId, spendRequestId: requestId } })).statusText).toBe('confirmation-invalid');
    // The widget, sending its top-up again with the request, learns the order; nothing more is charged.
    const answered = await asWidget('/api/payments/pay-old-card', { packageId, cardId }, requestId);
    expect(answered.body).toMatchObject({ id: paid.body.id, status: 'paid' });
    expect((await asWidget('/api/payments/pay-old-card', { packageId, cardId }, requestId)).body.id).toBe(paid.body.id);
    expect((await ordersOf(fan.id)).filter((order) => order.status === 'paid')).toHaveLength(1);

    // A card subscription the same way: the window subscribes him, the widget learns the subscription.
    const asked = await asWidget('/api/subscription/pay-old-card', { offerId, cardId });
    expect((await call({ url: `/api/spend-requests/${asked.body.id}`, token: fan.accessToken })).body).toMatchObject({ kind: 'subscription-card', creator: { id: creatorId } });
    // A request for a top-up cannot pay a subscription, nor one for a subscription a top-up.
    const topUpAsked = await asWidget('/api/payments/pay-old-card', { packageId, cardId });
    expect((await call({ method: 'POST', url: '/api/subscription/pay-old-card', token: fan.accessToken, payload: { offerId, cardId, spendRequestId: topUpAsked.body.id } })).statusText).toBe('confirmation-invalid');
    expect((await call({ method: 'POST', url: '/api/payments/pay-old-card', token: fan.accessToken, payload: { packageId, cardId, spendRequestId: asked.body.id } })).statusText).toBe('confirmation-invalid');
    const subscribed = await call({ method: 'POST', url: '/api/subscription/pay-old-card', token: fan.accessToken, payload: { offerId, cardId, spendRequestId: asked.body.id } });
    expect(subscribed.body.order.status).toBe('paid');
    const learned = await asWidget('/api/subscription/pay-old-card', { offerId, cardId }, asked.body.id);
    expect(learned.body).toMatchObject({ order: { id: subscribed.body.order.id, status: 'paid' }, subscription: { id: subscribed.body.subscription.id } });
    await expectLedgerBalanced(app());
  });
});

describe('a widget’s spend is the fan’s to confirm', () => {
  it('asks by default, moves nothing on cancel, and spends once on the confirmation', async () => {
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 10_000);
    const widget = await widgetToken(fan, site);

    const asked = await tip(widget, site);
    expect(asked).toMatchObject({ statusCode: -1, statusText: 'confirmation-required', body: { kind: 'gift', amount: giftValue } });
    expect(asked.body.url).toMatch(/\/embed\/confirm\?request=/);
    const shown = await call({ url: `/api/spend-requests/${asked.body.id}`, token: fan.accessToken });
    expect(shown.body).toMatchObject({ origin: site, amount: giftValue, status: 'pending', creator: { id: creatorId, username: 'lucy.rivers' } });

    // Cancelled: nothing moves, and the request cannot be used.
    expect((await call({ method: 'POST', url: `/api/spend-requests/${asked.body.id}/cancel`, token: fan.accessToken })).body.status).toBe('cancelled');
    expect((await tip(widget, site, asked.body.id)).statusText).toBe('confirmation-invalid');
    expect(await walletOf(app(), fan.id)).toBe(10_000);

    // Confirmed: the same tip sent again with it spends once, and a replay of it is the same tip.
    const again = await tip(widget, site);
    expect((await call({ method: 'POST', url: `/api/spend-requests/${again.body.id}/confirm`, token: fan.accessToken })).body.status).toBe('confirmed');
    const key = randomBytes(8).toString('hex');
    expect((await tip(widget, site, again.body.id, key)).body.gBalance).toBe(10_000 - giftValue);
    expect((await tip(widget, site, again.body.id, key)).body.gBalance).toBe(10_000 - giftValue);
    // Used up: another tip with the same confirmation is refused.
    expect((await tip(widget, site, again.body.id)).statusText).toBe('confirmation-invalid');
    expect(await walletOf(app(), fan.id)).toBe(10_000 - giftValue);

    // A confirmation is for what it named: not for another creator's tip, nor from another site.
    const third = await tip(widget, site);
    await call({ method: 'POST', url: `/api/spend-requests/${third.body.id}/confirm`, token: fan.accessToken });
    const other = await widgetToken(fan, otherSite);
    expect((await tip(other, otherSite, third.body.id)).statusText).toBe('confirmation-invalid');
    const receipts = await call({ url: `/api/embed/consents/spends?origin=${encodeURIComponent(site)}`, token: fan.accessToken });
    expect(receipts.body).toMatchObject({ origin: site, allowance: 0, spentThisMonth: giftValue, receipts: [{ kind: 'gift', amount: giftValue, confirmed: true, origin: site, creator: { id: creatorId } }] });
  });

  it('lets 50 parallel widget spends pass at most the allowance the fan set for the site', async () => {
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 100_000);
    const allowance = giftValue * 7 + Math.floor(giftValue / 2);
    const widget = await widgetToken(fan, site, allowance);
    const answers = await Promise.all(Array.from({ length: 50 }, () => tip(widget, site)));
    const paid = answers.filter((a) => a.statusCode === 2);
    expect(paid).toHaveLength(7);
    expect(answers.filter((a) => a.statusText === 'confirmation-required')).toHaveLength(43);
    expect(await walletOf(app(), fan.id)).toBe(100_000 - 7 * giftValue);
    const consents = await call({ url: '/api/embed/consents', token: fan.accessToken });
    expect(consents.body).toEqual([expect.objectContaining({ origin: site, allowance, spentThisMonth: 7 * giftValue })]);
    // A raised allowance lets the next one go without asking; the widget cannot raise it itself.
    expect((await call({ method: 'PUT', url: '/api/embed/consents', token: widget, origin: site, payload: { origin: site, allowance: 1_000_000 } })).statusText).toBe('widget-scope');
    expect((await call({ method: 'PUT', url: '/api/embed/consents', token: fan.accessToken, payload: { origin: site, allowance: allowance + giftValue } })).body.allowance).toBe(allowance + giftValue);
    expect((await tip(widget, site)).statusCode).toBe(2);
    await expectLedgerBalanced(app());
  });
});

describe('the fan’s own limits', () => {
  it('holds a daily limit across the platform and two partner sites, whatever runs at once', async () => {
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 100_000);
    const limit = giftValue * 5;
    expect((await call({ method: 'PUT', url: '/api/spending/limits', token: fan.accessToken, payload: { daily: limit } })).body).toMatchObject({ daily: limit, pendingDaily: null });
    const one = await widgetToken(fan, site, 100_000);
    const two = await widgetToken(fan, otherSite, 100_000);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? tip(fan.accessToken) : i % 3 === 1 ? tip(one, site) : tip(two, otherSite))),
    );
    expect(answers.filter((a) => a.statusCode === 2)).toHaveLength(5);
    expect(answers.filter((a) => a.statusText === 'spending-limit')).toHaveLength(25);
    expect(await walletOf(app(), fan.id)).toBe(100_000 - limit);
    const refused = answers.find((a) => a.statusText === 'spending-limit')!;
    expect(refused.body).toMatchObject({ period: 'day', limit });
    const receipts = await call({ url: '/api/spending/receipts', token: fan.accessToken });
    expect((receipts.body as { amount: number }[]).reduce((sum, r) => sum + r.amount, 0)).toBe(limit);
  });

  it('lowers a limit at once and raises it only after 24 hours', async () => {
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 100_000);
    const clock = app().fanstage.clock;
    await call({ method: 'PUT', url: '/api/spending/limits', token: fan.accessToken, payload: { daily: giftValue, monthly: giftValue * 100 } });
    expect((await tip(fan.accessToken)).statusCode).toBe(2);
    const raised = await call({ method: 'PUT', url: '/api/spending/limits', token: fan.accessToken, payload: { daily: giftValue * 10 } });
    expect(raised.body).toMatchObject({ daily: giftValue, pendingDaily: { limit: giftValue * 10 } });
    expect(raised.body.pendingDaily.at - clock.now().getTime()).toBeGreaterThan(LIMIT_RAISE_DELAY_MS - 5_000);
    expect(raised.body.pendingDaily.at - clock.now().getTime()).toBeLessThanOrEqual(LIMIT_RAISE_DELAY_MS);
    expect((await tip(fan.accessToken)).statusText).toBe('spending-limit');
    clock.advance(LIMIT_RAISE_DELAY_MS - 60_000);
    // Still the same UTC day or the next: the raise is not in force a minute before its time.
    expect((await call({ url: '/api/spending/limits', token: fan.accessToken })).body.daily).toBe(giftValue);
    clock.advance(60_000);
    expect((await call({ url: '/api/spending/limits', token: fan.accessToken })).body).toMatchObject({ daily: giftValue * 10, pendingDaily: null });
    expect((await tip(fan.accessToken)).statusCode).toBe(2);
    // Lowering is at once; removing a limit is a raise and waits too.
    expect((await call({ method: 'PUT', url: '/api/spending/limits', token: fan.accessToken, payload: { monthly: giftValue } })).body.monthly).toBe(giftValue);
    expect((await tip(fan.accessToken)).statusText).toBe('spending-limit');
    expect((await call({ method: 'PUT', url: '/api/spending/limits', token: fan.accessToken, payload: { monthly: null } })).body).toMatchObject({ monthly: giftValue, pendingMonthly: { limit: null } });
    // A widget cannot touch the fan's limits.
    const widget = await widgetToken(fan, site);
    expect((await call({ method: 'PUT', url: '/api/spending/limits', token: widget, origin: site, payload: { daily: null } })).statusText).toBe('widget-scope');
    expect((await call({ method: 'POST', url: '/api/spending/cooldown', token: widget, origin: site, payload: { hours: 1 } })).statusText).toBe('widget-scope');
  });

  it('refuses every spend during a cool-down, on the platform, on a site and in the chat', async () => {
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 100_000);
    const widget = await widgetToken(fan, site, 100_000);
    const cooled = await call({ method: 'POST', url: '/api/spending/cooldown', token: fan.accessToken, payload: { hours: 24 } });
    expect(cooled.body.cooldownUntil).toBeGreaterThan(Date.now());
    // A shorter one does not shorten it.
    expect((await call({ method: 'POST', url: '/api/spending/cooldown', token: fan.accessToken, payload: { hours: 1 } })).body.cooldownUntil).toBe(cooled.body.cooldownUntil);

    expect((await tip(fan.accessToken)).statusText).toBe('spending-cooldown');
    expect((await tip(widget, site)).statusText).toBe('spending-cooldown');
    const offers = await call({ url: `/api/subscription/offer?userId=${creatorId}`, token: fan.accessToken });
    expect((await call({ method: 'POST', url: `/api/subscription/subscribe/${offers.body[0].id}`, token: fan.accessToken, payload: {} })).statusText).toBe('spending-cooldown');
    const creator = await createAccount(app(), { seller: true });
    const post = await call({ method: 'POST', url: '/api/posts', token: creator.accessToken, payload: { text: 'a post to give a gift on' } });
    expect((await call({ method: 'POST', url: '/api/posts/gift', token: fan.accessToken, payload: { postId: post.body.id, giftId } })).statusText).toBe('spending-cooldown');
    await setMessagePrice(app(), creatorId, 100);
    const socket = new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(fan.accessToken));
    const client = new SocketClient(socket);
    await client.next((m) => m.type === 'hello');
    const answer = await attempt(client, { receiverId: creatorId, price: 100 });
    expect(answer).toMatchObject({ type: 'error', statusText: 'spending-cooldown' });
    await setMessagePrice(app(), creatorId, 0);
    expect(await walletOf(app(), fan.id)).toBe(100_000);
    // It ends when it said it would.
    app().fanstage.clock.advance(24 * 3_600_000 + 1_000);
    expect((await tip(fan.accessToken)).statusCode).toBe(2);
  });
});

describe('a widget’s paid message', () => {
  it('asks the fan over the socket and is sent once with his confirmation', async () => {
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 10_000);
    const token = await widgetToken(fan, site);
    await setMessagePrice(app(), creatorId, 200);
    try {
      const socket = new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(token), { origin: site });
      const client = new SocketClient(socket);
      await client.next((m) => m.type === 'hello');
      const msgId = randomBytes(12).toString('hex');
      const asked = await attempt(client, { msgId, receiverId: creatorId, price: 200, text: 'a paid hello' });
      expect(asked).toMatchObject({ type: 'error', statusText: 'confirmation-required', msgId, body: { kind: 'chat-message' } });
      const requestId = (asked as { body: { id: string } }).body.id;
      const shown = await call({ url: `/api/spend-requests/${requestId}`, token: fan.accessToken });
      expect(shown.body).toMatchObject({ details: { text: 'a paid hello' }, creator: { id: creatorId } });
      expect(await walletOf(app(), fan.id)).toBe(10_000);
      await call({ method: 'POST', url: `/api/spend-requests/${requestId}/confirm`, token: fan.accessToken });
      const sent = await attempt(client, { msgId, receiverId: creatorId, price: 200, text: 'a paid hello', confirmation: requestId });
      expect(sent).toMatchObject({ type: 'chatMessage', message: { msgId, price: 200 } });
      expect(await walletOf(app(), fan.id)).toBeLessThan(10_000);
    } finally {
      await setMessagePrice(app(), creatorId, 0);
    }
  });
});


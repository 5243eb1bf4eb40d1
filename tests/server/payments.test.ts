import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { expectLedgerBalanced, walletOf } from '../support/money';
import { eq } from '../support/db';
import { ledgerTransfers, paymentCards, paymentOrders } from '../../server/src/db/schema';
import { SANDBOX_SIGNATURE_HEADER, sandboxKeys } from '../../server/src/features/payments/processors/sandbox';
import { chargeSavedCard } from '../../server/src/features/payments/orders';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { statusCode: number; statusText?: string; body?: any };

/** The API over real HTTP, as a browser or an app calls it. */
async function api(method: 'GET' | 'POST' | 'DELETE', path: string, account?: TestAccount, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      ...(account ? { authorization: `Bearer ${account.accessToken}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

const cards = {
  ok: '4242 4242 4242 4242',
  decline: '4000 0000 0000 0002',
  secondStep: '4000 0000 0000 3220',
  laterDecline: '4000 0000 0000 0341',
};

function unescape(value: string): string {
  return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** The hidden fields and the action of the first form on a page. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`No form on the page: ${html.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[match[1]!] = unescape(match[2]!);
  return { action: unescape(action), fields };
}

async function getPage(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers: { accept: 'text/html', ...headers }, redirect: 'manual' });
  return { status: response.status, html: await response.text(), type: response.headers.get('content-type') ?? '' };
}

async function postForm(action: string, fields: Record<string, string>) {
  const response = await fetch(new URL(action, server.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

async function packageOf(account: TestAccount, gValue: number): Promise<{ id: number; cValue: number; gValue: number }> {
  const { json } = await api('GET', '/api/payments/packages', account);
  const found = (json.body as { id: number; cValue: number; gValue: number }[]).find((pkg) => pkg.gValue === gValue);
  if (!found) throw new Error(`No package of ${gValue}`);
  return found;
}

async function startNewCard(account: TestAccount, gValue: number, extra: Record<string, unknown> = {}) {
  const pkg = await packageOf(account, gValue);
  const { status, json } = await api('POST', '/api/payments/pay-new-card', account, { packageId: pkg.id, processor: 'sandbox', ...extra });
  expect(status).toBe(200);
  expect(json.statusCode).toBe(2);
  expect(json.body).toMatchObject({ status: 'created', processor: 'sandbox', purpose: 'credits', amount: pkg.gValue, credits: pkg.cValue });
  expect(json.body.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/papi\/payments\/sandbox\/checkout\//);
  return { order: json.body as { id: string; redirectUrl: string }, pkg };
}

/** Opens the card page, submits the card, and answers where the browser is sent next. */
async function submitCard(redirectUrl: string, number: string) {
  const page = await getPage(redirectUrl);
  expect(page.status).toBe(200);
  const form = formOf(page.html);
  return postForm(form.action, { ...form.fields, number, expiry: '12/34', cvc: '123', name: 'Ada Fan' });
}

/** The whole new-card flow with a card that decides at once; answers the order as the return page reads it. */
async function topUpWithNewCard(account: TestAccount, gValue: number, number: string, extra: Record<string, unknown> = {}) {
  const { order, pkg } = await startNewCard(account, gValue, extra);
  const submitted = await submitCard(order.redirectUrl, number);
  expect(submitted.status).toBe(303);
  const result = await api('GET', `/api/payments/sandboxresult?id=${order.id}`, account);
  return { order: result.json.body, location: submitted.location, pkg };
}

async function orderRow(id: string) {
  const [row] = await app.fanstage.db.select().from(paymentOrders).where(eq(paymentOrders.id, id));
  return row!;
}

describe('reference data', () => {
  it('lists the sandbox processor and the credit packages, bonus packages included', async () => {
    const fan = await createAccount(app);
    const processors = await api('GET', '/api/payments/processors', fan);
    expect(processors.json).toEqual({ statusCode: 2, body: [{ name: 'sandbox', title: 'Test card (sandbox)', savedCards: true }] });
    expect((await api('GET', '/api/payments/processors', fan, undefined, { language: 'cs' })).json.body[0].title).toBe('Testovací karta (sandbox)');
    const packages = await api('GET', '/api/payments/packages', fan);
    expect(packages.json.body.map((pkg: { cValue: number; gValue: number }) => [pkg.gValue, pkg.cValue])).toEqual([
      [500, 500],
      [1000, 1000],
      [2000, 2100],
      [5000, 5500],
      [10000, 11500],
    ]);
    expect((await api('GET', '/api/payments/packages')).status).toBe(401);
  });

  it('answers a new person’s balance as empty and first', async () => {
    const fan = await createAccount(app);
    expect((await api('GET', '/api/payments/balance', fan)).json).toEqual({
      statusCode: 2,
      body: { gBalance: 0, cBalance: 0, cPayout: 0, ts: 0, isFirst: true, myCbalance: 0, myCbalance_acked: 0, firstEarningsSeen: false },
    });
    expect((await api('GET', '/api/payments/transactions', fan)).json).toEqual({ statusCode: 2, body: [] });
    expect((await api('GET', '/api/payments/cards', fan)).json).toEqual({ statusCode: 2, body: [] });
  });
});

describe('the sandbox card page', () => {
  it('is an accessible form in English or Czech, and only for the signed order', async () => {
    const fan = await createAccount(app);
    const { order } = await startNewCard(fan, 500);
    const english = await getPage(order.redirectUrl, { 'accept-language': 'cs' });
    // The platform's own language wins over the browser's: pay-new-card named none, so English.
    expect(english.type).toContain('text/html');
    expect(english.html).toContain('<html lang="en">');
    for (const field of ['number', 'expiry', 'cvc', 'name']) expect(english.html).toMatch(new RegExp(`<label for="${field}">[^<]+</label><input id="${field}"`));
    expect(english.html).toContain('autocomplete="cc-number"');
    expect(english.html).toContain('$5.00');

    const bare = new URL(order.redirectUrl);
    bare.searchParams.delete('lang');
    const czech = await getPage(bare.toString(), { 'accept-language': 'cs-CZ,cs;q=0.9,en;q=0.5' });
    expect(czech.html).toContain('<html lang="cs">');
    expect(czech.html).toContain('Číslo karty');
    // Money reads as on the site, in Czech too: $5.00, not 5,00 US$.
    expect(czech.html).toContain('$5.00');
    expect(czech.html).not.toContain('US$');
    bare.searchParams.set('lang', 'cs');
    expect((await getPage(bare.toString())).html).toContain('Jméno na kartě');

    const forged = new URL(order.redirectUrl);
    forged.searchParams.set('sig', 'A'.repeat(43));
    expect((await getPage(forged.toString())).status).toBe(403);
    const other = await startNewCard(fan, 500);
    const swapped = new URL(other.order.redirectUrl);
    swapped.searchParams.set('sig', new URL(order.redirectUrl).searchParams.get('sig')!);
    expect((await getPage(swapped.toString())).status).toBe(403);
    const stolen = formOf(english.html);
    expect((await postForm(stolen.action, { ...stolen.fields, sig: 'nope', number: cards.ok, expiry: '12/34', cvc: '123', name: 'X' })).status).toBe(403);
    expect((await orderRow(order.id)).status).toBe('created');
  });

  it('points out an invalid card number, expiry, code and name inline, and moves nothing', async () => {
    const fan = await createAccount(app);
    const { order } = await startNewCard(fan, 500);
    const form = formOf((await getPage(order.redirectUrl)).html);
    const answer = await postForm(form.action, { ...form.fields, number: '4242 4242 4242 4241', expiry: '13/20', cvc: '12', name: ' ' });
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('role="alert"');
    for (const field of ['number', 'expiry', 'cvc', 'name']) expect(answer.html).toContain(`aria-describedby="${field}-error"`);
    expect(answer.html).toContain('Enter a valid card number.');
    expect(answer.html).toContain('value="4242 4242 4242 4241"');
    const past = await postForm(form.action, { ...form.fields, number: cards.ok, expiry: '01/20', cvc: '123', name: 'Ada' });
    expect(past.status).toBe(422);
    expect(past.html).toContain('aria-describedby="expiry-error"');
    expect(past.html).not.toContain('aria-describedby="number-error"');
    expect((await orderRow(order.id)).status).toBe('created');
    expect(await walletOf(app, fan.id)).toBe(0);
  });
});

describe('paying with a new card', () => {
  it('credits the package with its bonus once, saves the card, and returns to /gopay-return', async () => {
    const fan = await createAccount(app);
    const { order, location, pkg } = await topUpWithNewCard(fan, 2000, cards.ok, { saveCard: true });
    expect(location).toBe(`${server.baseUrl}/gopay-return?id=${order.id}`);
    expect(order).toMatchObject({ status: 'paid', amount: 2000, credits: 2100, failureReason: null, redirectUrl: null, subscriptionId: null });
    expect(pkg.cValue).toBe(2100);

    const balance = (await api('GET', '/api/payments/balance', fan)).json.body;
    expect(balance).toMatchObject({ gBalance: 2100, cBalance: 0, isFirst: false });
    expect(balance.ts).toBeGreaterThan(0);
    const lines = (await api('GET', '/api/payments/transactions', fan)).json.body;
    // The receipt shows the money the card was charged beside the credits bought, on Fanstage itself.
    expect(lines).toEqual([
      { id: expect.any(Number), transactionType: 'topup', transferType: 'credits', amountCents: 2100, chargedCents: 2000, site: null, user: null, giftId: null, postId: null, media: null, ts: balance.ts },
    ]);

    const saved = (await api('GET', '/api/payments/cards', fan)).json.body;
    expect(saved).toEqual([{ id: expect.any(Number), cardId: 'Visa •••• 4242', brand: 'Visa', last4: '4242', expMonth: 12, expYear: 2034, pgw: 'sandbox' }]);
    const [stored] = await app.fanstage.db.select().from(paymentCards).where(eq(paymentCards.userId, fan.id));
    expect(stored!.token).toMatch(/^sbx_ok_/);
    expect(JSON.stringify(stored)).not.toContain('4242424242424242');

    // Opening the page again after paying says so and sends the payer on.
    const again = await getPage(cardPageOf(order.id));
    expect(again.status).toBe(409);
    expect(again.html).toContain(`/gopay-return?id=${order.id}`);
    await expectLedgerBalanced(app);
  });

  it('with a declined card moves no money and answers the declined order', async () => {
    const fan = await createAccount(app);
    const { order } = await topUpWithNewCard(fan, 1000, cards.decline, { saveCard: true });
    expect(order).toMatchObject({ status: 'declined', failureReason: 'payment-declined' });
    expect(await walletOf(app, fan.id)).toBe(0);
    expect((await api('GET', '/api/payments/balance', fan)).json.body).toMatchObject({ gBalance: 0, isFirst: true, ts: 0 });
    expect((await api('GET', '/api/payments/cards', fan)).json.body).toEqual([]);
    const transfers = await app.fanstage.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, `topup:${order.id}`));
    expect(transfers).toEqual([]);
  });

  it('asks the second step for the 3-D Secure card, then pays or declines as the payer decides', async () => {
    const fan = await createAccount(app);
    for (const decision of ['approve', 'decline'] as const) {
      const { order } = await startNewCard(fan, 500, { saveCard: true });
      const submitted = await submitCard(order.redirectUrl, cards.secondStep);
      expect(submitted.status).toBe(303);
      expect(submitted.location).toContain(`/papi/payments/sandbox/checkout/${order.id}`);
      const stepPage = await getPage(submitted.location!);
      expect(stepPage.status).toBe(200);
      expect(stepPage.html).toContain('3-D Secure');
      expect(stepPage.html).toContain('name="decision" value="approve"');
      expect((await orderRow(order.id)).status).toBe('created');
      const form = formOf(stepPage.html);
      const decided = await postForm(form.action, { ...form.fields, decision });
      expect(decided.status).toBe(303);
      expect(decided.location).toBe(`${server.baseUrl}/gopay-return?id=${order.id}`);
      const result = (await api('GET', `/api/payments/sandboxresult?id=${order.id}&pgwProcessor=sandbox`, fan)).json.body;
      expect(result.status).toBe(decision === 'approve' ? 'paid' : 'declined');
    }
    expect(await walletOf(app, fan.id)).toBe(500);
    expect((await api('GET', '/api/payments/cards', fan)).json.body).toHaveLength(1);
  });

  it('returns to a return address on the platform, and refuses one elsewhere', async () => {
    const fan = await createAccount(app);
    const returnUrl = `${app.fanstage.config.publicUrl}/settings/wallet?from=topup`;
    const { location, order } = await topUpWithNewCard(fan, 500, cards.ok, { returnUrl });
    expect(location).toBe(`${app.fanstage.config.publicUrl}/settings/wallet?from=topup&id=${order.id}`);
    const pkg = await packageOf(fan, 500);
    const refused = await api('POST', '/api/payments/pay-new-card', fan, { packageId: pkg.id, processor: 'sandbox', returnUrl: 'https://evil.example/steal' });
    expect(refused.json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
  });
});

/** The card page of an order, signed as the server signs it. */
function cardPageOf(orderId: string): string {
  const keys = sandboxKeys(app.fanstage.config.jwtSecret);
  return `${server.baseUrl}/papi/payments/sandbox/checkout/${orderId}?sig=${keys.pageSig(orderId)}`;
}

describe('paying with a saved card', () => {
  it('charges at once, declines the renewal-failure card without moving money, and asks the second step', async () => {
    const fan = await createAccount(app);
    await topUpWithNewCard(fan, 500, cards.ok, { saveCard: true });
    await topUpWithNewCard(fan, 500, cards.laterDecline, { saveCard: true });
    await topUpWithNewCard(fan, 500, cards.ok, { saveCard: false });
    expect(await walletOf(app, fan.id)).toBe(1500);
    const saved = (await api('GET', '/api/payments/cards', fan)).json.body as { id: number; last4: string }[];
    expect(saved.map((card) => card.last4).sort()).toEqual(['0341', '4242']);
    const good = saved.find((card) => card.last4 === '4242')!;
    const failing = saved.find((card) => card.last4 === '0341')!;
    const pkg = await packageOf(fan, 1000);

    const paid = await api('POST', '/api/payments/pay-old-card', fan, { packageId: pkg.id, cardId: good.id });
    expect(paid.json).toMatchObject({ statusCode: 2, body: { status: 'paid', amount: 1000, credits: 1000, redirectUrl: null } });
    expect(await walletOf(app, fan.id)).toBe(2500);

    const declined = await api('POST', '/api/payments/pay-old-card', fan, { packageId: pkg.id, cardId: failing.id, processor: 'sandbox' });
    expect(declined.status).toBe(402);
    expect(declined.json).toMatchObject({ statusCode: -1, statusText: 'payment-declined', body: { status: 'declined' } });
    expect(await walletOf(app, fan.id)).toBe(2500);

    // A card that asks the second step for every charge.
    const { order } = await startNewCard(fan, 500, { saveCard: true });
    const submitted = await submitCard(order.redirectUrl, cards.secondStep);
    const stepPage = await getPage(submitted.location!);
    const form = formOf(stepPage.html);
    await postForm(form.action, { ...form.fields, decision: 'approve' });
    const secure = ((await api('GET', '/api/payments/cards', fan)).json.body as { id: number; last4: string }[]).find((card) => card.last4 === '3220')!;
    expect(await walletOf(app, fan.id)).toBe(3000);
    const challenged = await api('POST', '/api/payments/pay-old-card', fan, { packageId: pkg.id, cardId: secure.id });
    expect(challenged.json.body).toMatchObject({ status: 'challenge' });
    expect(challenged.json.body.redirectUrl).toContain('/papi/payments/sandbox/checkout/');
    expect(await walletOf(app, fan.id)).toBe(3000);
    const challengePage = await getPage(challenged.json.body.redirectUrl, { 'accept-language': 'cs' });
    expect(challengePage.html).toContain('Schválit platbu');
    const challengeForm = formOf(challengePage.html);
    const approved = await postForm(challengeForm.action, { ...challengeForm.fields, decision: 'approve' });
    expect(approved.status).toBe(303);
    const result = (await api('GET', `/api/payments/sandboxresult?id=${challenged.json.body.id}`, fan)).json.body;
    expect(result.status).toBe('paid');
    expect(await walletOf(app, fan.id)).toBe(4000);
    await expectLedgerBalanced(app);
  });

  it('charges a renewal named by a key once', async () => {
    const fan = await createAccount(app);
    await topUpWithNewCard(fan, 500, cards.ok, { saveCard: true });
    const [card] = (await api('GET', '/api/payments/cards', fan)).json.body as { id: number }[];
    const input = { userId: fan.id, cardId: card!.id, purpose: 'credits' as const, subscriptionId: null, amount: 700, credits: 700, key: `test-renewal:${fan.id}:1` };
    const first = await chargeSavedCard(app.fanstage, input);
    const second = await chargeSavedCard(app.fanstage, input);
    expect(first.status).toBe('paid');
    expect(second).toEqual(first);
    expect(await walletOf(app, fan.id)).toBe(1200);
    await expect(chargeSavedCard(app.fanstage, { ...input, amount: 800, credits: 800 })).rejects.toMatchObject({ key: 'idempotency-conflict' });
  });

  it('forgets only one’s own cards', async () => {
    const fan = await createAccount(app);
    const other = await createAccount(app);
    await topUpWithNewCard(fan, 500, cards.ok, { saveCard: true });
    const [card] = (await api('GET', '/api/payments/cards', fan)).json.body as { id: number }[];
    expect((await api('DELETE', `/api/payments/cards/${card!.id}`, other)).json).toMatchObject({ statusCode: -1, statusText: 'card-not-found' });
    expect((await api('POST', '/api/payments/pay-old-card', other, { packageId: (await packageOf(other, 500)).id, cardId: card!.id })).json.statusText).toBe('card-not-found');
    expect((await api('DELETE', `/api/payments/cards/${card!.id}`, fan)).json).toEqual({ statusCode: 1 });
    expect((await api('GET', '/api/payments/cards', fan)).json.body).toEqual([]);
    expect((await api('DELETE', `/api/payments/cards/${card!.id}`, fan)).json.statusText).toBe('card-not-found');
    const [kept] = await app.fanstage.db.select().from(paymentCards).where(eq(paymentCards.id, card!.id));
    expect(kept!.deletedAt).not.toBeNull();
  });
});

describe('the processor callback', () => {
  async function signedCallback(event: Record<string, unknown>, signature?: string) {
    const body = JSON.stringify(event);
    const keys = sandboxKeys(app.fanstage.config.jwtSecret);
    return api('POST', '/papi/payments/sandbox/callback', undefined, body, { [SANDBOX_SIGNATURE_HEADER]: signature ?? keys.signBody(body) });
  }

  it('refuses a missing or wrong signature, and applies a signed one once however often it comes', async () => {
    const fan = await createAccount(app);
    const { order } = await startNewCard(fan, 5000, { saveCard: true });
    const event = { orderId: order.id, status: 'paid', externalId: 'sbx_ch_test', card: { token: 'sbx_ok_0123456789abcdef01234567', brand: 'Visa', last4: '4242', expMonth: 1, expYear: 2040 } };
    const unsigned = await api('POST', '/papi/payments/sandbox/callback', undefined, event);
    expect(unsigned).toMatchObject({ status: 401, json: { statusCode: -1, statusText: 'invalid-signature' } });
    const wrong = await signedCallback(event, `sha256=${'0'.repeat(64)}`);
    expect(wrong.json.statusText).toBe('invalid-signature');
    const otherKey = sandboxKeys('another-secret-of-at-least-32-characters!').signBody(JSON.stringify(event));
    expect((await signedCallback(event, otherKey)).status).toBe(401);
    expect(await walletOf(app, fan.id)).toBe(0);

    for (let i = 0; i < 20; i++) expect((await signedCallback(event)).json).toEqual({ statusCode: 1 });
    expect(await walletOf(app, fan.id)).toBe(5500);
    expect((await api('GET', '/api/payments/cards', fan)).json.body).toHaveLength(1);
    // A late decline cannot take a payment back.
    expect((await signedCallback({ ...event, status: 'declined', card: null })).json).toEqual({ statusCode: 1 });
    expect((await orderRow(order.id)).status).toBe('paid');
    expect(await walletOf(app, fan.id)).toBe(5500);
    const transfers = await app.fanstage.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, `topup:${order.id}`));
    expect(transfers).toHaveLength(1);

    expect((await signedCallback({ ...event, orderId: 'ord_unknown' })).json.statusText).toBe('order-not-found');
    expect((await signedCallback({ orderId: order.id, status: 'refunded' })).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    await expectLedgerBalanced(app);
  });

  it('lets a processing order answer processing until the outcome arrives', async () => {
    const fan = await createAccount(app);
    const { order } = await startNewCard(fan, 500);
    expect((await signedCallback({ orderId: order.id, status: 'processing', externalId: 'sbx_ch_p', card: null })).json.statusCode).toBe(1);
    expect((await api('GET', `/api/payments/sandboxresult?id=${order.id}`, fan)).json.body).toMatchObject({ status: 'processing', redirectUrl: null });
    await signedCallback({ orderId: order.id, status: 'paid', externalId: 'sbx_ch_p', card: null });
    expect((await api('GET', `/api/payments/sandboxresult?id=${order.id}`, fan)).json.body.status).toBe('paid');
    expect(await walletOf(app, fan.id)).toBe(500);
  });
});

describe('orders', () => {
  it('belong to their buyer only', async () => {
    const fan = await createAccount(app);
    const stranger = await createAccount(app);
    const { order } = await startNewCard(fan, 500);
    expect((await api('GET', `/api/payments/sandboxresult?id=${order.id}`, fan)).json.body).toMatchObject({ id: order.id, status: 'created', redirectUrl: expect.any(String) });
    expect((await api('GET', `/api/payments/sandboxresult?id=${order.id}`, stranger)).json).toMatchObject({ statusCode: -1, statusText: 'order-not-found' });
    expect((await api('GET', `/api/payments/sandboxresult?id=${order.id}`)).status).toBe(401);
    expect((await api('GET', `/api/payments/sandboxresult?id=${order.id}&pgwProcessor=other`, fan)).json.statusText).toBe('processor-unknown');
  });

  it('are made by POST /order and expire after an hour unpaid', async () => {
    const fan = await createAccount(app);
    const pkg = await packageOf(fan, 1000);
    const made = await api('POST', '/api/payments/order', fan, { packageId: pkg.id });
    expect(made.json.body).toMatchObject({ status: 'created', processor: 'sandbox', amount: 1000, credits: 1000 });
    expect(await app.fanstage.jobs.runNow('payment-orders-expiry')).toBe(0);
    app.fanstage.clock.advance(61 * 60_000);
    expect(await app.fanstage.jobs.runNow('payment-orders-expiry')).toBeGreaterThanOrEqual(1);
    expect((await api('GET', `/api/payments/sandboxresult?id=${made.json.body.id}`, fan)).json.body).toMatchObject({ status: 'expired', redirectUrl: null });
    const page = await getPage(made.json.body.redirectUrl);
    expect(page.status).toBe(409);
    expect(await walletOf(app, fan.id)).toBe(0);
  });

  it('answer invalid requests with the envelope, never a server error', async () => {
    const fan = await createAccount(app);
    const unverified = await createAccount(app, { verified: false });
    const pkg = await packageOf(fan, 500);
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/payments/pay-new-card', {}, 'invalid-request'],
      ['POST', '/api/payments/pay-new-card', { packageId: 'one', processor: 'sandbox' }, 'invalid-request'],
      ['POST', '/api/payments/pay-new-card', { packageId: pkg.id, processor: 'nowhere' }, 'processor-unknown'],
      ['POST', '/api/payments/pay-new-card', { packageId: 999_999, processor: 'sandbox' }, 'package-not-found'],
      ['POST', '/api/payments/pay-new-card', '{"packageId":', 'invalid-json'],
      ['POST', '/api/payments/pay-old-card', { packageId: pkg.id }, 'invalid-request'],
      ['POST', '/api/payments/pay-old-card', { packageId: pkg.id, cardId: 999_999 }, 'card-not-found'],
      ['POST', '/api/payments/order', { packageId: -1 }, 'invalid-request'],
      ['POST', '/api/payments/order', { packageId: pkg.id, processor: 'nowhere' }, 'processor-unknown'],
      ['DELETE', '/api/payments/cards/abc', undefined, 'invalid-request'],
      ['GET', '/api/payments/transactions?ts=-5', undefined, 'invalid-request'],
      ['GET', '/api/payments/transactions?limit=1000', undefined, 'invalid-request'],
      ['GET', '/api/payments/sandboxresult', undefined, 'invalid-request'],
    ];
    for (const [method, path, body, key] of cases) {
      const answer = await api(method as 'GET', path, fan, body);
      expect(answer.status, `${method} ${path}`).toBeLessThan(500);
      expect(answer.json, `${method} ${path}`).toMatchObject({ statusCode: -1, statusText: key });
    }
    expect((await api('POST', '/api/payments/pay-new-card', unverified, { packageId: pkg.id, processor: 'sandbox' })).json.statusText).toBe('email-not-verified');
    const garbage = await api('POST', '/papi/payments/sandbox/callback', undefined, 'not json at all');
    expect(garbage).toMatchObject({ status: 400, json: { statusCode: -1, statusText: 'invalid-json' } });
    const form = await fetch(`${server.baseUrl}/papi/payments/sandbox/checkout/ord_x`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<x/>' });
    expect(form.status).toBe(415);
  });
});

describe('the wallet history', () => {
  it('pages back by time, newest first', async () => {
    const fan = await createAccount(app);
    await topUpWithNewCard(fan, 500, cards.ok, { saveCard: true });
    const [card] = (await api('GET', '/api/payments/cards', fan)).json.body as { id: number }[];
    const pkg = await packageOf(fan, 1000);
    for (let i = 0; i < 3; i++) expect((await api('POST', '/api/payments/pay-old-card', fan, { packageId: pkg.id, cardId: card!.id })).json.body.status).toBe('paid');
    const all = (await api('GET', '/api/payments/transactions', fan)).json.body as { id: number; ts: number; amountCents: number }[];
    expect(all.map((line) => line.amountCents)).toEqual([1000, 1000, 1000, 500]);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.ts).toBeGreaterThanOrEqual(all[i]!.ts);
    const first = (await api('GET', '/api/payments/transactions?limit=2', fan)).json.body as { id: number; ts: number }[];
    expect(first.map((line) => line.id)).toEqual(all.slice(0, 2).map((line) => line.id));
    const rest = (await api('GET', `/api/payments/transactions?ts=${first[1]!.ts}`, fan)).json.body as { id: number; ts: number }[];
    for (const line of rest) expect(line.ts).toBeLessThan(first[1]!.ts);
    expect(rest.map((line) => line.id)).toEqual(all.slice(2).map((line) => line.id));
    const other = await createAccount(app);
    expect((await api('GET', '/api/payments/transactions', other)).json.body).toEqual([]);
  });
});

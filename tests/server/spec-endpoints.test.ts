import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { walletOf } from '../support/money';
import { paymentCards } from '../../server/src/db/schema';

/**
 * The last endpoints of SPEC §7: the user list by type or name (GET /api/users), the people
 * search with a body (POST /papi/search/users), removing a card named in the body
 * (DELETE /api/payments/cards/) and the GoPay-style purchase (POST /api/payments/gopaybuy).
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { statusCode: number; statusText?: string; body?: any };

/** The API over real HTTP, as a browser or an app calls it. */
async function api(method: 'GET' | 'POST' | 'DELETE', path: string, account?: TestAccount, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      ...(account ? { authorization: `Bearer ${account.accessToken}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

const ids = (answer: Answer) => (answer.body as { id: number }[]).map((person) => person.id);

describe('GET /api/users: the viewer’s user list by type or by name', () => {
  let star: TestAccount;
  let quimbyOne: TestAccount;
  let quimbyTwo: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    star = await createAccount(app, { username: 'starlist' });
    quimbyOne = await createAccount(app, { username: 'quimbyone' });
    quimbyTwo = await createAccount(app, { username: 'quimbytwo' });
    stranger = await createAccount(app, { username: 'strangerlist' });
    for (const fan of [quimbyOne, quimbyTwo]) expect((await api('POST', '/api/users/follow', fan, { id: star.id })).json).toEqual({ statusCode: 1 });
    expect((await api('POST', '/api/users/block', star, { id: stranger.id })).json).toEqual({ statusCode: 1 });
  });

  it('listType=2 is the signed-in user’s followers; 1 whom she follows; -1 whom she blocked', async () => {
    const followers = await api('GET', '/api/users?listType=2', star);
    expect(followers.json.statusCode).toBe(2);
    expect(ids(followers.json).sort()).toEqual([quimbyOne.id, quimbyTwo.id].sort());
    expect(followers.json.body[0]).toMatchObject({ username: expect.any(String), isFollowed: false, blockedStatus: 0 });
    expect(ids((await api('GET', '/api/users?listType=1', quimbyOne)).json)).toEqual([star.id]);
    expect(ids((await api('GET', '/api/users?listType=-1', star)).json)).toEqual([stranger.id]);
  });

  it('narrows a list by name, and searches people by name alone (never the viewer)', async () => {
    expect(ids((await api('GET', '/api/users?listType=2&name=quimbyt', star)).json)).toEqual([quimbyTwo.id]);
    const byName = await api('GET', '/api/users?name=quimby', quimbyOne);
    expect(byName.json.statusCode).toBe(2);
    expect(ids(byName.json)).toEqual([quimbyTwo.id]);
    expect(byName.json.body[0]).toMatchObject({ isFollowed: false });
  });

  it('shows each account only its own lists, and no one without a token', async () => {
    // There is no way to name another account: a stranger asking gets her own (empty) lists.
    expect((await api('GET', '/api/users?listType=2', stranger)).json).toEqual({ statusCode: 2, body: [] });
    expect((await api('GET', '/api/users?listType=-1', stranger)).json).toEqual({ statusCode: 2, body: [] });
    expect((await api('GET', `/api/users?listType=2&userId=${star.id}`, stranger)).json.body ?? []).not.toContainEqual(expect.objectContaining({ id: quimbyOne.id }));
    const visitor = await api('GET', '/api/users?listType=2');
    expect(visitor.status).toBe(401);
    expect(visitor.json).toMatchObject({ statusCode: -1, statusText: 'unauthorized' });
  });

  it('refuses an unknown list type, and a request with neither listType nor name', async () => {
    expect((await api('GET', '/api/users?listType=3', star)).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect((await api('GET', '/api/users', star)).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
  });
});

describe('POST /papi/search/users: the people search with a body of variables', () => {
  let searcher: TestAccount;
  beforeAll(async () => {
    searcher = await createAccount(app, { username: 'zephyrsearch' });
    await createAccount(app, { username: 'zephyrone' });
    await createAccount(app, { username: 'zephyrtwo' });
  });

  it('answers what GET /papi/search/users?q answers, `count` people at most, bare or inside `variables`', async () => {
    const viaGet = await api('GET', '/papi/search/users?q=zephyr');
    const viaPost = await api('POST', '/papi/search/users', undefined, { search: 'zephyr' });
    expect(viaPost.json.statusCode).toBe(2);
    expect(viaPost.json).toEqual(viaGet.json);
    expect(ids(viaPost.json)).toHaveLength(3);
    const counted = await api('POST', '/papi/search/users', undefined, { variables: { search: 'zephyr', count: 2 } });
    expect(ids(counted.json)).toEqual(ids(viaPost.json).slice(0, 2));
    const next = await api('POST', '/papi/search/users', undefined, { variables: { search: 'zephyr', count: 2, offset: 2 } });
    expect(ids(next.json)).toEqual(ids(viaPost.json).slice(2));
    // Signed in, the viewer is not among the people found.
    expect(ids((await api('POST', '/papi/search/users', searcher, { search: 'zephyr' })).json)).not.toContain(searcher.id);
  });

  it('refuses a body without `search` and a count above 50', async () => {
    expect((await api('POST', '/papi/search/users', undefined, { count: 5 })).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect((await api('POST', '/papi/search/users', undefined, { search: 'zephyr', count: 51 })).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
  });
});

describe('DELETE /api/payments/cards/ with the card in the body', () => {
  async function savedCard(owner: TestAccount): Promise<number> {
    const [card] = await app.fanstage.db
      .insert(paymentCards)
      .values({ userId: owner.id, processor: 'sandbox', token: `tok_${owner.id}`, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 })
      .returning({ id: paymentCards.id });
    return card!.id;
  }

  it('forgets one’s own card; a stranger cannot delete it, nor anyone without a token', async () => {
    const fan = await createAccount(app);
    const stranger = await createAccount(app);
    const id = await savedCard(fan);
    expect((await api('DELETE', '/api/payments/cards/', stranger, { id })).json).toMatchObject({ statusCode: -1, statusText: 'card-not-found' });
    expect((await api('DELETE', '/api/payments/cards/', undefined, { id })).status).toBe(401);
    expect(ids((await api('GET', '/api/payments/cards', fan)).json)).toEqual([id]);

    expect((await api('DELETE', '/api/payments/cards/', fan, { id })).json).toEqual({ statusCode: 1 });
    expect((await api('GET', '/api/payments/cards', fan)).json.body).toEqual([]);
    expect((await api('DELETE', '/api/payments/cards/', fan, { id })).json).toMatchObject({ statusCode: -1, statusText: 'card-not-found' });
    expect((await api('DELETE', '/api/payments/cards/', fan, {})).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
  });
});

describe('POST /api/payments/gopaybuy: the GoPay-style purchase through the processor', () => {
  async function packageOf(account: TestAccount, gValue: number): Promise<{ id: number; cValue: number; gValue: number }> {
    const { json } = await api('GET', '/api/payments/packages', account);
    return (json.body as { id: number; cValue: number; gValue: number }[]).find((pkg) => pkg.gValue === gValue)!;
  }

  it('starts a purchase at the gateway page, which returns to /gopay-return?id= and credits the wallet', async () => {
    const fan = await createAccount(app);
    const pkg = await packageOf(fan, 500);
    const started = await api('POST', '/api/payments/gopaybuy', fan, { packageId: pkg.id });
    expect(started.json.statusCode).toBe(2);
    const order = started.json.body as { id: string; redirectUrl: string; status: string };
    expect(order).toMatchObject({ status: 'created', processor: 'sandbox', purpose: 'credits', amount: pkg.gValue, credits: pkg.cValue });
    expect(order.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/papi\/payments\/sandbox\/checkout\//);

    // The gateway page: a test card, then back to the platform's return page.
    const page = await fetch(order.redirectUrl);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    const fields: Record<string, string> = {};
    for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!;
    const paid = await fetch(new URL(action, server.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Ada Fan' }).toString(),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get('location')!);
    expect(`${back.pathname}?${back.searchParams.toString()}`).toBe(`/gopay-return?id=${order.id}`);
    expect((await api('GET', `/api/payments/sandboxresult?id=${order.id}`, fan)).json.body).toMatchObject({ id: order.id, status: 'paid' });
    expect(await walletOf(app, fan.id)).toBe(pkg.cValue);
  });

  it('answers the same order for the same idempotency key, and refuses that key for another package', async () => {
    const fan = await createAccount(app);
    const other = await createAccount(app);
    const small = await packageOf(fan, 500);
    const large = await packageOf(fan, 1000);
    const key = 'buy-key-0001';
    const first = await api('POST', '/api/payments/gopaybuy', fan, { packageId: small.id, idempotencyKey: key });
    const again = await api('POST', '/api/payments/gopaybuy', fan, { packageId: small.id, idempotencyKey: key });
    expect(again.json.body.id).toBe(first.json.body.id);
    expect(again.json.body.redirectUrl).toBe(first.json.body.redirectUrl);
    expect((await api('POST', '/api/payments/gopaybuy', fan, { packageId: large.id, idempotencyKey: key })).json).toMatchObject({ statusCode: -1, statusText: 'idempotency-conflict' });
    // The key is the buyer's own: someone else's same key is another order, never the fan's.
    const others = await api('POST', '/api/payments/gopaybuy', other, { packageId: small.id, idempotencyKey: key });
    expect(others.json.statusCode).toBe(2);
    expect(others.json.body.id).not.toBe(first.json.body.id);
    expect((await api('GET', `/api/payments/sandboxresult?id=${first.json.body.id}`, other)).json).toMatchObject({ statusCode: -1, statusText: 'order-not-found' });
    // Without a key, each purchase is its own order.
    const a = await api('POST', '/api/payments/gopaybuy', fan, { packageId: small.id });
    const b = await api('POST', '/api/payments/gopaybuy', fan, { packageId: small.id });
    expect(a.json.body.id).not.toBe(b.json.body.id);
  });

  it('validates as the card purchase does: a token, a verified e-mail, a known package and processor, a trusted return address', async () => {
    const fan = await createAccount(app);
    const unverified = await createAccount(app, { verified: false });
    const pkg = await packageOf(fan, 500);
    expect((await api('POST', '/api/payments/gopaybuy', undefined, { packageId: pkg.id })).status).toBe(401);
    expect((await api('POST', '/api/payments/gopaybuy', unverified, { packageId: pkg.id })).json).toMatchObject({ statusCode: -1, statusText: 'email-not-verified' });
    expect((await api('POST', '/api/payments/gopaybuy', fan, { packageId: 999_999 })).json.statusCode).toBe(-1);
    expect((await api('POST', '/api/payments/gopaybuy', fan, { packageId: pkg.id, processor: 'nope' })).json).toMatchObject({ statusCode: -1, statusText: 'processor-unknown' });
    expect((await api('POST', '/api/payments/gopaybuy', fan, { packageId: pkg.id, returnUrl: 'https://evil.example/x' })).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect((await api('POST', '/api/payments/gopaybuy', fan, {})).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect(await walletOf(app, fan.id)).toBe(0);
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountedCents as discountedCentsOf, fanPriceCents } from '../../lib/sdk/rules/price';
import { SubscriptionStatus } from '../../lib/contract/constants';
import { ledgerTransfers, spendAttributions, subscriptions, users } from '../../server/src/db/schema';
import { issueAccessToken } from '../../server/src/features/auth/guard';
import { inTransaction, pay, reserve, settle } from '../../server/src/ledger';
import { createAccount, type TestAccount } from '../support/accounts';
import { eq, sql } from '../support/db';
import type { Answer } from '../support/inject';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Attribution (issue 34): every spend records, in its own transaction, where it happened (the
 * platform or a partner origin the server verified) and the tracking link that brought the fan;
 * tracking links count what they bring; a link's free trial is once per fan.
 */
let server: TestServer;
const app = () => server.app;
const site = 'https://fan-club.example';
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function call(method: 'GET' | 'POST', url: string, token?: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await app().inject({
    method,
    url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return response.json() as Answer;
}

let lucy: { id: number; token: string };
let giftId = 0;
let offerId = 0;
let offerPrice = 0;
beforeAll(async () => {
  const [row] = await app().fanstage.db.select({ id: users.id }).from(users).where(eq(users.username, 'lucy.rivers'));
  lucy = { id: row!.id, token: await issueAccessToken(app().fanstage, row!.id) };
  const gifts = (await call('GET', '/papi/gifts')).body as { id: number; gValue: number }[];
  giftId = [...gifts].sort((a, b) => a.gValue - b.gValue)[0]!.id;
  const offers = (await call('GET', `/papi/subscription/offer?userId=${lucy.id}`)).body as { id: number; priceCents: number }[];
  offerId = offers[0]!.id;
  offerPrice = offers[0]!.priceCents;
});

async function widgetToken(fan: TestAccount, origin: string, allowance: number): Promise<string> {
  const issued = await call('POST', '/api/embed/code', fan.accessToken, { origin, allow: true, allowance });
  expect(issued.statusCode).toBe(2);
  const response = await app().inject({ method: 'POST', url: '/papi/embed/exchange', headers: { origin }, payload: { code: issued.body.code, origin } });
  return (response.json() as Answer).body.accessToken as string;
}

const attributionOf = async (transferKey: string) => {
  const [row] = await app()
    .fanstage.db.select({ a: spendAttributions, kind: ledgerTransfers.kind })
    .from(ledgerTransfers)
    .leftJoin(spendAttributions, eq(spendAttributions.transferId, ledgerTransfers.id))
    .where(eq(ledgerTransfers.idempotencyKey, transferKey));
  return row;
};

const tip = (token: string, headers: Record<string, string> = {}, payload: Record<string, unknown> = {}) =>
  call('POST', '/api/users/tip', token, { userId: lucy.id, giftId, idempotencyKey: randomBytes(8).toString('hex'), ...payload }, headers);

describe('a tracking link brings a fan', () => {
  it('counts the visit, the sign-up, the subscription and the revenue, and every spend names the link and where it happened', async () => {
    const made = await call('POST', '/api/links', lucy.token, { name: 'TikTok bio' });
    expect(made.statusCode).toBe(2);
    expect(made.body).toMatchObject({ name: 'TikTok bio', visits: 0, endedAt: null });
    expect(made.body.url).toMatch(new RegExp(`/lucy\\.rivers\\?l=${made.body.code}$`));
    expect((await call('POST', '/api/links', lucy.token, { name: 'tiktok BIO' })).statusText).toBe('link-name-taken');

    // A browser comes through the link signed out: the server names it in its own cookie.
    const visit = await app().inject({ method: 'POST', url: '/papi/links/visit', payload: { username: 'lucy.rivers', code: made.body.code } });
    expect((visit.json() as Answer).statusCode).toBe(2);
    const visitor = visit.cookies.find((c) => c.name === 'fs_visitor');
    expect(visitor?.httpOnly).toBe(true);
    expect((await call('POST', '/papi/links/visit', undefined, { username: 'someone.else', code: made.body.code })).statusText).toBe('link-not-found');

    // It signs up there: the visit becomes the new account's.
    const email = `linked.${randomBytes(4).toString('hex')}@example.com`;
    const signup = await app().inject({ method: 'POST', url: '/papi/signup', payload: { email, password: 'a-long-password-1' }, cookies: { fs_visitor: visitor!.value } });
    expect((signup.json() as Answer).statusCode).toBe(1);
    const [fanRow] = await app().fanstage.db.update(users).set({ emailVerified: true }).where(eq(users.email, email)).returning({ id: users.id });
    const fan = { id: fanRow!.id, email, password: '', username: '', accessToken: await issueAccessToken(app().fanstage, fanRow!.id) };
    await fundWallet(app(), fan.id, 50_000);
    expect((await call('POST', '/api/users/follow', fan.accessToken, { id: lucy.id })).statusCode).toBeGreaterThan(0);

    // A subscription and a tip on the platform; the client's word on the source is not asked.
    const subscribed = await call('POST', `/api/subscription/subscribe/${offerId}`, fan.accessToken, {});
    expect(subscribed.statusCode).toBe(2);
    const tipped = await tip(fan.accessToken, { 'fanstage-site': 'https://forged.example', referer: 'https://forged.example/page' }, { origin: 'https://forged.example' });
    expect(tipped.statusCode).toBeGreaterThan(0);
    // A tip through her widget on her site.
    const widget = await widgetToken(fan, site, 100_000);
    expect((await tip(widget, { origin: site })).statusCode).toBeGreaterThan(0);
    // A full session's token on another page is refused before any money moves.
    expect((await tip(fan.accessToken, { origin: 'https://forged.example' })).statusText).toBe('origin-not-allowed');

    const rows = await app().fanstage.db.select().from(spendAttributions).where(eq(spendAttributions.fanId, fan.id)).orderBy(spendAttributions.transferId);
    expect(rows.map((r) => [r.kind, r.origin, r.linkId])).toEqual([
      ['subscription', null, made.body.id],
      ['gift', null, made.body.id],
      ['gift', site, made.body.id],
    ]);

    const [link] = (await call('GET', '/api/links', lucy.token)).body.filter((l: { id: number }) => l.id === made.body.id);
    const revenue = rows.reduce((sum, r) => sum + r.earnedCents, 0);
    expect(link).toMatchObject({ visits: 1, signups: 1, follows: 1, subscriptions: 1, revenueCents: revenue });

    // Her statistics: the same cents as the ledger's entries, split by place and by link.
    const stats = (await call('GET', '/api/statistics?tz=Europe/Prague&unit=day', lucy.token)).body;
    const byPlace = Object.fromEntries(stats.byPlace.map((s: { key: string; total: number }) => [s.key, s.total]));
    expect(byPlace[site]).toBe(rows[2]!.earnedCents);
    const byLink = stats.byLink.find((s: { key: string }) => s.key === `link:${made.body.id}`);
    expect(byLink).toMatchObject({ label: 'TikTok bio', total: revenue });
    const result = await app().fanstage.db.execute(sql`
      select coalesce(sum(e.amount), 0)::bigint as earned from ledger_entries e join ledger_accounts a on a.id = e.account_id
      join ledger_transfers t on t.id = e.transfer_id
      where a.kind = 'earnings' and a.user_id = ${lucy.id} and e.amount > 0
        and t.kind in ('gift', 'unlock', 'subscription', 'chat-message', 'chat-media', 'hold-settle')
        and t.created_at >= ${new Date(stats.from).toISOString()}::timestamptz`);
    const earned = ((result as unknown as { rows?: { earned: string }[] }).rows ?? (result as unknown as { earned: string }[]))[0]!.earned;
    expect(stats.totalCents).toBe(Number(earned));
    expect(stats.totals.reduce((a: number, b: number) => a + b, 0)).toBe(stats.totalCents);
    expect(stats.subscribersGained.reduce((a: number, b: number) => a + b, 0)).toBeGreaterThanOrEqual(1);

    // A renewal keeps the place the subscription was made in, and the link.
    app().fanstage.clock.advance(31 * DAY_MS + 60_000);
    await app().fanstage.jobs.runNow('subscription-renewals');
    const renewal = await attributionOf(`subscription:${subscribed.body.id}:2`);
    expect(renewal?.a).toMatchObject({ kind: 'subscription', origin: null, linkId: made.body.id });

    // Ended, the link counts no more visits; 30 days after the fan's first visit it brings no more spends.
    expect((await call('POST', `/api/links/${made.body.id}/end`, lucy.token)).body.endedAt).not.toBeNull();
    expect((await call('POST', '/papi/links/visit', undefined, { username: 'lucy.rivers', code: made.body.code })).statusText).toBe('link-not-found');
    expect((await tip(fan.accessToken)).statusCode).toBeGreaterThan(0);
    const [latest] = await app().fanstage.db.select().from(spendAttributions).where(eq(spendAttributions.fanId, fan.id)).orderBy(sql`${spendAttributions.transferId} desc`).limit(1);
    expect(latest).toMatchObject({ kind: 'gift', origin: null, linkId: null });
    await expectLedgerBalanced(app());
  });

  it('writes the attribution of every kind of spend in the spend’s own transaction, and none for a spend that rolled back', async () => {
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 20_000);
    const ctx = app().fanstage;
    const at = ctx.clock.now();
    for (const kind of ['unlock', 'chat-message', 'chat-media', 'gift', 'subscription']) {
      const key = `test:${kind}:${randomBytes(4).toString('hex')}`;
      await inTransaction(ctx.db, (tx) => pay(tx, { key, kind, fanId: fan.id, earnerId: lucy.id, fanAmount: 120, earnerCents: 100, via: { channel: 'platform', at } }));
      expect((await attributionOf(key))?.a).toMatchObject({ kind, origin: null, creatorId: lucy.id, fanId: fan.id, earnedCents: 100 });
    }
    // A call's minute: the place of the hold it is paid from.
    const holdKey = `test-call:${randomBytes(4).toString('hex')}`;
    const holdId = await inTransaction(ctx.db, (tx) =>
      reserve(tx, { key: holdKey, userId: fan.id, beneficiaryId: lucy.id, amount: 300, purpose: 'call', expiresAt: new Date(at.getTime() + 60_000), via: { channel: 'platform', at } }),
    );
    await inTransaction(ctx.db, (tx) => settle(tx, { key: `${holdKey}:minute:1`, holdId, fanAmount: 120, earnerCents: 100 }));
    expect((await attributionOf(`${holdKey}:minute:1`))?.a).toMatchObject({ kind: 'call', origin: null, earnedCents: 100 });

    // A spend whose transaction fails after the payment leaves neither the transfer nor its attribution.
    const before = await walletOf(app(), fan.id);
    const rolledBack = `test:rollback:${randomBytes(4).toString('hex')}`;
    await expect(
      inTransaction(ctx.db, async (tx) => {
        await pay(tx, { key: rolledBack, kind: 'gift', fanId: fan.id, earnerId: lucy.id, fanAmount: 120, earnerCents: 100, via: { channel: 'platform', at } });
        throw new Error('the spend’s other write failed');
      }),
    ).rejects.toThrow('other write failed');
    expect(await attributionOf(rolledBack)).toBeUndefined();
    expect(await walletOf(app(), fan.id)).toBe(before);
    await expectLedgerBalanced(app());
  });
});

describe('a free-trial link', () => {
  async function trialLink(then: 'renew' | 'end', limit?: number): Promise<string> {
    const made = await call('POST', '/api/links', lucy.token, { name: `Trial ${then} ${randomBytes(3).toString('hex')}`, trial: { offerId, days: 7, then, ...(limit ? { limit } : {}) } });
    expect(made.statusCode).toBe(2);
    expect(made.body.trial).toMatchObject({ offerId, days: 7, then, taken: 0 });
    return made.body.code as string;
  }

  it('gives a new fan N days free once, refuses a second use, and turns into a paid renewal at its end', async () => {
    const code = await trialLink('renew');
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 10_000);
    const earnedBefore = await earningsOf(app(), lucy.id);
    const taken = await call('POST', '/api/links/trial', fan.accessToken, { code });
    expect(taken.statusCode).toBe(2);
    expect(taken.body).toMatchObject({ subscriptionStatus: SubscriptionStatus.active, offerId });
    const now = app().fanstage.clock.now().getTime();
    expect(taken.body.subscriptionEndDate).toBeGreaterThan(now + 6 * DAY_MS);
    expect(taken.body.subscriptionEndDate).toBeLessThanOrEqual(now + 7 * DAY_MS);
    expect(await walletOf(app(), fan.id)).toBe(10_000);
    expect((await call('POST', '/api/links/trial', fan.accessToken, { code })).statusText).toBe('trial-used');
    expect((await call('POST', '/api/links/trial', fan.accessToken, { code: await trialLink('end') })).statusText).toBe('trial-used');

    app().fanstage.clock.advance(7 * DAY_MS + 60_000);
    await app().fanstage.jobs.runNow('subscription-renewals');
    const [row] = await app().fanstage.db.select().from(subscriptions).where(eq(subscriptions.id, taken.body.id));
    expect(row).toMatchObject({ status: SubscriptionStatus.active, periodsPaid: 1 });
    expect(await walletOf(app(), fan.id)).toBe(10_000 - fanPriceCents(offerPrice, app().fanstage.config.priceSalt));
    expect(await earningsOf(app(), lucy.id)).toBe(earnedBefore + offerPrice);
    // The first paid month is the trial link's revenue.
    expect((await attributionOf(`subscription:${taken.body.id}:1`))?.a).toMatchObject({ kind: 'subscription', origin: null, linkId: expect.any(Number) });
    await expectLedgerBalanced(app());
  });

  it('ends at the trial’s end when the offer says so, and holds to its limit', async () => {
    const code = await trialLink('end', 1);
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 10_000);
    const taken = await call('POST', '/api/links/trial', fan.accessToken, { code });
    expect(taken.body.subscriptionStatus).toBe(SubscriptionStatus.cancelled);
    const other = await createAccount(app());
    expect((await call('POST', '/api/links/trial', other.accessToken, { code })).statusText).toBe('trial-unavailable');

    app().fanstage.clock.advance(7 * DAY_MS + 60_000);
    await app().fanstage.jobs.runNow('subscription-renewals');
    const [row] = await app().fanstage.db.select().from(subscriptions).where(eq(subscriptions.id, taken.body.id));
    expect(row).toMatchObject({ status: SubscriptionStatus.expired, periodsPaid: 0 });
    expect(await walletOf(app(), fan.id)).toBe(10_000);
  });

  it('is a creator’s own to make: a fan is asked to verify, another creator’s offer is not found', async () => {
    const fan = await createAccount(app());
    expect((await call('POST', '/api/links', fan.accessToken, { name: 'Mine' })).statusCode).toBe(-2);
    expect((await call('GET', '/api/statistics', fan.accessToken)).statusCode).toBe(-2);
    const other = await createAccount(app(), { seller: true });
    expect((await call('POST', '/api/links', other.accessToken, { name: 'Steal', trial: { offerId, days: 3, then: 'end' } })).statusText).toBe('offer-not-found');
    expect((await call('GET', '/api/statistics?tz=Not/AZone', lucy.token)).statusText).toBe('invalid-request');
  });
});

describe('a first-month discount link', () => {
  const salt = () => app().fanstage.config.priceSalt;
  async function discountLink(creatorToken: string, forOffer: number, percent: number, limit?: number): Promise<{ id: number; code: string }> {
    const made = await call('POST', '/api/links', creatorToken, { name: `Half off ${randomBytes(3).toString('hex')}`, discount: { offerId: forOffer, percent, ...(limit ? { limit } : {}) } });
    expect(made.statusCode).toBe(2);
    return made.body as { id: number; code: string };
  }
  const visit = (fan: TestAccount, code: string, username = 'lucy.rivers') => call('POST', '/papi/links/visit', fan.accessToken, { username, code });
  const subscribe = (fan: TestAccount, id: number, priceCents?: number) => call('POST', `/api/subscription/subscribe/${id}`, fan.accessToken, priceCents === undefined ? {} : { priceCents });

  it('lowers a brought fan’s first payment once; renewals pay the full price; the ledger has exactly what was paid', async () => {
    const link = await discountLink(lucy.token, offerId, 50);
    const half = Math.floor((offerPrice * 50 + 50) / 100);
    const listed = (await call('GET', '/api/links', lucy.token)).body.find((l: { id: number }) => l.id === link.id);
    expect(listed.discount).toMatchObject({ offerId, percent: 50, priceCents: offerPrice, firstMonthCents: half, taken: 0 });
    expect(listed.trial).toBeNull();

    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 20_000);
    const landing = await visit(fan, link.code);
    expect(landing.body).toMatchObject({ trial: null, discount: { offerId, percent: 50, priceCents: offerPrice, firstMonthCents: half } });
    const earnedBefore = await earningsOf(app(), lucy.id);
    // The purchase dialog is told the first month's price; a fan the link did not bring is told none.
    expect((await call('GET', `/api/links/discount?creatorId=${lucy.id}`, fan.accessToken)).body).toEqual({ discount: { offerId, percent: 50, priceCents: offerPrice, firstMonthCents: half } });
    expect((await call('GET', `/api/links/discount?creatorId=${lucy.id}`, (await createAccount(app())).accessToken)).body).toEqual({ discount: null });

    const subscribed = await subscribe(fan, offerId, half);
    expect(subscribed.statusCode).toBe(2);
    // The subscription keeps the offer's price for its renewals; the first month cost half.
    expect(subscribed.body).toMatchObject({ priceCents: offerPrice, subscriptionStatus: SubscriptionStatus.active });
    expect(await walletOf(app(), fan.id)).toBe(20_000 - fanPriceCents(half, salt()));
    expect(await earningsOf(app(), lucy.id)).toBe(earnedBefore + half);
    const first = await attributionOf(`subscription:${subscribed.body.id}:1`);
    expect(first?.a).toMatchObject({ kind: 'subscription', earnedCents: half, linkId: link.id });
    expect((await call('GET', `/api/links/discount?creatorId=${lucy.id}`, fan.accessToken)).body).toEqual({ discount: null });
    const after = (await call('GET', '/api/links', lucy.token)).body.find((l: { id: number }) => l.id === link.id);
    expect(after).toMatchObject({ subscriptions: 1, revenueCents: half, discount: { taken: 1 } });

    // The renewal pays the full price.
    app().fanstage.clock.advance(31 * DAY_MS + 60_000);
    await app().fanstage.jobs.runNow('subscription-renewals');
    expect(await walletOf(app(), fan.id)).toBe(20_000 - fanPriceCents(half, salt()) - fanPriceCents(offerPrice, salt()));
    expect((await attributionOf(`subscription:${subscribed.body.id}:2`))?.a).toMatchObject({ earnedCents: offerPrice, linkId: link.id });

    // Once per fan and creator: cancelled, expired and subscribed again through a new discount link, he pays in full.
    expect((await call('POST', '/api/subscription/cancel', fan.accessToken, { id: subscribed.body.id })).statusCode).toBe(2);
    app().fanstage.clock.advance(32 * DAY_MS);
    await app().fanstage.jobs.runNow('subscription-renewals');
    const again = await discountLink(lucy.token, offerId, 30);
    await visit(fan, again.code);
    const walletBefore = await walletOf(app(), fan.id);
    expect((await subscribe(fan, offerId, discountedCentsOf(offerPrice, 30))).statusText).toBe('price-changed');
    expect(await walletOf(app(), fan.id)).toBe(walletBefore);
    expect((await subscribe(fan, offerId)).statusCode).toBe(2);
    expect(await walletOf(app(), fan.id)).toBe(walletBefore - fanPriceCents(offerPrice, salt()));
    await expectLedgerBalanced(app());
  });

  it('is decided by the server: a fan the link did not bring, a claimed price, another offer or creator, a used-up limit get the full price', async () => {
    const link = await discountLink(lucy.token, offerId, 40, 1);
    const reduced = discountedCentsOf(offerPrice, 40);

    // Never visited: the discounted price he claims is refused, and nothing moves.
    const stranger = await createAccount(app());
    await fundWallet(app(), stranger.id, 10_000);
    expect((await subscribe(stranger, offerId, reduced)).statusText).toBe('price-changed');
    expect(await walletOf(app(), stranger.id)).toBe(10_000);

    // Brought by her link, subscribing to another creator's offer: no discount there.
    const other = await createAccount(app(), { seller: true });
    const otherOffer = await call('POST', '/api/subscription/offer', other.accessToken, { name: 'Other', priceCents: offerPrice });
    expect(otherOffer.statusCode).toBe(2);
    const brought = await createAccount(app());
    await fundWallet(app(), brought.id, 10_000);
    await visit(brought, link.code);
    expect((await call('POST', `/api/subscription/subscribe/${otherOffer.body.id}`, brought.accessToken, {})).statusCode).toBe(2);
    expect(await walletOf(app(), brought.id)).toBe(10_000 - fanPriceCents(offerPrice, salt()));
    // Another creator cannot put a discount on her offer, nor a trial and a discount on one link.
    expect((await call('POST', '/api/links', other.accessToken, { name: 'Steal', discount: { offerId, percent: 50 } })).statusText).toBe('offer-not-found');
    const both = await call('POST', '/api/links', lucy.token, { name: 'Both', trial: { offerId, days: 3, then: 'end' }, discount: { offerId, percent: 50 } });
    expect(both).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect((await call('POST', '/api/links', lucy.token, { name: 'Too much', discount: { offerId, percent: 95 } })).statusCode).toBe(-1);

    // Her link, her offer: the discount, up to its limit of one fan.
    expect((await subscribe(brought, offerId)).statusCode).toBe(2);
    expect(await walletOf(app(), brought.id)).toBe(10_000 - fanPriceCents(offerPrice, salt()) - fanPriceCents(reduced, salt()));
    const late = await createAccount(app());
    await fundWallet(app(), late.id, 10_000);
    expect((await visit(late, link.code)).body).toMatchObject({ trial: null, discount: null });
    expect((await subscribe(late, offerId)).statusCode).toBe(2);
    expect(await walletOf(app(), late.id)).toBe(10_000 - fanPriceCents(offerPrice, salt()));
    await expectLedgerBalanced(app());
  });
});

describe('a widget’s link attribute', () => {
  it('records the visit for the page’s visitor, gives it to the fan who signs in there, and his widget spends name the link', async () => {
    const made = await call('POST', '/api/links', lucy.token, { name: `My blog ${randomBytes(3).toString('hex')}` });
    const blog = 'https://lucy-blog.example';
    // A signed-out widget on her blog: the server names the page's visitor.
    const first = await call('POST', '/papi/links/widget-visit', undefined, { code: made.body.code, username: 'lucy.rivers' }, { origin: blog });
    expect(first.statusCode).toBe(2);
    const visitor = first.body.visitor as string;
    expect(visitor).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await call('POST', '/papi/links/widget-visit', undefined, { code: made.body.code, visitor }, { origin: blog })).body.visitor).toBe(visitor);
    // A widget of another creator cannot count her link.
    expect((await call('POST', '/papi/links/widget-visit', undefined, { code: made.body.code, username: 'someone.else' }, { origin: blog })).statusText).toBe('link-not-found');

    // He signs in through the widget's popup: the page hands the visitor over with the code.
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 10_000);
    const issued = await call('POST', '/api/embed/code', fan.accessToken, { origin: blog, allow: true, allowance: 5_000 });
    const exchanged = await app().inject({ method: 'POST', url: '/papi/embed/exchange', headers: { origin: blog }, payload: { code: issued.body.code, origin: blog, visitor } });
    const widget = (exchanged.json() as Answer).body.accessToken as string;
    expect((await tip(widget, { origin: blog })).statusCode).toBeGreaterThan(0);
    const [latest] = await app().fanstage.db.select().from(spendAttributions).where(eq(spendAttributions.fanId, fan.id));
    expect(latest).toMatchObject({ kind: 'gift', origin: blog, linkId: made.body.id });
    // A signed-in widget's visit is his at once, with no visitor id to keep.
    const signedIn = await call('POST', '/papi/links/widget-visit', widget, { code: made.body.code }, { origin: blog });
    expect(signedIn.body.visitor).toBeUndefined();
    const link = (await call('GET', '/api/links', lucy.token)).body.find((l: { id: number }) => l.id === made.body.id);
    expect(link).toMatchObject({ visits: 3, signups: 0, revenueCents: latest!.earnedCents });
  });
});

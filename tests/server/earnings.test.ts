import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { eq } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { account, AFFILIATE_SHARE_PERCENT, balanceOf, inTransaction, reserve, settle } from '../../server/src/ledger';
import { paymentCards, payoutRequests, users } from '../../server/src/db/schema';
import { MIN_PAYOUT_CENTS, PAYOUT_RESEND_WINDOW_MS } from '../../server/src/features/spending/domain';

/** A spend on the platform's own pages, as the fan's click there makes it. */
const PLATFORM = { channel: 'platform', at: new Date() } as const;

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
async function gifts(): Promise<Gift[]> {
  if (catalogue.length === 0) catalogue = (await call('GET', '/papi/gifts')).json.body;
  return catalogue;
}

async function tip(fan: TestAccount, creator: TestAccount, gift: Gift): Promise<void> {
  const answer = await call('POST', '/api/users/tip', fan, { userId: creator.id, giftId: gift.id });
  expect(answer.json.statusCode).toBe(2);
}

/** A creator who earned `times` tips of the given gift from one fan. */
async function earningCreator(gift: Gift, times: number): Promise<{ creator: TestAccount; fan: TestAccount }> {
  const creator = await createAccount(app, { seller: true });
  const fan = await createAccount(app);
  await fundWallet(app, fan.id, gift.gValue * times);
  for (let i = 0; i < times; i++) await tip(fan, creator, gift);
  return { creator, fan };
}

/** A card the creator saved with the card processor (as buying credits by card leaves one). */
async function savedCard(owner: TestAccount, last4 = '4242'): Promise<number> {
  const [card] = await app.fanstage.db
    .insert(paymentCards)
    .values({ userId: owner.id, processor: 'sandbox', token: `tok_${owner.id}_${last4}`, brand: 'visa', last4, expMonth: 12, expYear: 2040 })
    .returning({ id: paymentCards.id });
  return card!.id;
}

async function payTo(creator: TestAccount, body: Record<string, unknown>): Promise<void> {
  const answer = await call('PUT', '/api/earnings/payout-destination', creator, body);
  expect(answer.json.statusCode).toBe(2);
}

const pending = () => balanceOf(app.fanstage.db, account.payoutsPending);
const sent = () => balanceOf(app.fanstage.db, account.payoutsSent);

describe('the earnings list', () => {
  it('lists what the creator earned, newest first, 30 a page, with who paid and for what', async () => {
    const [small, big] = (await gifts()).slice(0, 2) as [Gift, Gift];
    const { creator, fan } = await earningCreator(small, 31);
    const postAnswer = await call('POST', '/api/posts', creator, { text: 'gift me' });
    await fundWallet(app, fan.id, big.gValue);
    await call('POST', '/api/posts/gift', fan, { postId: postAnswer.json.body.id, giftId: big.id });

    const first = await call('GET', '/api/earnings/', creator);
    expect(first.json.body).toHaveLength(30);
    expect(first.json.body[0]).toMatchObject({
      transactionType: 'gift',
      transferType: 'earnings',
      amountCents: big.cValue,
      user: { id: fan.id, username: fan.username },
      giftId: big.id,
      postId: postAnswer.json.body.id,
      media: null,
    });
    expect(first.json.body[1]).toMatchObject({ amountCents: small.cValue, giftId: small.id, postId: null });
    const times = first.json.body.map((line: { ts: number }) => line.ts);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const second = await call('GET', '/api/earnings/?limit=30&offset=30', creator);
    expect(second.json.body).toHaveLength(2);
    const ids = new Set([...first.json.body, ...second.json.body].map((line: { id: number }) => line.id));
    expect(ids.size).toBe(32);
    expect((await call('GET', '/api/earnings?limit=5', creator)).json.body).toHaveLength(5);
    // The fan earned nothing; their spending is not an earnings line.
    expect((await call('GET', '/api/earnings/', fan)).json.body).toEqual([]);
  });

  it('answers the envelope for bad input', async () => {
    const someone = await createAccount(app);
    for (const url of ['/api/earnings/?limit=0', '/api/earnings/?limit=500', '/api/earnings/?offset=-1', '/api/earnings/?limit=abc']) {
      const answer = await call('GET', url, someone);
      expect([answer.status, answer.json.statusCode]).toEqual([400, -1]);
    }
    expect((await call('GET', '/api/earnings/')).status).toBe(401);
  });
});

describe('payouts', () => {
  it('need the minimum and the balance, and move the money to the pending payouts once', async () => {
    const gift = (await gifts()).find((g) => g.cValue >= 1000)!;
    const times = Math.ceil((MIN_PAYOUT_CENTS * 2) / gift.cValue);
    const { creator } = await earningCreator(gift, times);
    const earned = gift.cValue * times;
    expect(await earningsOf(app, creator.id)).toBe(earned);
    const pendingBefore = await pending();
    await payTo(creator, { method: 'paypal', paypalEmail: 'creator@example.com' });

    const small = await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS - 1 });
    expect([small.status, small.json.statusText]).toEqual([400, 'payout-too-small']);
    const tooMuch = await call('POST', '/api/earnings/payout', creator, { cPayout: earned + 1 });
    expect([tooMuch.status, tooMuch.json.statusText]).toEqual([402, 'noMoney']);
    expect(await app.fanstage.db.select().from(payoutRequests).where(eq(payoutRequests.userId, creator.id))).toHaveLength(0);

    const first = await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS });
    expect(first.json.body).toMatchObject({ amount: MIN_PAYOUT_CENTS, method: 'paypal', status: 'requested' });
    // The same request resent by the client answers the first one and moves nothing more.
    const resent = await Promise.all([1, 2, 3].map(() => call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS })));
    for (const answer of resent) expect(answer.json.body.id).toBe(first.json.body.id);
    expect(await earningsOf(app, creator.id)).toBe(earned - MIN_PAYOUT_CENTS);
    expect(await pending()).toBe(pendingBefore + MIN_PAYOUT_CENTS);

    // Past the resend window an identical request is a new one; a card payout is a new one at once.
    app.fanstage.clock.advance(PAYOUT_RESEND_WINDOW_MS + 1);
    await payTo(creator, { method: 'card', cardId: await savedCard(creator) });
    const card = await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS, method: 'card' });
    expect(card.json.body).toMatchObject({ method: 'card', status: 'requested' });
    expect(card.json.body.id).not.toBe(first.json.body.id);
    const rest = earned - 2 * MIN_PAYOUT_CENTS;
    expect(await earningsOf(app, creator.id)).toBe(rest);
    expect(rest).toBeLessThan(MIN_PAYOUT_CENTS);
    // (Past the resend window, or it would be taken for a resend of the card request.)
    app.fanstage.clock.advance(PAYOUT_RESEND_WINDOW_MS + 1);
    const overdrawn = await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS });
    expect([overdrawn.status, overdrawn.json.statusText]).toEqual([402, 'noMoney']);
    expect(await earningsOf(app, creator.id)).toBe(rest);

    const list = await call('GET', '/api/earnings/payouts', creator);
    expect(list.json.body.map((p: { id: number }) => p.id)).toEqual([card.json.body.id, first.json.body.id]);
    const lines = (await call('GET', '/api/earnings/', creator)).json.body;
    expect(lines.slice(0, 2)).toMatchObject([
      { transactionType: 'payout', amountCents: -MIN_PAYOUT_CENTS, user: null },
      { transactionType: 'payout', amountCents: -MIN_PAYOUT_CENTS, user: null },
    ]);
    await expectLedgerBalanced(app);
  });

  it('are marked sent by an admin once, however often they ask', async () => {
    const gift = (await gifts()).find((g) => g.cValue >= 1000)!;
    const { creator } = await earningCreator(gift, Math.ceil(MIN_PAYOUT_CENTS / gift.cValue));
    const admin = await createAccount(app, { level: 500 });
    await payTo(creator, { method: 'card', cardId: await savedCard(creator) });
    const payout = (await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS, method: 'card' })).json.body;
    const [pendingBefore, sentBefore] = [await pending(), await sent()];

    const denied = await call('POST', `/api/admin/payouts/${payout.id}/sent`, creator);
    expect([denied.status, denied.json.statusText]).toEqual([403, 'forbidden']);
    const answers = await Promise.all([1, 2, 3].map(() => call('POST', `/api/admin/payouts/${payout.id}/sent`, admin)));
    for (const answer of answers) expect(answer.json.body).toMatchObject({ id: payout.id, status: 'sent', amount: MIN_PAYOUT_CENTS });
    expect(await pending()).toBe(pendingBefore - MIN_PAYOUT_CENTS);
    expect(await sent()).toBe(sentBefore + MIN_PAYOUT_CENTS);
    const [row] = await app.fanstage.db.select().from(payoutRequests).where(eq(payoutRequests.id, payout.id));
    expect(row?.sentAt).not.toBeNull();
    expect((await call('GET', '/api/earnings/payouts', creator)).json.body[0]).toMatchObject({ id: payout.id, status: 'sent' });
    expect((await call('POST', '/api/admin/payouts/999999/sent', admin)).json.statusText).toBe('not-found');
    expect((await call('POST', '/api/admin/payouts/abc/sent', admin)).json.statusCode).toBe(-1);
    await expectLedgerBalanced(app);
  });

  it('answer the envelope for bad input', async () => {
    const creator = await createAccount(app, { seller: true });
    for (const body of [{}, { cPayout: 0 }, { cPayout: 2.5 }, { cPayout: 5000, method: 'cash' }, { cPayout: '5000x' }]) {
      const answer = await call('POST', '/api/earnings/payout', creator, body);
      expect([answer.status, answer.json.statusCode]).toEqual([400, -1]);
    }
  });
});

describe('the payout destination', () => {
  it('is asked for before a payout, kept per creator, and each request keeps where it was paid', async () => {
    const gift = (await gifts()).find((g) => g.cValue >= 1000)!;
    const { creator } = await earningCreator(gift, Math.ceil((MIN_PAYOUT_CENTS * 2) / gift.cValue));

    // Nothing kept yet: the minimum is shown, and a payout is refused without moving money.
    expect((await call('GET', '/api/earnings/payout-destination', creator)).json.body).toEqual({ method: null, paypalEmail: null, card: null, minimumCents: MIN_PAYOUT_CENTS });
    const without = await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS });
    expect([without.status, without.json.statusText]).toEqual([409, 'payout-destination-required']);
    // The refusal under the minimum names it.
    const small = await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS - 1 });
    expect(small.json).toMatchObject({ statusCode: -1, statusText: 'payout-too-small', body: { minimum: MIN_PAYOUT_CENTS } });
    expect(await app.fanstage.db.select().from(payoutRequests).where(eq(payoutRequests.userId, creator.id))).toHaveLength(0);

    const bad = await call('PUT', '/api/earnings/payout-destination', creator, { method: 'paypal', paypalEmail: 'not an address' });
    expect([bad.status, bad.json.statusText]).toEqual([400, 'invalid-email']);
    const kept = await call('PUT', '/api/earnings/payout-destination', creator, { method: 'paypal', paypalEmail: ' lucy@example.com ' });
    expect(kept.json.body).toEqual({ method: 'paypal', paypalEmail: 'lucy@example.com', card: null, minimumCents: MIN_PAYOUT_CENTS });
    expect((await call('GET', '/api/earnings/payout-destination', creator)).json.body.paypalEmail).toBe('lucy@example.com');
    // A card payout needs a card kept: PayPal is what is kept.
    const cardFirst = await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS, method: 'card' });
    expect(cardFirst.json.statusText).toBe('payout-destination-required');

    const paypal = await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS });
    expect(paypal.json.body).toMatchObject({ method: 'paypal', destination: 'lucy@example.com', status: 'requested' });

    const cardId = await savedCard(creator, '1881');
    const toCard = await call('PUT', '/api/earnings/payout-destination', creator, { method: 'card', cardId });
    expect(toCard.json.body).toEqual({ method: 'card', paypalEmail: 'lucy@example.com', card: { id: cardId, brand: 'visa', last4: '1881' }, minimumCents: MIN_PAYOUT_CENTS });
    const card = await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS });
    expect(card.json.body).toMatchObject({ method: 'card', destination: 'visa •••• 1881' });

    // The history keeps where each went, whatever the destination is now.
    await payTo(creator, { method: 'paypal', paypalEmail: 'new@example.com' });
    const history = (await call('GET', '/api/earnings/payouts', creator)).json.body;
    expect(history.map((p: { destination: string }) => p.destination)).toEqual(['visa •••• 1881', 'lucy@example.com']);

    // A card removed from the saved cards is no destination any more.
    await payTo(creator, { method: 'card', cardId });
    await app.fanstage.db.update(paymentCards).set({ deletedAt: new Date() }).where(eq(paymentCards.id, cardId));
    expect((await call('GET', '/api/earnings/payout-destination', creator)).json.body).toMatchObject({ method: null, card: null });
    await expectLedgerBalanced(app);
  });

  it('is one’s own: a stranger’s card is refused, a visitor is not let in, bad input gets the envelope', async () => {
    const creator = await createAccount(app, { seller: true });
    const stranger = await createAccount(app, { seller: true });
    const theirs = await savedCard(stranger, '5555');
    const taken = await call('PUT', '/api/earnings/payout-destination', creator, { method: 'card', cardId: theirs });
    expect([taken.status, taken.json.statusText]).toEqual([404, 'card-not-found']);
    expect((await call('GET', '/api/earnings/payout-destination', creator)).json.body.method).toBeNull();
    // The stranger's own destination is theirs alone.
    await payTo(stranger, { method: 'paypal', paypalEmail: 'stranger@example.com' });
    expect((await call('GET', '/api/earnings/payout-destination', creator)).json.body.paypalEmail).toBeNull();

    expect((await call('GET', '/api/earnings/payout-destination')).status).toBe(401);
    expect((await call('PUT', '/api/earnings/payout-destination', undefined, { method: 'paypal', paypalEmail: 'x@example.com' })).status).toBe(401);
    for (const body of [{}, { method: 'cash' }, { method: 'card' }, { method: 'card', cardId: 'x' }, { method: 'paypal' }, { method: 'paypal', paypalEmail: 'a'.repeat(300) }]) {
      const answer = await call('PUT', '/api/earnings/payout-destination', creator, body);
      expect(answer.json.statusCode).toBe(-1);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });
});

describe('the earnings acknowledgement', () => {
  it('never goes above the balance and dismisses the first-earnings popup once', async () => {
    const gift = (await gifts())[0]!;
    const { creator } = await earningCreator(gift, 2);
    const state = async () => (await app.fanstage.db.select({ acked: users.earningsAcked, seen: users.firstEarningsSeenAt }).from(users).where(eq(users.id, creator.id)))[0]!;

    expect((await call('POST', '/api/earnings/ack', creator, { cBalance: gift.cValue })).json.statusCode).toBe(1);
    expect(await state()).toEqual({ acked: gift.cValue, seen: null });
    await call('POST', '/api/earnings/ack', creator, { cBalance: 1_000_000, firstEarningsSeen: true });
    const seen = await state();
    expect(seen.acked).toBe(gift.cValue * 2);
    expect(seen.seen).toBeInstanceOf(Date);
    app.fanstage.clock.advance(60_000);
    await call('POST', '/api/earnings/ack', creator, { cBalance: 0, firstEarningsSeen: true });
    expect(await state()).toEqual({ acked: 0, seen: seen.seen });
    expect((await call('POST', '/api/earnings/ack', creator, { cBalance: -1 })).json.statusCode).toBe(-1);
  });
});

describe('affiliates', () => {
  it('record the inviter once, never oneself, and only someone who exists', async () => {
    const referrer = await createAccount(app, { seller: true });
    const other = await createAccount(app);
    const fan = await createAccount(app);
    const referrerOf = async () => (await app.fanstage.db.select({ id: users.referrerId }).from(users).where(eq(users.id, fan.id)))[0]!.id;
    const codeOf = async (who: TestAccount) => (await call('GET', '/api/users/invite', who)).json.body.code as string;

    expect((await call('POST', '/api/users/aff-code', fan, { affCode: await codeOf(fan) })).json.statusText).toBe('cannot-target-self');
    expect((await call('POST', '/api/users/aff-code', fan, { affCode: 'nobody.by.this.name' })).json.statusText).toBe('user-not-found');
    expect((await call('POST', '/api/users/aff-code', fan, { affCode: (await codeOf(referrer)).toLowerCase() })).json.statusCode).toBe(1);
    expect(await referrerOf()).toBe(referrer.id);
    expect((await call('POST', '/api/users/aff-code', fan, { affCode: await codeOf(other) })).json.statusCode).toBe(1);
    expect(await referrerOf()).toBe(referrer.id);
    expect((await call('POST', '/api/users/aff-code', fan, {})).json.statusCode).toBe(-1);

    const profile = await call('GET', `/papi/users/aff-code/${await codeOf(referrer)}`);
    expect(profile.json.body).toEqual({ username: referrer.username, displayName: referrer.username, avatarMedia: null });
    expect((await call('GET', '/papi/users/aff-code/nobody.by.this.name')).json.statusText).toBe('user-not-found');
  });

  it('earn their share of the platform’s fee on what the people they brought spend', async () => {
    const gift = (await gifts()).find((g) => g.gValue - g.cValue >= 100)!;
    const referrer = await createAccount(app, { seller: true });
    const creator = await createAccount(app, { seller: true });
    const [fan, stranger] = [await createAccount(app), await createAccount(app)];
    await call('POST', '/api/users/aff-code', fan, { affCode: (await call('GET', '/api/users/invite', referrer)).json.body.code });
    await fundWallet(app, fan.id, gift.gValue * 2);
    await fundWallet(app, stranger.id, gift.gValue);
    await tip(fan, creator, gift);
    await tip(fan, creator, gift);
    await tip(stranger, creator, gift);

    const share = Math.floor(((gift.gValue - gift.cValue) * AFFILIATE_SHARE_PERCENT) / 100);
    expect(share).toBeGreaterThan(0);
    expect(await earningsOf(app, referrer.id)).toBe(share * 2);
    expect(await earningsOf(app, creator.id)).toBe(gift.cValue * 3);
    expect(await walletOf(app, fan.id)).toBe(0);

    const lines = (await call('GET', '/api/earnings/transactions-affil/', referrer)).json.body;
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ transactionType: 'affiliate', amountCents: share, user: { id: fan.id }, giftId: gift.id });
    expect((await call('GET', `/api/earnings/transactions-affil/?userId=${fan.id}`, referrer)).json.body).toHaveLength(2);
    expect((await call('GET', `/api/earnings/transactions-affil/?userId=${stranger.id}`, referrer)).json.body).toEqual([]);
    expect((await call('GET', '/api/earnings/transactions-affil/', creator)).json.body).toEqual([]);
    expect((await call('GET', '/api/earnings/', referrer)).json.body[0]).toMatchObject({ transactionType: 'affiliate', amountCents: share });
    expect((await call('GET', '/api/earnings/transactions-affil/?userId=0', referrer)).json.statusCode).toBe(-1);
    await expectLedgerBalanced(app);
  });

  it('earn their share of a paid call’s minutes too, listed as affiliate lines', async () => {
    const referrer = await createAccount(app, { seller: true });
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await call('POST', '/api/users/aff-code', fan, { affCode: (await call('GET', '/api/users/invite', referrer)).json.body.code });
    await fundWallet(app, fan.id, 400);
    const db = app.fanstage.db;
    const later = new Date(app.fanstage.clock.now().getTime() + 3_600_000);
    const holdId = await inTransaction(db, (tx) => reserve(tx, { key: `call-affiliate:${fan.id}`, userId: fan.id, beneficiaryId: creator.id, amount: 400, purpose: 'call', via: PLATFORM, expiresAt: later }));
    // A minute the fan pays 200 for and the creator earns 160 of: a fee of 40, 10 % of it the referrer's.
    await inTransaction(db, (tx) => settle(tx, { key: `call-affiliate:${fan.id}:minute:1`, holdId, fanAmount: 200, earnerCents: 160, meta: { purpose: 'call' } }));
    const share = Math.floor((40 * AFFILIATE_SHARE_PERCENT) / 100);
    expect(await earningsOf(app, referrer.id)).toBe(share);
    expect((await call('GET', '/api/earnings/', referrer)).json.body).toMatchObject([{ transactionType: 'affiliate', amountCents: share, user: { id: fan.id } }]);
    expect((await call('GET', '/api/earnings/transactions-affil/', referrer)).json.body).toMatchObject([{ transactionType: 'affiliate', amountCents: share }]);
    expect((await call('GET', '/api/earnings/', creator)).json.body).toMatchObject([{ transactionType: 'call', amountCents: 160 }]);
    await expectLedgerBalanced(app);
  });

  it('name the share apart from the price when the creator the fan pays is the one who invited the fan', async () => {
    const gift = (await gifts()).find((g) => g.gValue - g.cValue >= 100)!;
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await call('POST', '/api/users/aff-code', fan, { affCode: (await call('GET', '/api/users/invite', creator)).json.body.code });
    await fundWallet(app, fan.id, gift.gValue);
    await tip(fan, creator, gift);

    const share = Math.floor(((gift.gValue - gift.cValue) * AFFILIATE_SHARE_PERCENT) / 100);
    expect(share).toBeGreaterThan(0);
    expect(await earningsOf(app, creator.id)).toBe(gift.cValue + share);
    // One transfer, two lines: what she earned with the gift, and her share of the fee.
    const lines = (await call('GET', '/api/earnings/', creator)).json.body as { transactionType: string; amountCents: number; user: { id: number } }[];
    expect(lines.map(({ transactionType, amountCents, user }) => ({ transactionType, amountCents, user: user.id })).sort((a, b) => a.transactionType.localeCompare(b.transactionType))).toEqual([
      { transactionType: 'affiliate', amountCents: share, user: fan.id },
      { transactionType: 'gift', amountCents: gift.cValue, user: fan.id },
    ]);
    // The affiliate list has the share alone.
    expect((await call('GET', '/api/earnings/transactions-affil/', creator)).json.body).toMatchObject([{ transactionType: 'affiliate', amountCents: share, user: { id: fan.id } }]);
    await expectLedgerBalanced(app);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { eq, sql } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { ledgerAccounts, ledgerHolds, ledgerTransfers, users } from '../../server/src/db/schema';
import { AppError } from '../../server/src/errors';
import { account, accountId, AFFILIATE_SHARE_PERCENT, balanceOf, inTransaction, pay, reconcile, release, reserve, settle, transfer } from '../../server/src/ledger';
import { describeReport } from '../../server/src/ledger/reconcile';
import { fanPriceCents } from '../../lib/sdk/rules/price';

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

const db = () => app.fanstage.db;
const user = async () => (await createAccount(app)).id;
let keys = 0;
const key = (name: string) => `${name}:${Date.now()}:${++keys}`;

/** Runs `work` and answers the AppError key it was refused with. */
async function refusal(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    if (error instanceof AppError) return error.key;
    throw error;
  }
  throw new Error('expected a refusal, but it went through');
}

async function transferCount(idempotencyKey: string): Promise<number> {
  const rows = await db().select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, idempotencyKey));
  return rows.length;
}

async function holdRow(id: number) {
  const [row] = await db().select().from(ledgerHolds).where(eq(ledgerHolds.id, id));
  return row!;
}

describe('transfers', () => {
  it('moves money once per key: a replay says so and moves nothing', async () => {
    const fan = await user();
    const orderKey = key('topup');
    const request = {
      key: orderKey,
      kind: 'topup',
      counterpartyId: fan,
      meta: { orderId: 7 },
      legs: [
        { account: account.processor('sandbox'), amount: -1000 },
        { account: account.wallet(fan), amount: 1000 },
      ],
    };
    const first = await inTransaction(db(), (tx) => transfer(tx, request));
    expect(first.replayed).toBe(false);
    const again = await inTransaction(db(), (tx) => transfer(tx, { ...request, legs: [...request.legs].reverse() }));
    expect(again).toEqual({ transferId: first.transferId, replayed: true });
    expect(await walletOf(app, fan)).toBe(1000);
    expect(await transferCount(orderKey)).toBe(1);
    await expectLedgerBalanced(app);
  });

  it('refuses the same key with other legs or other details as an idempotency conflict', async () => {
    const fan = await user();
    const k = key('topup');
    const legs = (amount: number) => [
      { account: account.processor('sandbox'), amount: -amount },
      { account: account.wallet(fan), amount },
    ];
    await transfer(db(), { key: k, kind: 'topup', counterpartyId: fan, legs: legs(500) });
    expect(await refusal(() => transfer(db(), { key: k, kind: 'topup', counterpartyId: fan, legs: legs(501) }))).toBe('idempotency-conflict');
    expect(await refusal(() => transfer(db(), { key: k, kind: 'promotion', counterpartyId: fan, legs: legs(500) }))).toBe('idempotency-conflict');
    expect(await refusal(() => transfer(db(), { key: k, kind: 'topup', counterpartyId: fan, meta: { orderId: 1 }, legs: legs(500) }))).toBe('idempotency-conflict');
    expect(await walletOf(app, fan)).toBe(500);
    await expectLedgerBalanced(app);
  });

  it('refuses legs that do not sum to zero, zero legs and single legs before touching anything', async () => {
    const fan = await user();
    const k = key('bad');
    await expect(
      transfer(db(), { key: k, kind: 'promotion', legs: [{ account: account.promotions, amount: -100 }, { account: account.wallet(fan), amount: 99 }] }),
    ).rejects.toThrow(/sum to zero/);
    await expect(
      transfer(db(), { key: k, kind: 'promotion', legs: [{ account: account.promotions, amount: 0 }, { account: account.wallet(fan), amount: 0 }] }),
    ).rejects.toThrow(/non-zero integer/);
    await expect(transfer(db(), { key: k, kind: 'promotion', legs: [{ account: account.wallet(fan), amount: 1.5 }, { account: account.promotions, amount: -1.5 }] })).rejects.toThrow(
      /non-zero integer/,
    );
    await expect(transfer(db(), { key: k, kind: 'promotion', legs: [{ account: account.wallet(fan), amount: 5 }] })).rejects.toThrow(/two legs/);
    expect(await transferCount(k)).toBe(0);
    expect(await walletOf(app, fan)).toBe(0);
  });

  it('refuses an overspend with noMoney and leaves no trace, even when the caller carries on and commits', async () => {
    const fan = await user();
    const creator = await user();
    await fundWallet(app, fan, 100);
    const k = key('unlock');
    const spend = { key: k, kind: 'unlock', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: 150, earnerCents: 120 };
    // Rolled back by the refusal.
    expect(await refusal(() => inTransaction(db(), (tx) => pay(tx, spend)))).toBe('noMoney');
    // Caught inside the transaction, which then commits other work.
    const caught = await inTransaction(db(), async (tx) => {
      const answer = await refusal(() => pay(tx, spend));
      await tx.update(users).set({ earningsAcked: sql`${users.earningsAcked}` }).where(eq(users.id, fan));
      return answer;
    });
    expect(caught).toBe('noMoney');
    expect(await transferCount(k)).toBe(0);
    expect(await walletOf(app, fan)).toBe(100);
    expect(await earningsOf(app, creator)).toBe(0);
    await expectLedgerBalanced(app);
    // The key is still free: once the fan can pay, the same event goes through.
    await fundWallet(app, fan, 50);
    const paid = await inTransaction(db(), (tx) => pay(tx, spend));
    expect(paid.replayed).toBe(false);
    expect(await walletOf(app, fan)).toBe(0);
    expect(await earningsOf(app, creator)).toBe(120);
    await expectLedgerBalanced(app);
  });

  it('runs in a transaction of its own when handed the database', async () => {
    const fan = await user();
    await transfer(db(), { key: key('promotion'), kind: 'promotion', legs: [{ account: account.promotions, amount: -42 }, { account: account.wallet(fan), amount: 42 }] });
    expect(await balanceOf(db(), account.wallet(fan))).toBe(42);
    expect(await accountId(db(), account.wallet(fan))).toBeGreaterThan(0);
  });
});

describe('payments', () => {
  it('splits what the fan pays into the creator’s price and the platform’s fee', async () => {
    const fan = await user();
    const creator = await user();
    const price = 95;
    const fanAmount = fanPriceCents(price, app.fanstage.config.priceSalt);
    expect(fanAmount).toBeGreaterThan(price);
    await fundWallet(app, fan, 1000);
    const feesBefore = await balanceOf(db(), account.fees);
    await inTransaction(db(), (tx) => pay(tx, { key: `unlock:${fan}:1`, kind: 'unlock', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount, earnerCents: price, meta: { mediaId: 1 } }));
    expect(await walletOf(app, fan)).toBe(1000 - fanAmount);
    expect(await earningsOf(app, creator)).toBe(price);
    expect((await balanceOf(db(), account.fees)) - feesBefore).toBe(fanAmount - price);
    await expectLedgerBalanced(app);
  });

  it('gives a referred fan’s affiliate their share of the fee, rounded down, and the platform the rest', async () => {
    const referrer = await user();
    const fan = await user();
    const creator = await user();
    await db().update(users).set({ referrerId: referrer }).where(eq(users.id, fan));
    await fundWallet(app, fan, 10_000);
    // A gift of 2000 cents costs 2500 credits: a fee of 500, of which the affiliate gets 50.
    const feesBefore = await balanceOf(db(), account.fees);
    await pay(db(), { key: `gift:${fan}:a`, kind: 'gift', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: 2500, earnerCents: 2000, meta: { giftId: 6 } });
    expect(await earningsOf(app, referrer)).toBe((500 * AFFILIATE_SHARE_PERCENT) / 100);
    expect((await balanceOf(db(), account.fees)) - feesBefore).toBe(450);
    // A fee of 119 - 95 = 24: the affiliate's 10 % is 2.4, rounded down to 2.
    await pay(db(), { key: `unlock:${fan}:2`, kind: 'unlock', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: 119, earnerCents: 95, meta: { mediaId: 2 } });
    expect(await earningsOf(app, referrer)).toBe(52);
    expect((await balanceOf(db(), account.fees)) - feesBefore).toBe(450 + 22);
    expect(await earningsOf(app, creator)).toBe(2095);
    expect(await walletOf(app, fan)).toBe(10_000 - 2500 - 119);
    await expectLedgerBalanced(app);

    // The referrer's account is deleted (referrer_id becomes null): sending the gift again is
    // still the same payment, and replays without moving anything.
    await db().update(users).set({ referrerId: null }).where(eq(users.id, fan));
    const replay = await pay(db(), { key: `gift:${fan}:a`, kind: 'gift', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: 2500, earnerCents: 2000, meta: { giftId: 6 } });
    expect(replay.replayed).toBe(true);
    expect(await earningsOf(app, referrer)).toBe(52);
    expect(await walletOf(app, fan)).toBe(10_000 - 2500 - 119);
    expect(await refusal(() => pay(db(), { key: `gift:${fan}:a`, kind: 'gift', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: 2500, earnerCents: 2000, meta: { giftId: 7 } }))).toBe(
      'idempotency-conflict',
    );
  });

  it('pays no affiliate share to a fan referred by themselves, nor on a payment without a fee', async () => {
    const fan = await user();
    const creator = await user();
    await db().update(users).set({ referrerId: fan }).where(eq(users.id, fan));
    await fundWallet(app, fan, 1000);
    await pay(db(), { key: key('gift'), kind: 'gift', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: 125, earnerCents: 100 });
    await pay(db(), { key: key('gift'), kind: 'gift', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: 100, earnerCents: 100 });
    expect(await earningsOf(app, fan)).toBe(0);
    expect(await earningsOf(app, creator)).toBe(200);
    expect(await walletOf(app, fan)).toBe(775);
    await expectLedgerBalanced(app);
  });

  it('refuses a payment whose creator would earn more than the fan pays', async () => {
    const fan = await user();
    await fundWallet(app, fan, 1000);
    await expect(pay(db(), { key: key('unlock'), kind: 'unlock', via: PLATFORM, fanId: fan, earnerId: fan, fanAmount: 10, earnerCents: 11 })).rejects.toThrow(/earnerCents/);
    expect(await walletOf(app, fan)).toBe(1000);
  });
});

describe('holds', () => {
  const later = () => new Date(app.fanstage.clock.now().getTime() + 3_600_000);

  it('reserves, settles in parts, replays a settlement, refuses more than remains and releases the rest', async () => {
    const fan = await user();
    const creator = await user();
    await fundWallet(app, fan, 1000);
    const holdKey = key('call');
    const holdId = await inTransaction(db(), (tx) => reserve(tx, { key: holdKey, userId: fan, beneficiaryId: creator, amount: 600, purpose: 'call', via: PLATFORM, expiresAt: later() }));
    expect(await walletOf(app, fan)).toBe(400);
    expect(await reserve(db(), { key: holdKey, userId: fan, beneficiaryId: creator, amount: 600, purpose: 'call', via: PLATFORM, expiresAt: later() })).toBe(holdId);
    expect(await refusal(() => reserve(db(), { key: holdKey, userId: fan, beneficiaryId: creator, amount: 700, purpose: 'call', via: PLATFORM, expiresAt: later() }))).toBe(
      'idempotency-conflict',
    );
    expect(await walletOf(app, fan)).toBe(400);

    const minute1 = { key: `${holdKey}:minute:1`, holdId, fanAmount: 200, earnerCents: 160 };
    expect((await inTransaction(db(), (tx) => settle(tx, minute1))).replayed).toBe(false);
    expect((await holdRow(holdId)).remaining).toBe(400);
    expect((await settle(db(), minute1)).replayed).toBe(true);
    expect((await holdRow(holdId)).remaining).toBe(400);
    expect(await earningsOf(app, creator)).toBe(160);
    expect(await refusal(() => settle(db(), { ...minute1, earnerCents: 150 }))).toBe('idempotency-conflict');

    await settle(db(), { key: `${holdKey}:minute:2`, holdId, fanAmount: 300, earnerCents: 240 });
    expect((await holdRow(holdId)).remaining).toBe(100);
    expect(await refusal(() => settle(db(), { key: `${holdKey}:minute:3`, holdId, fanAmount: 101, earnerCents: 80 }))).toBe('noMoney');
    expect((await holdRow(holdId)).remaining).toBe(100);
    await expectLedgerBalanced(app);

    expect(await inTransaction(db(), (tx) => release(tx, holdId))).toBe(100);
    expect(await walletOf(app, fan)).toBe(500);
    expect(await earningsOf(app, creator)).toBe(400);
    const closed = await holdRow(holdId);
    expect(closed).toMatchObject({ status: 'closed', remaining: 0 });
    expect(await release(db(), holdId)).toBe(0);
    expect(await walletOf(app, fan)).toBe(500);
    // After closing, a settlement already made still replays; a new one is refused.
    expect((await settle(db(), minute1)).replayed).toBe(true);
    expect(await refusal(() => settle(db(), { key: `${holdKey}:minute:4`, holdId, fanAmount: 1, earnerCents: 1 }))).toBe('noMoney');
    await expectLedgerBalanced(app);
  });

  it('refuses a hold the wallet cannot cover and keeps no hold row, even when the caller carries on', async () => {
    const fan = await user();
    const creator = await user();
    await fundWallet(app, fan, 50);
    const holdKey = key('call');
    const input = { key: holdKey, userId: fan, beneficiaryId: creator, amount: 60, purpose: 'call', via: PLATFORM, expiresAt: later() };
    expect(await inTransaction(db(), (tx) => refusal(() => reserve(tx, input)))).toBe('noMoney');
    expect(await db().select().from(ledgerHolds).where(eq(ledgerHolds.key, holdKey))).toEqual([]);
    expect(await walletOf(app, fan)).toBe(50);
    await expectLedgerBalanced(app);
  });

  it('returns a lapsed hold to the wallet when the sweeper runs after its expiry', async () => {
    const fan = await user();
    const creator = await user();
    await fundWallet(app, fan, 300);
    const expiresAt = new Date(app.fanstage.clock.now().getTime() + 60_000);
    const holdId = await reserve(db(), { key: key('call'), userId: fan, beneficiaryId: creator, amount: 250, purpose: 'call', via: PLATFORM, expiresAt });
    await settle(db(), { key: key('minute'), holdId, fanAmount: 100, earnerCents: 80 });
    await app.fanstage.jobs.runNow('lapsed-holds');
    expect((await holdRow(holdId)).status).toBe('open');
    expect(await walletOf(app, fan)).toBe(50);

    app.fanstage.clock.advance(61_000);
    expect(await app.fanstage.jobs.runNow('lapsed-holds')).toBeGreaterThanOrEqual(1);
    expect(await holdRow(holdId)).toMatchObject({ status: 'closed', remaining: 0 });
    expect(await walletOf(app, fan)).toBe(200);
    expect(await earningsOf(app, creator)).toBe(80);
    await expectLedgerBalanced(app);
  });
});

describe('reconciliation', () => {
  it('finds a balance edited behind the ledger’s back, and an empty transfer', async () => {
    const fan = await user();
    await fundWallet(app, fan, 10);
    const id = await accountId(db(), account.wallet(fan));
    expect((await reconcile(db())).ok).toBe(true);

    await db().execute(sql`update ledger_accounts set balance = balance + 1 where id = ${id}`);
    const report = await reconcile(db());
    expect(report.ok).toBe(false);
    expect(report.total).toBe(1);
    expect(report.balanceMismatches).toEqual([{ accountId: id, kind: 'wallet', userId: fan, stored: 11, fromEntries: 10 }]);
    expect(describeReport(report)).toContain(`account ${id}, the wallet of user ${fan}: stored 11, entries sum to 10 (+1)`);
    await db().execute(sql`update ledger_accounts set balance = balance - 1 where id = ${id}`);
    expect((await reconcile(db())).ok).toBe(true);

    const [empty] = await db().insert(ledgerTransfers).values({ idempotencyKey: key('stray'), requestHash: 'x', kind: 'correction' }).returning({ id: ledgerTransfers.id });
    const withEmpty = await reconcile(db());
    expect(withEmpty.ok).toBe(false);
    expect(withEmpty.emptyTransfers.map((t) => t.transferId)).toEqual([empty!.id]);
    await db().delete(ledgerTransfers).where(eq(ledgerTransfers.id, empty!.id));
    await expectLedgerBalanced(app);
  });

  it('names a platform account that lost a cent, and says the ledger does not reconcile', async () => {
    const fan = await user();
    await fundWallet(app, fan, 10);
    // The promotions account: the platform's side of every credit it gives, owned by no user.
    const [row] = await db().select({ id: ledgerAccounts.id, balance: ledgerAccounts.balance }).from(ledgerAccounts).where(eq(ledgerAccounts.kind, 'promotions')).limit(1);
    const { id } = row!;
    const stored = Number(row!.balance);
    await db().execute(sql`update ledger_accounts set balance = balance - 1 where id = ${id}`);
    const report = await reconcile(db());
    expect(report.ok).toBe(false);
    expect(report.balanceMismatches).toEqual([{ accountId: id, kind: 'promotions', userId: null, stored: stored - 1, fromEntries: stored }]);
    const text = describeReport(report);
    expect(text).toContain(`account ${id}, the promotions account: stored ${stored - 1}, entries sum to ${stored} (-1)`);
    expect(text).toContain('Sum of all balances: -1 cents (DIFFERENCE)');
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^The ledger does NOT reconcile/);
    await db().execute(sql`update ledger_accounts set balance = balance + 1 where id = ${id}`);
    await expectLedgerBalanced(app);
  });

  it('finds a hold whose remaining amount disagrees with its transfers', async () => {
    const fan = await user();
    const creator = await user();
    await fundWallet(app, fan, 100);
    const holdId = await reserve(db(), { key: key('call'), userId: fan, beneficiaryId: creator, amount: 100, purpose: 'call', via: PLATFORM, expiresAt: new Date(Date.now() + 3_600_000) });
    await db().update(ledgerHolds).set({ remaining: 90 }).where(eq(ledgerHolds.id, holdId));
    const report = await reconcile(db());
    expect(report.ok).toBe(false);
    expect(report.holdMismatches).toEqual([{ holdId, status: 'open', amount: 100, remaining: 90, fromEntries: 100 }]);
    await db().update(ledgerHolds).set({ remaining: 100 }).where(eq(ledgerHolds.id, holdId));
    await release(db(), holdId);
    await expectLedgerBalanced(app);
  });
});

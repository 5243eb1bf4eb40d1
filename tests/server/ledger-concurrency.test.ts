/**
 * The ledger under real concurrency. PostgreSQL only: PGlite runs one connection, so its
 * transactions never overlap and a race cannot even be attempted there. `startTestServer` on
 * PostgreSQL opens a pool of 10 connections, so up to 10 of these transactions are in flight
 * at once and the rest queue for a connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { eq, sql } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { ledgerHolds, ledgerTransfers } from '../../server/src/db/schema';
import { AppError } from '../../server/src/errors';
import { account, accountId, inTransaction, pay, release, reserve, settle, transfer, type TransferResult } from '../../server/src/ledger';

/** A spend on the platform's own pages, as the fan's click there makes it. */
const PLATFORM = { channel: 'platform', at: new Date() } as const;

const onPostgres = Boolean(process.env.DATABASE_URL?.trim());

let server: TestServer;
let app: FastifyInstance;
const db = () => app.fanstage.db;
const user = async () => (await createAccount(app)).id;

type Settled<T> = { ok: true; value: T } | { ok: false; key: string };

/** Runs every task at once and sorts out which went through and which were refused (by key). */
async function all<T>(tasks: (() => Promise<T>)[]): Promise<Settled<T>[]> {
  const results = await Promise.allSettled(tasks.map((task) => task()));
  return results.map((result) => {
    if (result.status === 'fulfilled') return { ok: true, value: result.value };
    if (result.reason instanceof AppError) return { ok: false, key: result.reason.key };
    throw result.reason;
  });
}

const count = <T>(results: Settled<T>[], test: (r: Settled<T>) => boolean) => results.filter(test).length;

describe.skipIf(!onPostgres)('the ledger under concurrent transactions (PostgreSQL only: set DATABASE_URL; PGlite has one connection and cannot race)', () => {
  beforeAll(async () => {
    server = await startTestServer({ seed: false });
    app = server.app;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lets exactly N of 200 simultaneous payments through from a wallet that covers N, down to 0', { timeout: 120_000 }, async () => {
    const fan = await user();
    const creator = await user();
    const price = 119;
    const n = 5;
    await fundWallet(app, fan, n * price);
    const results = await all(
      Array.from({ length: 200 }, (_, i) => () =>
        inTransaction(db(), (tx) => pay(tx, { key: `unlock:${fan}:${i}`, kind: 'unlock', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: price, earnerCents: 95, meta: { mediaId: i } })),
      ),
    );
    expect(count(results, (r) => r.ok && !r.value.replayed)).toBe(n);
    expect(count(results, (r) => !r.ok && r.key === 'noMoney')).toBe(200 - n);
    expect(await walletOf(app, fan)).toBe(0);
    expect(await earningsOf(app, creator)).toBe(n * 95);
    await expectLedgerBalanced(app);
  });

  it('lets exactly one of 200 simultaneous payments through from a wallet that covers one, leaving the remainder', { timeout: 120_000 }, async () => {
    const fan = await user();
    // A creator with no earnings account yet: 200 transactions race to open it too.
    const creator = await user();
    await fundWallet(app, fan, 119 + 37);
    const results = await all(
      Array.from({ length: 200 }, (_, i) => () =>
        inTransaction(db(), (tx) => pay(tx, { key: `unlock:${fan}:${i}`, kind: 'unlock', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: 119, earnerCents: 95, meta: { mediaId: i } })),
      ),
    );
    expect(count(results, (r) => r.ok)).toBe(1);
    expect(count(results, (r) => !r.ok && r.key === 'noMoney')).toBe(199);
    expect(await walletOf(app, fan)).toBe(37);
    expect(await earningsOf(app, creator)).toBe(95);
    await expectLedgerBalanced(app);
  });

  it('moves money once when the same top-up callback arrives 20 times at once; the others replay', { timeout: 60_000 }, async () => {
    const fan = await user();
    const key = `topup:concurrent-${fan}`;
    const results = await all(
      Array.from({ length: 20 }, () => () =>
        inTransaction(db(), (tx) =>
          transfer(tx, {
            key,
            kind: 'topup',
            counterpartyId: fan,
            meta: { orderId: fan },
            legs: [
              { account: account.processor('sandbox'), amount: -2500 },
              { account: account.wallet(fan), amount: 2500 },
            ],
          }),
        ),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const values = results.map((r) => (r as { value: TransferResult }).value);
    expect(values.filter((v) => !v.replayed)).toHaveLength(1);
    expect(new Set(values.map((v) => v.transferId)).size).toBe(1);
    expect(await walletOf(app, fan)).toBe(2500);
    await expectLedgerBalanced(app);
  });

  it('replays, rather than refusing for want of money, the same payment sent 20 times at once from a wallet that covers it once', { timeout: 60_000 }, async () => {
    const fan = await user();
    const creator = await user();
    await fundWallet(app, fan, 119);
    await accountId(db(), account.earnings(creator));
    const results = await all(
      Array.from({ length: 20 }, () => () =>
        inTransaction(db(), (tx) => pay(tx, { key: `unlock:${fan}:1`, kind: 'unlock', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: 119, earnerCents: 95, meta: { mediaId: 1 } })),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(count(results, (r) => r.ok && !r.value.replayed)).toBe(1);
    expect(await walletOf(app, fan)).toBe(0);
    const rows = await db().select().from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, `unlock:${fan}:1`));
    expect(rows).toHaveLength(1);
    await expectLedgerBalanced(app);
  });

  it('replays twins that were already waiting for the first payment’s locks when it committed', { timeout: 60_000 }, async () => {
    const fan = await user();
    const creator = await user();
    await fundWallet(app, fan, 119);
    // Every account exists already, so the twins find all they need in their first statement.
    await accountId(db(), account.earnings(creator));
    const input = { key: `unlock:${fan}:9`, kind: 'unlock', via: PLATFORM, fanId: fan, earnerId: creator, fanAmount: 119, earnerCents: 95, meta: { mediaId: 9 } };
    // The first payment holds its transaction open until seven twins are queued on its locks:
    // each twin's statement began before the first committed, and must still replay.
    let commit!: () => void;
    const gate = new Promise<void>((resolve) => (commit = resolve));
    let paid!: () => void;
    const firstPaid = new Promise<void>((resolve) => (paid = resolve));
    const first = inTransaction(db(), async (tx) => {
      const result = await pay(tx, input);
      paid();
      await gate;
      return result;
    });
    await firstPaid;
    const twins = all(Array.from({ length: 7 }, () => () => inTransaction(db(), (tx) => pay(tx, input))));
    for (let waiting = 0; waiting < 7; ) {
      const rows = await db().execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      waiting = (rows as unknown as { rows: { n: number }[] }).rows[0]!.n;
      if (waiting < 7) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    commit();
    expect((await first).replayed).toBe(false);
    const results = await twins;
    expect(results.map((r) => (r.ok ? r.value.replayed : r.key))).toEqual(Array(7).fill(true));
    expect(await walletOf(app, fan)).toBe(0);
    expect(await earningsOf(app, creator)).toBe(95);
    await expectLedgerBalanced(app);
  });

  it('never deadlocks on transfers crossing the same accounts in opposite directions', { timeout: 120_000 }, async () => {
    const a = await user();
    const b = await user();
    await fundWallet(app, a, 1000);
    await fundWallet(app, b, 1000);
    let attempts = 0;
    const move = (from: number, to: number, i: number) => () =>
      inTransaction(db(), (tx) => {
        attempts += 1;
        return transfer(tx, { key: `gift-between:${from}:${to}:${i}`, kind: 'correction', legs: [{ account: account.wallet(from), amount: -7 }, { account: account.wallet(to), amount: 7 }] });
      });
    const results = await all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? move(a, b, i) : move(b, a, i))));
    expect(results.every((r) => r.ok)).toBe(true);
    // One statement locks both wallets, lowest id first, so no transaction ever had to run again.
    expect(attempts).toBe(100);
    expect(await walletOf(app, a)).toBe(1000);
    expect(await walletOf(app, b)).toBe(1000);
    await expectLedgerBalanced(app);
  });

  it('runs a transaction again when PostgreSQL picks it as a deadlock victim', { timeout: 60_000 }, async () => {
    const [a, b, c, d] = [await user(), await user(), await user(), await user()];
    for (const who of [a, b, c, d]) await fundWallet(app, who, 100);
    // Two transactions of two transfers each, in opposite orders, each waiting (on its first
    // try) until the other has made its first transfer: a deadlock every time.
    let arrived = 0;
    let open!: () => void;
    const bothFirstDone = new Promise<void>((resolve) => (open = resolve));
    const barrier = async () => {
      arrived += 1;
      if (arrived === 2) open();
      await bothFirstDone;
    };
    const attempts: Record<0 | 1, number> = { 0: 0, 1: 0 };
    const run = (which: 0 | 1, first: [number, number], second: [number, number]) =>
      inTransaction(db(), async (tx) => {
        attempts[which] += 1;
        const leg = ([from, to]: [number, number], n: number) =>
          transfer(tx, { key: `deadlock:${which}:${n}:${from}`, kind: 'correction', legs: [{ account: account.wallet(from), amount: -10 }, { account: account.wallet(to), amount: 10 }] });
        await leg(first, 1);
        if (attempts[which] === 1) await barrier();
        await leg(second, 2);
      });
    await Promise.all([run(0, [a, b], [c, d]), run(1, [c, d], [a, b])]);
    expect(attempts[0] + attempts[1]).toBe(3);
    for (const [who, balance] of [
      [a, 80],
      [b, 120],
      [c, 80],
      [d, 120],
    ] as const) {
      expect(await walletOf(app, who)).toBe(balance);
    }
    await expectLedgerBalanced(app);
  });

  it('never overspends a wallet or a hold under simultaneous reserves, settlements and a release', { timeout: 120_000 }, async () => {
    const fan = await user();
    const creator = await user();
    await fundWallet(app, fan, 1000);
    const expiresAt = new Date(app.fanstage.clock.now().getTime() + 3_600_000);

    // 50 holds of 300 at once from 1000: three fit.
    const reserves = await all(
      Array.from({ length: 50 }, (_, i) => () => inTransaction(db(), (tx) => reserve(tx, { key: `call:${fan}:${i}`, userId: fan, beneficiaryId: creator, amount: 300, purpose: 'call', via: PLATFORM, expiresAt }))),
    );
    const holds = reserves.filter((r) => r.ok).map((r) => (r as { value: number }).value);
    expect(holds).toHaveLength(3);
    expect(count(reserves, (r) => !r.ok && r.key === 'noMoney')).toBe(47);
    expect(await db().select().from(ledgerHolds).where(eq(ledgerHolds.userId, fan))).toHaveLength(3);
    expect(await walletOf(app, fan)).toBe(100);

    // The same hold key 20 times at once: one hold, paid for once.
    const again = await all(
      Array.from({ length: 20 }, () => () => inTransaction(db(), (tx) => reserve(tx, { key: `call:${fan}:same`, userId: fan, beneficiaryId: creator, amount: 60, purpose: 'call', via: PLATFORM, expiresAt }))),
    );
    expect(new Set(again.map((r) => (r.ok ? r.value : r.key))).size).toBe(1);
    expect(await walletOf(app, fan)).toBe(40);

    // 60 settlements of 30 on the first hold (300 covers 10) with a release racing them.
    const holdId = holds[0]!;
    const tasks: (() => Promise<unknown>)[] = Array.from({ length: 60 }, (_, i) => () =>
      inTransaction(db(), (tx) => settle(tx, { key: `call:${holdId}:minute:${i}`, holdId, fanAmount: 30, earnerCents: 24 })),
    );
    tasks.splice(25, 0, () => inTransaction(db(), (tx) => release(tx, holdId)));
    const settled = await all(tasks);
    const paid = count(settled, (r) => r.ok && typeof r.value === 'object');
    const released = (settled[25] as { ok: true; value: number }).value;
    expect(count(settled, (r) => !r.ok && r.key !== 'noMoney')).toBe(0);
    expect(paid).toBeLessThanOrEqual(10);
    expect(paid * 30 + released).toBe(300);
    expect(await earningsOf(app, creator)).toBe(paid * 24);
    const [row] = await db().select().from(ledgerHolds).where(eq(ledgerHolds.id, holdId));
    expect(row).toMatchObject({ status: 'closed', remaining: 0 });
    expect(await walletOf(app, fan)).toBe(40 + released);

    // 40 settlements of 30 on the second hold, nothing else: exactly 10 go through.
    const second = holds[1]!;
    const rest = await all(Array.from({ length: 40 }, (_, i) => () => inTransaction(db(), (tx) => settle(tx, { key: `call:${second}:minute:${i}`, holdId: second, fanAmount: 30, earnerCents: 24 }))));
    expect(count(rest, (r) => r.ok)).toBe(10);
    expect(count(rest, (r) => !r.ok && r.key === 'noMoney')).toBe(30);
    const [drained] = await db().select().from(ledgerHolds).where(eq(ledgerHolds.id, second));
    expect(drained).toMatchObject({ status: 'open', remaining: 0 });
    await expectLedgerBalanced(app);
  });
});

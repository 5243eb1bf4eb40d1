import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gift } from '../../lib/contract/gifts';
import { ledgerTransfers } from '../../server/src/db/schema';
import { createAccount, type TestAccount } from '../support/accounts';
import { eq } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { createPgCluster, findPgBin, type PgCluster } from '../support/pg-cluster';
import { openArrangingApp, runReconcileScript, startServerProcess, stopServerProcess, type ProcessSettings, type ServerProcess } from '../support/processes';

/**
 * The database goes away under a running server and comes back: a PostgreSQL server of the
 * test's own is stopped (`pg_ctl stop -m fast`: open transactions aborted, every backend
 * terminated with 57P01, new connections refused) while fans tip a creator, ten at a time,
 * through a server process as an operator runs it. The process stays up, answers 503 with
 * Retry-After while it cannot reach the database, serves again within five seconds of the
 * database's return, and every tip is in the ledger exactly once once each unanswered one is
 * resent with its idempotency key.
 */
const bin = findPgBin();
const onPostgres = Boolean(process.env.DATABASE_URL?.trim() && process.env.DATABASE_URL.trim() !== 'memory://');
const runnable = onPostgres && bin !== undefined;

const fansCount = 10;
const funded = 50_000_000;
/** How long the database has, once started again, until tips must succeed again. */
const recoveryBound = 5_000;

type Outcome = { kind: 'ok' } | { kind: 'unavailable' } | { kind: 'lost'; error: string } | { kind: 'failed'; status: number; body: string };

describe.skipIf(!runnable)(`the database restarts under load (${runnable ? 'a PostgreSQL cluster of the test\'s own' : 'skipped: needs DATABASE_URL and PostgreSQL\'s initdb'})`, () => {
  let cluster: PgCluster | undefined;
  let dataDir: string;
  let settings: ProcessSettings;
  let app: FastifyInstance | undefined;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    cluster = await createPgCluster(bin!);
    dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-outage-'));
    settings = { dataDir, databaseUrl: cluster.url, jwtSecret: randomBytes(32).toString('hex') };
    app = await openArrangingApp(settings);
    server = await startServerProcess(settings);
  }, 120_000);

  afterAll(async () => {
    await stopServerProcess(server);
    await app?.close();
    await cluster?.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the process stays up, answers 503 while the database is away and serves again; every tip is charged exactly once', { timeout: 120_000 }, async () => {
    const base = server!.baseUrl;
    const creator = await createAccount(app!, { seller: true });
    const fans: TestAccount[] = [];
    for (let i = 0; i < fansCount; i++) {
      const fan = await createAccount(app!);
      await fundWallet(app!, fan.id, funded);
      fans.push(fan);
    }
    const gifts = ((await (await fetch(`${base}/papi/gifts`)).json()) as { body: Gift[] }).body;
    const gift = gifts.find((g) => g.gValue > 0)!;

    // Every tip: its fan and key, and what its last attempt got.
    const tips: { fan: TestAccount; key: string; outcome?: Outcome }[] = [];
    const unavailableHeaders: { retryAfter: string | null; cacheControl: string | null }[] = [];

    async function send(tip: { fan: TestAccount; key: string }): Promise<Outcome> {
      try {
        const response = await fetch(`${base}/api/users/tip`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tip.fan.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ userId: creator.id, giftId: gift.id, idempotencyKey: tip.key }),
        });
        const text = await response.text();
        if (response.status === 200 && (JSON.parse(text) as { statusCode: number }).statusCode === 2) return { kind: 'ok' };
        if (response.status === 503 && (JSON.parse(text) as { statusText?: string }).statusText === 'service-unavailable') {
          unavailableHeaders.push({ retryAfter: response.headers.get('retry-after'), cacheControl: response.headers.get('cache-control') });
          return { kind: 'unavailable' };
        }
        return { kind: 'failed', status: response.status, body: text };
      } catch (error) {
        return { kind: 'lost', error: String(error) };
      }
    }

    const count = (kind: Outcome['kind']) => tips.filter((tip) => tip.outcome?.kind === kind).length;
    let running = true;
    const workers = fans.map(async (fan) => {
      while (running) {
        const tip = { fan, key: randomBytes(9).toString('base64url') } as (typeof tips)[number];
        tips.push(tip);
        tip.outcome = await send(tip);
        // While the database is away, a client waits a little, as Retry-After asks (shortened here).
        if (tip.outcome.kind !== 'ok') await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    const until = async (condition: () => boolean | Promise<boolean>, what: string, patience = 30_000) => {
      const deadline = Date.now() + patience;
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}; outcomes ${JSON.stringify({ ok: count('ok'), unavailable: count('unavailable'), lost: count('lost'), failed: count('failed') })}\n${server!.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };

    await until(() => count('ok') >= 50, 'fifty tips went through');
    // Writes are in flight while PostgreSQL stops: their transactions are cut off mid-way.
    await cluster!.stop();
    await until(() => count('unavailable') >= 30, 'tips are answered service-unavailable');

    // While it is away: liveness yes, readiness no, and a route the CDN would cache is not cached.
    const live = await fetch(`${base}/papi/health/live`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${base}/papi/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { statusText: string }).statusText).toBe('service-unavailable');
    expect(ready.headers.get('retry-after')).toMatch(/^\d+$/);
    const catalogue = await fetch(`${base}/papi/gifts`);
    expect(catalogue.status).toBe(503);
    expect(catalogue.headers.get('cache-control')).toBe('no-store');

    await cluster!.start();
    const okBefore = count('ok');
    const back = Date.now();
    await until(() => count('ok') >= okBefore + fansCount, 'tips go through again after the database came back', recoveryBound);
    expect(Date.now() - back).toBeLessThanOrEqual(recoveryBound);
    expect((await fetch(`${base}/papi/health/ready`)).status).toBe(200);
    running = false;
    await Promise.all(workers);

    // The process never went down, and nothing it answered was an error of another kind.
    expect(server!.child.exitCode, server!.output()).toBeNull();
    expect(server!.output()).not.toMatch(/Unhandled|uncaught/i);
    expect(tips.filter((tip) => tip.outcome?.kind === 'failed').map((tip) => tip.outcome)).toEqual([]);
    expect(unavailableHeaders.every((h) => /^\d+$/.test(h.retryAfter ?? '') && h.cacheControl === 'no-store')).toBe(true);

    // Resend every tip that got no answer or a 503, with its own key, as the SDK does.
    for (const tip of tips) {
      while (tip.outcome?.kind !== 'ok') {
        tip.outcome = await send(tip);
        expect(tip.outcome.kind === 'ok' || tip.outcome.kind === 'unavailable', JSON.stringify(tip.outcome)).toBe(true);
      }
    }

    // Exactly once: the ledger holds one gift transfer per tip, and the balances agree.
    const rows = await app!.fanstage.db.select({ key: ledgerTransfers.idempotencyKey }).from(ledgerTransfers).where(eq(ledgerTransfers.kind, 'gift'));
    const expected = tips.map((tip) => `gift:${tip.fan.id}:${tip.key}`).sort();
    expect(rows.map((row) => row.key).sort()).toEqual(expected);
    for (const fan of fans) {
      const sent = tips.filter((tip) => tip.fan === fan).length;
      expect(await walletOf(app!, fan.id)).toBe(funded - sent * gift.gValue);
    }
    expect(await earningsOf(app!, creator.id)).toBe(tips.length * gift.cValue);
    await expectLedgerBalanced(app!);
    const reconciled = await runReconcileScript(settings);
    expect(reconciled.code, reconciled.stdout + reconciled.stderr).toBe(0);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Call } from '../../lib/contract/calls';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { calls, ledgerHolds, users } from '../../server/src/db/schema';
import { createAccount, type TestAccount } from '../support/accounts';
import { and, eq, sql } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import {
  freshProcessDatabase,
  openArrangingApp,
  runReconcileScript,
  startServerProcess,
  stopServerProcess,
  type ProcessDatabase,
  type ProcessSettings,
  type ServerProcess,
} from '../support/processes';
import { isCall, liveCall } from '../support/calls';
import { closeSockets, type SocketClient } from '../support/sockets';

/**
 * Crash safety of paid calls (docs/calls.md "Crash safety"), with the server as an operator runs
 * it: a process of the test's own on PGlite files or, with DATABASE_URL, on a PostgreSQL
 * database of its own. Killed mid-call, it leaves a hold, not a debt: once the lease of the dead
 * node lapses, the restarted server closes the call, the fan pays the minutes begun before the
 * kill, the rest of the hold goes back and `npm run reconcile` finds the ledger clean. Stopped
 * with SIGTERM, it ends its calls itself.
 *
 * These wait for real time (the process's clock cannot be moved): about half a minute for the
 * second minute to be held, and the lease's 15 s to lapse.
 */

const PRICE = 128;
const SALT = 12_500;
const agreed = fanPriceCents(PRICE, SALT);
const FUNDS = 1000;

let database: ProcessDatabase | undefined;
let dataDir: string | undefined;
const processes: ServerProcess[] = [];

afterEach(async () => {
  closeSockets();
  for (const server of processes.splice(0)) await stopServerProcess(server, 'SIGKILL');
  await database?.drop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  database = undefined;
  dataDir = undefined;
});

interface Arranged {
  settings: ProcessSettings;
  fan: TestAccount;
  star: TestAccount;
}

/** Two people on a fresh database: a fan with 1,000 credits and a creator whose minute costs 128 cents. */
async function arrange(): Promise<Arranged> {
  database = await freshProcessDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-calls-crash-'));
  const settings: ProcessSettings = { dataDir, databaseUrl: database.databaseUrl, jwtSecret: randomBytes(32).toString('base64url') };
  const app = await openArrangingApp(settings);
  try {
    const fan = await createAccount(app);
    const star = await createAccount(app, { seller: true });
    await app.fanstage.db.update(users).set({ callPrice: PRICE }).where(eq(users.id, star.id));
    await fundWallet(app, fan.id, FUNDS);
    return { settings, fan, star };
  } finally {
    await app.close();
  }
}

async function start(settings: ProcessSettings, env?: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(settings, { env: { PRICE_SALT: String(SALT), ...env } });
  processes.push(server);
  return server;
}

/** `next` with more patience than the socket helper's 15 s. */
async function waitLong(socket: SocketClient, test: Parameters<SocketClient['next']>[0], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await socket.next(test);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** Reads the ledger and the call with the server's own code once the processes are gone, and runs `npm run reconcile`. */
async function inspect(settings: ProcessSettings, arranged: Arranged, callId: string) {
  const app = await openArrangingApp(settings);
  try {
    const [call] = await app.fanstage.db.select().from(calls).where(eq(calls.id, callId));
    const openHolds = await app.fanstage.db
      .select()
      .from(ledgerHolds)
      .where(and(sql`${ledgerHolds.key} like ${`call:${callId}:%`}`, eq(ledgerHolds.status, 'open')));
    const holds = await app.fanstage.db.select().from(ledgerHolds).where(sql`${ledgerHolds.key} like ${`call:${callId}:%`}`);
    await expectLedgerBalanced(app);
    return { call: call!, openHolds, holds, wallet: await walletOf(app, arranged.fan.id), earnings: await earningsOf(app, arranged.star.id) };
  } finally {
    await app.close();
  }
}

describe('a server process that goes away mid-call', () => {
  it('is SIGKILLed with two minutes held and restarted: the call is closed, the fan pays the one minute begun, the second hold goes back, reconcile is clean', async () => {
    const arranged = await arrange();
    const { settings, fan, star } = arranged;
    const first = await start(settings);
    const { callId, fanSocket } = await liveCall(first, fan, star);
    // 30 s before the first minute ends the second is held: the fan's balance says so.
    await waitLong(fanSocket, (m) => m.type === 'amountChange' && m.balance.gBalance === FUNDS - 2 * agreed, 60_000);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    closeSockets();

    // Started again (as in production, where the sweeper runs on its timer; a staging server,
    // since its money is the sandbox's): once the dead node's lease lapsed, the call is closed.
    const second = await start(settings, { NODE_ENV: 'production', FANSTAGE_STAGING: '1', LOG_LEVEL: 'warn' });
    const deadline = Date.now() + 60_000;
    let record: Call | undefined;
    while (Date.now() < deadline) {
      const answer = (await (await fetch(`${second.baseUrl}/api/calls/${callId}`, { headers: { authorization: `Bearer ${fan.accessToken}` } })).json()) as { body?: Call };
      record = answer.body;
      if (record?.state === 'ended') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(record, second.output()).toMatchObject({ state: 'ended', endReason: 'failed', minutes: 1, cost: agreed, agreedPrice: agreed, earningsPrice: PRICE });
    await stopServerProcess(second);

    const after = await inspect(settings, arranged, callId);
    expect(after.wallet).toBe(FUNDS - agreed);
    expect(after.earnings).toBe(PRICE);
    expect(after.holds).toHaveLength(2);
    expect(after.openHolds).toEqual([]);
    expect(after.call).toMatchObject({ state: 'ended', minutes: 1, heldThrough: 2, settledThrough: 1, leaseNode: null });
    const reconciled = await runReconcileScript(settings);
    expect(reconciled.code, reconciled.stdout + reconciled.stderr).toBe(0);
  }, 240_000);

  it('is stopped with SIGTERM: it ends its calls as a hang-up, paying the minute under way', async () => {
    const arranged = await arrange();
    const { settings, fan, star } = arranged;
    const server = await start(settings);
    const { callId, fanSocket, starSocket } = await liveCall(server, fan, star);
    expect((await stopServerProcess(server, 'SIGTERM')).code, server.output()).toBe(0);
    // Both heard the call end, with its totals, before their sockets closed with 1001.
    for (const socket of [fanSocket, starSocket]) {
      expect(await socket.closed).toBe(1001);
      const stop = socket.received.find((m) => m.type === 'callMessage' && isCall(callId, 'callStop')(m));
      expect(stop, JSON.stringify(socket.received)).toMatchObject({ callMessageBody: { reason: 'disconnected', minutes: 1 } });
    }
    closeSockets();

    const after = await inspect(settings, arranged, callId);
    expect(after.call).toMatchObject({ state: 'ended', endReason: 'disconnected', minutes: 1, cost: agreed, earnings: PRICE });
    expect(after.wallet).toBe(FUNDS - agreed);
    expect(after.earnings).toBe(PRICE);
    expect(after.openHolds).toEqual([]);
    const reconciled = await runReconcileScript(settings);
    expect(reconciled.code, reconciled.stdout + reconciled.stderr).toBe(0);
  }, 120_000);
});

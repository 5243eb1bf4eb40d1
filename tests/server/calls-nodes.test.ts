import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { calls, ledgerHolds, users } from '../../server/src/db/schema';
import { callRuntime } from '../../server/src/features/calls/runtime';
import { createAccount } from '../support/accounts';
import { and, eq, sql } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { startTestServer, type TestServer } from '../support/server';
import { acceptCall, isCall, newCallId, sendCall } from '../support/calls';
import { closeSockets, connectSocket, type SocketClient } from '../support/sockets';

/**
 * Calls across two server nodes on one PostgreSQL database and one Redis: the fan on one node,
 * the creator on the other. Exactly one node runs the call's billing clock — the one holding
 * the lease, where the call was accepted — and when that node dies the other closes the call.
 * PGlite cannot be shared between two servers, so this suite needs DATABASE_URL and REDIS_URL.
 */
const databaseUrl = process.env.DATABASE_URL?.trim();
const redisUrl = process.env.REDIS_URL?.trim();
const runnable = Boolean(databaseUrl && databaseUrl !== 'memory://' && redisUrl);

let nodeA: TestServer;
let nodeB: TestServer;

const PRICE = 128;


/** Publishes on node A until the socket on node B has it: B's Redis subscription may lag its start a moment. */
async function busReady(client: SocketClient, userId: number): Promise<void> {
  const marker = Math.floor(Math.random() * 1e9);
  const deadline = Date.now() + 15_000;
  while (!client.received.some((m) => m.type === 'pong' && m.ts === marker)) {
    if (Date.now() > deadline) throw new Error('the bus never delivered');
    nodeA.app.fanstage.realtime.publish(userId, { type: 'pong', ts: marker });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!runnable)(`calls across nodes (${runnable ? 'PostgreSQL + Redis' : 'skipped: needs DATABASE_URL (PostgreSQL) and REDIS_URL'})`, () => {
  beforeAll(async () => {
    nodeA = await startTestServer({ seed: false, redisUrl });
    nodeB = await startTestServer({ seed: false, redisUrl, databaseUrl: nodeA.databaseUrl, jwtSecret: nodeA.app.fanstage.config.jwtSecret });
  });
  afterAll(async () => {
    closeSockets();
    await nodeB?.close();
    await nodeA?.close();
  });

  it('runs the clock on the node that took the call only, and the other closes the call once that node’s lease lapsed', async () => {
    const app = nodeA.app;
    const agreed = fanPriceCents(PRICE, app.fanstage.config.priceSalt);
    const fan = await createAccount(app);
    const star = await createAccount(app, { seller: true });
    await app.fanstage.db.update(users).set({ callPrice: PRICE }).where(eq(users.id, star.id));
    await fundWallet(app, fan.id, 1000);
    const a = callRuntime(nodeA.app.fanstage);
    const b = callRuntime(nodeB.app.fanstage);
    /** Both nodes' clocks move together, as real ones do. */
    const elapse = async (ms: number) => {
      nodeA.app.fanstage.clock.advance(ms);
      nodeB.app.fanstage.clock.advance(ms);
      await Promise.all([a.clock.tick(), b.clock.tick()]);
    };

    const fanSocket = await connectSocket(nodeA, fan);
    const starSocket = await connectSocket(nodeB, star);
    await busReady(starSocket, star.id);
    const callId = newCallId();
    sendCall(fanSocket, callId, 'preOffer', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(callId, 'preOffer'));
    await acceptCall({ callId, fanSocket, starSocket }, fan);

    const [row] = await app.fanstage.db.select().from(calls).where(eq(calls.id, callId));
    expect(row).toMatchObject({ state: 'live', leaseNode: b.nodeId });
    expect(b.clock.running()).toContain(callId);
    expect(a.clock.running()).not.toContain(callId);

    // Ninety-five seconds: B holds minute 2, pays minute 1, holds minute 3 — once, though both tick.
    await elapse(30_000);
    await elapse(30_000);
    await elapse(35_000);
    expect(await fanSocket.nextOf('callMessage', 0, isCall(callId, 'timeLeft'))).toMatchObject({ senderId: 0 });
    expect(await earningsOf(app, star.id)).toBe(PRICE);
    expect(await walletOf(app, fan.id)).toBe(1000 - 3 * agreed);

    // B dies: its clock stops and its lease is not renewed. A's sweeper waits for the lease.
    b.clock.forget(callId);
    nodeA.app.fanstage.clock.advance(5_000);
    expect(await nodeA.app.fanstage.jobs.runNow('calls-sweep')).toBe(0);
    nodeA.app.fanstage.clock.advance(15_000);
    expect(await nodeA.app.fanstage.jobs.runNow('calls-sweep')).toBe(1);
    // Minutes begun before B last renewed its lease (at 95 s): two; the third hold goes back.
    expect((await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'failed', minutes: 2, cost: 2 * agreed });
    expect((await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'failed', minutes: 2, earnings: 2 * PRICE });
    expect(await walletOf(app, fan.id)).toBe(1000 - 2 * agreed);
    expect(await earningsOf(app, star.id)).toBe(2 * PRICE);
    const open = await app.fanstage.db
      .select()
      .from(ledgerHolds)
      .where(and(sql`${ledgerHolds.key} like ${`call:${callId}:%`}`, eq(ledgerHolds.status, 'open')));
    expect(open).toEqual([]);
    await expectLedgerBalanced(app);
  });
});

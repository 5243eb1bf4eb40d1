import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallStatus } from '../../lib/contract/calls';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { calls, ledgerHolds } from '../../server/src/db/schema';
import { CALL_MINUTE_MS, DISCONNECT_GRACE_MS, LEASE_MS, RING_TIMEOUT_MS } from '../../server/src/features/calls/domain';
import { callRuntime, type CallRuntime } from '../../server/src/features/calls/runtime';
import { createCallService } from '../../server/src/features/calls/service';
import { createAccount, type TestAccount } from '../support/accounts';
import { and, eq, sql } from '../support/db';
import { apiCaller } from '../support/inject';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { startTestServer, type TestServer } from '../support/server';
import { CALL_PRICE, callingCreator, isCall, liveCall as liveCallOn, newCallId, sendCall, type LiveCall } from '../support/calls';
import { closeSockets, connectSocket } from '../support/sockets';

/**
 * Paid calls on the server (docs/calls.md), over real sockets of a real server on a real
 * database. The billing clock runs on the server's clock, which the tests move forward and then
 * await a tick of: three minutes of a call take no three minutes of the test.
 */

let server: TestServer;
let app: FastifyInstance;
let calling: CallRuntime;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
  calling = callRuntime(app.fanstage, app.log);
});
afterAll(async () => {
  closeSockets();
  await server?.close();
});

const call = apiCaller(() => app);
/** The creators' price: a call-minute step (stored cents); the fan pays it with the salt. */
const PRICE = CALL_PRICE;
const fanPrice = () => fanPriceCents(PRICE, app.fanstage.config.priceSalt);
const send = sendCall;

/** Moves the server's clock and waits for the billing clocks to do what is due. */
async function elapse(ms: number): Promise<void> {
  app.fanstage.clock.advance(ms);
  await calling.clock.tick();
}

/** A creator whose call price is `price` a minute, set as she would set it. */
const creator = (price = PRICE): Promise<TestAccount> => callingCreator(app, price);

/** The fan rings the creator and she accepts: both see callStart. */
const liveCall = (fan: TestAccount, star: TestAccount): Promise<LiveCall> => liveCallOn(server, fan, star);

async function openHolds(callId: string) {
  return app.fanstage.db
    .select()
    .from(ledgerHolds)
    .where(and(sql`${ledgerHolds.key} like ${`call:${callId}:%`}`, eq(ledgerHolds.status, 'open')));
}

async function record(callId: string) {
  const [row] = await app.fanstage.db.select().from(calls).where(eq(calls.id, callId));
  return row!;
}

describe('a paid call', () => {
  it('rings the creator with the caller and the prices, goes live on accept, bills each minute begun and hangs up with the totals', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);
    const callId = newCallId();

    send(fanSocket, callId, 'preOffer', star.id, { agreedPrice: 1 });
    const offer = await starSocket.nextOf('callMessage', 0, isCall(callId, 'preOffer'));
    // The prices are the server's, whatever the caller put in the body.
    expect(offer).toEqual({
      type: 'callMessage',
      callId,
      callMessageType: 'preOffer',
      senderId: fan.id,
      receiverId: star.id,
      callMessageBody: { caller: { id: fan.id, username: fan.username, displayName: expect.any(String), avatarUrl: null }, agreedPrice: fanPrice(), earningsPrice: PRICE },
    });
    expect(await walletOf(app, fan.id)).toBe(1000);

    send(starSocket, callId, 'preAnswer', fan.id, { accept: true });
    expect(await fanSocket.nextOf('callMessage', 0, isCall(callId, 'preAnswer'))).toMatchObject({ senderId: star.id, callMessageBody: { accept: true, status: CallStatus.accepted } });
    const start = await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStart'));
    expect(start).toMatchObject({ senderId: 0, receiverId: fan.id });
    await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStart'));
    expect(await fanSocket.nextOf('callMessage', 0, isCall(callId, 'timeLeft'))).toMatchObject({ senderId: 0, callMessageBody: { seconds: 60, minutes: 0, cost: 0 } });
    // The first minute is held from the wallet at once.
    expect(await walletOf(app, fan.id)).toBe(1000 - fanPrice());
    expect(await record(callId)).toMatchObject({ state: 'live', heldThrough: 1, settledThrough: 0 });

    // Ten seconds in (50 s before the first minute ends) the second is held, and the fan's
    // meter counts to the end of both; at the first minute's end it is paid.
    let from = fanSocket.mark;
    await elapse(10_000);
    expect(await walletOf(app, fan.id)).toBe(1000 - 2 * fanPrice());
    expect(await earningsOf(app, star.id)).toBe(0);
    expect(await fanSocket.nextOf('callMessage', from, isCall(callId, 'timeLeft'))).toMatchObject({ callMessageBody: { seconds: 110, minutes: 0, cost: 0 } });
    from = fanSocket.mark;
    await elapse(50_000);
    expect(await fanSocket.nextOf('callMessage', from, isCall(callId, 'timeLeft'))).toMatchObject({ callMessageBody: { seconds: 60, minutes: 1, cost: fanPrice() } });
    expect(await starSocket.nextOf('callMessage', 0, isCall(callId, 'callEarnings'))).toMatchObject({ senderId: 0, callMessageBody: { earnings: PRICE, minutes: 1 } });
    expect(await earningsOf(app, star.id)).toBe(PRICE);

    // A clock moved by a minute and a half catches up step by step: minute 3 held, 2 paid, 4 held.
    await elapse(95_000);
    expect(await record(callId)).toMatchObject({ state: 'live', heldThrough: 4, settledThrough: 2, minutes: 2 });
    expect(await walletOf(app, fan.id)).toBe(1000 - 4 * fanPrice());

    // Hanging up in the third minute pays it in full and gives the fourth back.
    from = fanSocket.mark;
    const creatorFrom = starSocket.mark;
    send(fanSocket, callId, 'callStop', star.id);
    expect(await fanSocket.nextOf('callMessage', from, isCall(callId, 'callStop'))).toEqual({
      type: 'callMessage',
      callId,
      callMessageType: 'callStop',
      senderId: 0,
      receiverId: fan.id,
      callMessageBody: { reason: 'hangup', status: CallStatus.ended, minutes: 3, cost: 3 * fanPrice() },
    });
    expect(await starSocket.nextOf('callMessage', creatorFrom, isCall(callId, 'callStop'))).toMatchObject({
      callMessageBody: { reason: 'hangup', status: CallStatus.ended, minutes: 3, earnings: 3 * PRICE },
    });
    expect(await walletOf(app, fan.id)).toBe(1000 - 3 * fanPrice());
    expect(await earningsOf(app, star.id)).toBe(3 * PRICE);
    expect(await openHolds(callId)).toEqual([]);
    await expectLedgerBalanced(app);

    // Nothing more moves once it ended, however far the clock goes.
    await elapse(5 * CALL_MINUTE_MS);
    expect(await walletOf(app, fan.id)).toBe(1000 - 3 * fanPrice());
    expect(calling.clock.running()).not.toContain(callId);

    // The record, as each party reads it; anyone else does not learn it exists.
    const asFan = (await call('GET', `/api/calls/${callId}`, fan)).json;
    expect(asFan).toMatchObject({
      statusCode: 2,
      body: {
        callId,
        caller: { id: fan.id },
        callee: { id: star.id },
        peerId: star.id,
        callIsIncoming: false,
        state: 'ended',
        endReason: 'hangup',
        agreedPrice: fanPrice(),
        earningsPrice: PRICE,
        minutes: 3,
        cost: 3 * fanPrice(),
        earnings: 0,
      },
    });
    // The server's clock moved 155 s, and real time a little.
    expect(asFan.body.ended - asFan.body.started).toBeGreaterThanOrEqual(155_000);
    expect(asFan.body.ended - asFan.body.started).toBeLessThan(165_000);
    expect((await call('GET', `/api/calls/${callId}`, star)).json.body).toMatchObject({ peerId: fan.id, callIsIncoming: true, earnings: 3 * PRICE });
    const stranger = await createAccount(app);
    expect((await call('GET', `/api/calls/${callId}`, stranger)).json).toEqual({ statusCode: -1, statusText: 'not-found' });
    expect((await call('GET', `/api/calls/${newCallId()}`, fan)).json).toEqual({ statusCode: -1, statusText: 'not-found' });
    expect((await call('GET', '/api/calls/short', fan)).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });

    // Both histories show the call: the fan's wallet three minutes paid (the minute given back
    // leaves no line), the creator's earnings three minutes earned.
    const wallet = (await call('GET', '/api/payments/transactions', fan)).json.body as { transferType: string; transactionType: string; amountCents: number; user: { id: number } | null }[];
    const callLines = wallet.filter((line) => line.transferType === 'call');
    expect(callLines.map((line) => line.amountCents)).toEqual([-fanPrice(), -fanPrice(), -fanPrice()]);
    expect(callLines.every((line) => line.transactionType === 'call' && line.user?.id === star.id)).toBe(true);
    expect(wallet.reduce((sum, line) => sum + line.amountCents, 0)).toBe(await walletOf(app, fan.id));
    const earned = (await call('GET', '/api/earnings/', star)).json.body as { transferType: string; amountCents: number; user: { id: number } | null }[];
    expect(earned.filter((line) => line.transferType === 'call').map((line) => [line.amountCents, line.user?.id])).toEqual([
      [PRICE, fan.id],
      [PRICE, fan.id],
      [PRICE, fan.id],
    ]);
  });

  it('tells a fan with credit for one minute the time left, holds the next minute after a top-up and goes on', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, fanPrice());
    const { callId, fanSocket, starSocket } = await liveCall(fan, star);
    expect(await walletOf(app, fan.id)).toBe(0);

    await elapse(30_000);
    expect(await fanSocket.nextOf('callMessage', 0, isCall(callId, 'askForMoney'))).toMatchObject({ senderId: 0, callMessageBody: { seconds: 30, pricePerMinute: fanPrice() } });
    // The creator is not told; the fan alone is asked.
    expect(starSocket.all('callMessage').filter((m) => m.callMessageType === 'askForMoney')).toEqual([]);

    await fundWallet(app, fan.id, 500);
    await elapse(5_000);
    // Two minutes are held now: 25 s of the first and the whole second.
    expect(await fanSocket.nextOf('callMessage', 0, isCall(callId, 'creditOK'))).toMatchObject({ senderId: 0, callMessageBody: { seconds: 85 } });
    expect(await walletOf(app, fan.id)).toBe(500 - fanPrice());

    await elapse(25_000);
    expect(await record(callId)).toMatchObject({ state: 'live', minutes: 1, heldThrough: 2 });
    send(starSocket, callId, 'callStop', fan.id);
    expect(await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).toMatchObject({ callMessageBody: { reason: 'hangup', minutes: 2, cost: 2 * fanPrice() } });
    expect(await walletOf(app, fan.id)).toBe(fanPrice() + 500 - 2 * fanPrice());
    expect(await earningsOf(app, star.id)).toBe(2 * PRICE);
    await expectLedgerBalanced(app);
  });

  it('ends a call whose next minute cannot be held when the paid one runs out, and charges nothing more', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, fanPrice() + 10);
    const { callId, fanSocket, starSocket } = await liveCall(fan, star);

    await elapse(30_000);
    await fanSocket.nextOf('callMessage', 0, isCall(callId, 'askForMoney'));
    // Trying again while asked does not ask again.
    await elapse(10_000);
    expect(fanSocket.all('callMessage').filter((m) => m.callMessageType === 'askForMoney')).toHaveLength(1);
    await elapse(20_000);
    const stop = await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'));
    expect(stop.callMessageBody).toEqual({ reason: 'couldNotBePaid', status: CallStatus.couldNotBePaid, minutes: 1, cost: fanPrice() });
    expect((await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'couldNotBePaid', earnings: PRICE });
    expect(await record(callId)).toMatchObject({ state: 'ended', endReason: 'couldNotBePaid', minutes: 1 });
    expect((await record(callId)).endedAt!.getTime() - (await record(callId)).startedAt!.getTime()).toBe(CALL_MINUTE_MS);

    // A top-up after the end holds nothing.
    await fundWallet(app, fan.id, 1000);
    await elapse(3 * CALL_MINUTE_MS);
    expect(await walletOf(app, fan.id)).toBe(1010);
    expect(await earningsOf(app, star.id)).toBe(PRICE);
    expect(await openHolds(callId)).toEqual([]);
    await expectLedgerBalanced(app);
  });

  it('bills nothing for a free call, and records how long it lasted', async () => {
    const fan = await createAccount(app);
    const star = await creator(0);
    const { callId, fanSocket } = await liveCall(fan, star);
    await elapse(CALL_MINUTE_MS + 1_000);
    send(fanSocket, callId, 'callStop', star.id);
    expect((await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toEqual({ reason: 'hangup', status: CallStatus.ended, minutes: 2, cost: 0 });
    expect(await app.fanstage.db.select().from(ledgerHolds).where(sql`${ledgerHolds.key} like ${`call:${callId}:%`}`)).toEqual([]);
  });

  it('relays signalling, chat and gifts only between the two parties, the media connection only once live', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);
    const callId = newCallId();
    send(fanSocket, callId, 'preOffer', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(callId, 'preOffer'));

    // Ringing: a word may go, the media connection may not.
    send(fanSocket, callId, 'chatMessage', star.id, { text: '  hi there ', extra: 'dropped' });
    expect(await starSocket.nextOf('callMessage', 0, isCall(callId, 'chatMessage'))).toEqual({
      type: 'callMessage',
      callId,
      callMessageType: 'chatMessage',
      senderId: fan.id,
      receiverId: star.id,
      callMessageBody: { text: 'hi there' },
    });
    let from = fanSocket.mark;
    send(fanSocket, callId, 'rtcOffer', star.id, { signal: { type: 'offer', sdp: 'v=0' } });
    expect(await fanSocket.nextOf('error', from)).toEqual({ type: 'error', statusText: 'call-not-live', ref: 'callMessage' });

    send(starSocket, callId, 'preAnswer', fan.id, { accept: true });
    await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStart'));
    send(fanSocket, callId, 'rtcOffer', star.id, { signal: { type: 'offer', sdp: 'v=0' } });
    expect(await starSocket.nextOf('callMessage', 0, isCall(callId, 'rtcOffer'))).toMatchObject({ senderId: fan.id, callMessageBody: { signal: { type: 'offer', sdp: 'v=0' } } });
    send(starSocket, callId, 'iceCandidate', fan.id, { signal: { candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host' } } });
    expect(await fanSocket.nextOf('callMessage', 0, isCall(callId, 'iceCandidate'))).toMatchObject({ senderId: star.id });
    send(starSocket, callId, 'remoteStream', fan.id, { audio: true, video: false });
    expect(await fanSocket.nextOf('callMessage', 0, isCall(callId, 'remoteStream'))).toMatchObject({ callMessageBody: { audio: true, video: false } });
    send(fanSocket, callId, 'giftMessage', star.id, { giftId: 3 });
    expect(await starSocket.nextOf('callMessage', 0, isCall(callId, 'giftMessage'))).toMatchObject({ callMessageBody: { giftId: 3 } });

    // Someone else, or a party writing to a third person, is not in this call.
    const stranger = await createAccount(app);
    const strangerSocket = await connectSocket(server, stranger);
    send(strangerSocket, callId, 'rtcOffer', star.id, { signal: 'x' });
    expect(await strangerSocket.nextOf('error', 0)).toEqual({ type: 'error', statusText: 'call-not-found', ref: 'callMessage' });
    from = fanSocket.mark;
    send(fanSocket, callId, 'chatMessage', stranger.id, { text: 'psst' });
    send(fanSocket, newCallId(), 'iceCandidate', star.id, { signal: 'x' });
    await fanSocket.sync();
    expect(fanSocket.all('error', from).map((m) => m.statusText)).toEqual(['call-not-found', 'call-not-found']);
    await strangerSocket.sync();
    expect(strangerSocket.all('callMessage')).toEqual([]);

    // Bodies are checked.
    from = fanSocket.mark;
    send(fanSocket, callId, 'remoteStream', star.id, { audio: 'yes' });
    expect(await fanSocket.nextOf('error', from)).toMatchObject({ statusText: 'invalid-request' });
    send(fanSocket, 'short', 'chatMessage', star.id, { text: 'hi' });
    send(fanSocket, callId, 'dance', star.id);
    send(fanSocket, callId, 'chatMessage', fan.id, { text: 'me' });
    await fanSocket.sync();
    expect(fanSocket.all('error', from).map((m) => m.statusText)).toEqual(['invalid-request', 'invalid-request', 'invalid-request', 'cannot-target-self']);

    send(fanSocket, callId, 'callStop', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'));
    // An ended call carries nothing more.
    from = starSocket.mark;
    send(starSocket, callId, 'chatMessage', fan.id, { text: 'still there?' });
    expect(await starSocket.nextOf('error', from)).toMatchObject({ statusText: 'call-not-found' });
    await expectLedgerBalanced(app);
  });
});

describe('what the server refuses', () => {
  it('refuses the billing messages from a client: a forged creditOK, timeLeft, callEarnings or callStart moves nothing and reaches nobody', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, fanPrice());
    const { callId, fanSocket, starSocket } = await liveCall(fan, star);
    await elapse(30_000);
    await fanSocket.nextOf('callMessage', 0, isCall(callId, 'askForMoney'));

    const from = fanSocket.mark;
    const creatorFrom = starSocket.mark;
    for (const type of ['creditOK', 'askForMoney', 'timeLeft', 'callEarnings', 'callStart']) send(fanSocket, callId, type, star.id, { seconds: 3600, earnings: 1 });
    await fanSocket.sync();
    expect(fanSocket.all('error', from).map((m) => [m.statusText, m.ref])).toEqual(Array(5).fill(['forbidden', 'callMessage']));
    await starSocket.sync();
    expect(starSocket.all('callMessage', creatorFrom)).toEqual([]);
    // The forged creditOK held nothing: the call still ends when the paid minute does.
    await elapse(30_000);
    expect((await fanSocket.nextOf('callMessage', from, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'couldNotBePaid', minutes: 1 });
    expect(await walletOf(app, fan.id)).toBe(0);
    await expectLedgerBalanced(app);
  });

  it('refuses a call to someone who blocked the caller, or whom the caller blocked', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    const other = await creator();
    await fundWallet(app, fan.id, 1000);
    expect((await call('POST', '/api/users/block', star, { id: fan.id })).json).toEqual({ statusCode: 1 });
    expect((await call('POST', '/api/users/block', fan, { id: other.id })).json).toEqual({ statusCode: 1 });
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);
    const otherSocket = await connectSocket(server, other);
    const [first, second] = [newCallId(), newCallId()];
    send(fanSocket, first, 'preOffer', star.id);
    send(fanSocket, second, 'preOffer', other.id);
    await fanSocket.sync();
    expect(fanSocket.all('error').map((m) => m.statusText)).toEqual(['user-not-found', 'user-not-found']);
    await starSocket.sync();
    await otherSocket.sync();
    expect([...starSocket.all('callMessage'), ...otherSocket.all('callMessage')]).toEqual([]);
    expect(await app.fanstage.db.select().from(calls).where(sql`${calls.id} in (${first}, ${second})`)).toEqual([]);
    expect((await call('GET', `/api/users/${star.id}/call-packages`, fan)).json).toEqual({ statusCode: -1, statusText: 'user-not-found' });
  });

  it('answers busy to a second call to a creator in a call, and to a caller in one', async () => {
    const fan = await createAccount(app);
    const second = await createAccount(app);
    const star = await creator();
    const otherStar = await creator();
    await fundWallet(app, fan.id, 1000);
    await fundWallet(app, second.id, 1000);
    const { callId, fanSocket, starSocket } = await liveCall(fan, star);

    const secondSocket = await connectSocket(server, second);
    const busyId = newCallId();
    send(secondSocket, busyId, 'preOffer', star.id);
    expect(await secondSocket.nextOf('callMessage', 0, isCall(busyId, 'preAnswer'))).toEqual({
      type: 'callMessage',
      callId: busyId,
      callMessageType: 'preAnswer',
      senderId: 0,
      receiverId: second.id,
      callMessageBody: { accept: false, status: CallStatus.busy },
    });
    await starSocket.sync();
    expect(starSocket.all('callMessage').filter((m) => m.callId === busyId)).toEqual([]);
    expect(await record(busyId)).toMatchObject({ state: 'busy', endReason: 'busy', callerId: second.id });
    // A busy call cannot be answered: it is over.
    send(starSocket, busyId, 'preAnswer', second.id, { accept: true });
    expect((await starSocket.nextOf('callMessage', 0, isCall(busyId, 'callStop'))).callMessageBody).toEqual({ reason: 'busy', status: CallStatus.busy, minutes: 0, earnings: 0 });
    expect(await record(callId)).toMatchObject({ state: 'live' });

    // The fan in a call cannot ring someone else meanwhile; the creator cannot call out either.
    const fanBusy = newCallId();
    send(fanSocket, fanBusy, 'preOffer', otherStar.id);
    expect((await fanSocket.nextOf('callMessage', 0, isCall(fanBusy, 'preAnswer'))).callMessageBody).toEqual({ accept: false, status: CallStatus.busy });
    const starBusy = newCallId();
    send(starSocket, starBusy, 'preOffer', otherStar.id);
    expect((await starSocket.nextOf('callMessage', 0, isCall(starBusy, 'preAnswer'))).callMessageBody).toEqual({ accept: false, status: CallStatus.busy });

    // Once the call ended, the creator takes calls again.
    send(fanSocket, callId, 'callStop', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'));
    const again = newCallId();
    send(secondSocket, again, 'preOffer', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(again, 'preOffer'));
    send(secondSocket, again, 'callStop', star.id);
    expect((await starSocket.nextOf('callMessage', 0, isCall(again, 'callStop'))).callMessageBody).toMatchObject({ reason: 'cancelled' });
    await expectLedgerBalanced(app);
  });

  it('keeps one open call per person in the database, whichever way two offers race', async () => {
    // a is a creator too, so she can be rung while she rings someone.
    const a = await creator();
    const b = await createAccount(app);
    const star = await creator();
    for (const person of [a, b, star]) await fundWallet(app, person.id, 1000);
    const service = calling.service;
    // Offers of two fans to one creator, and of the creator to the fans, all at once.
    const offers = await Promise.allSettled([service.offer(a.id, newCallId(), star.id), service.offer(b.id, newCallId(), star.id), service.offer(star.id, newCallId(), a.id)]);
    const ringing = offers.filter((o) => o.status === 'fulfilled' && o.value.kind === 'ringing');
    expect(ringing).toHaveLength(1);
    const open = await app.fanstage.db.select().from(calls).where(and(sql`${calls.state} in ('ringing', 'live')`, sql`(${calls.callerId} in (${a.id}, ${b.id}, ${star.id}) or ${calls.calleeId} in (${a.id}, ${b.id}, ${star.id}))`));
    expect(open).toHaveLength(1);
    // And the index itself refuses a second open call of the callee, however it is written.
    await expect(
      app.fanstage.db.insert(calls).values({ id: newCallId(), callerId: b.id, calleeId: open[0]!.calleeId, state: 'ringing', agreedPrice: 0, earningsPrice: 0, createdAt: new Date() }),
    ).rejects.toThrow();
    await service.end(open[0]!.id, 'hangup', new Date());
  });

  it('refuses a caller whose e-mail is not verified, a callee who takes no calls, and answers noCredit to an empty wallet', async () => {
    const unverified = await createAccount(app, { verified: false });
    const fan = await createAccount(app);
    const notSeller = await createAccount(app);
    const star = await creator();
    await fundWallet(app, unverified.id, 1000);
    await fundWallet(app, fan.id, fanPrice() - 1);
    const unverifiedSocket = await connectSocket(server, unverified);
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);

    send(unverifiedSocket, newCallId(), 'preOffer', star.id);
    expect(await unverifiedSocket.nextOf('error')).toEqual({ type: 'error', statusText: 'email-not-verified', ref: 'callMessage' });
    send(fanSocket, newCallId(), 'preOffer', notSeller.id);
    expect(await fanSocket.nextOf('error')).toMatchObject({ statusText: 'calls-not-offered' });
    expect((await call('GET', `/api/users/${notSeller.id}/call-packages`, fan)).json).toEqual({ statusCode: -1, statusText: 'calls-not-offered' });

    const broke = newCallId();
    send(fanSocket, broke, 'preOffer', star.id);
    expect((await fanSocket.nextOf('callMessage', 0, isCall(broke, 'preAnswer'))).callMessageBody).toEqual({ accept: false, status: CallStatus.noCredit });
    expect(await record(broke)).toMatchObject({ state: 'noCredit' });
    await starSocket.sync();
    expect(starSocket.all('callMessage')).toEqual([]);
    expect(await walletOf(app, fan.id)).toBe(fanPrice() - 1);
  });

  it('ends the call noCredit when the wallet emptied while it rang, and refuses answers from anyone but the callee', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    const stranger = await createAccount(app);
    await fundWallet(app, fan.id, fanPrice());
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);
    const strangerSocket = await connectSocket(server, stranger);
    const callId = newCallId();
    send(fanSocket, callId, 'preOffer', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(callId, 'preOffer'));

    send(strangerSocket, callId, 'preAnswer', fan.id, { accept: true });
    expect(await strangerSocket.nextOf('error')).toMatchObject({ statusText: 'call-not-found' });
    send(fanSocket, callId, 'preAnswer', star.id, { accept: true });
    expect(await fanSocket.nextOf('error')).toMatchObject({ statusText: 'call-not-found' });

    // The fan spends the credits elsewhere while it rings.
    await app.fanstage.db.transaction(async (tx) => {
      const { transfer, account } = await import('../../server/src/ledger');
      await transfer(tx, { key: `test:spend:${callId}`, kind: 'correction', legs: [{ account: account.wallet(fan.id), amount: -fanPrice() }, { account: account.promotions, amount: fanPrice() }] });
    });
    send(starSocket, callId, 'preAnswer', fan.id, { accept: true });
    expect((await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toEqual({ reason: 'noCredit', status: CallStatus.noCredit, minutes: 0, cost: 0 });
    expect(await record(callId)).toMatchObject({ state: 'noCredit', endReason: 'noCredit' });
    await expectLedgerBalanced(app);
  });
});

describe('calls that end without a hang-up', () => {
  it('declines: the caller hears the answer and both get callStop', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);
    const callId = newCallId();
    send(fanSocket, callId, 'preOffer', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(callId, 'preOffer'));
    send(starSocket, callId, 'preAnswer', fan.id, { accept: false });
    expect((await fanSocket.nextOf('callMessage', 0, isCall(callId, 'preAnswer'))).callMessageBody).toEqual({ accept: false, status: CallStatus.declined });
    expect((await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'declined', status: CallStatus.declined });
    expect((await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'declined' });
    // A late accept (another device) is told the call is over.
    send(starSocket, callId, 'preAnswer', fan.id, { accept: true });
    await starSocket.sync();
    expect(starSocket.all('callMessage').filter((m) => m.callId === callId && m.callMessageType === 'callStop')).toHaveLength(2);
    expect(await walletOf(app, fan.id)).toBe(1000);
  });

  it('is missed after the ring timeout: callStop to both, a missedCall notification merged within the hour, nothing charged', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);
    for (const round of [1, 2]) {
      const callId = newCallId();
      send(fanSocket, callId, 'preOffer', star.id);
      await starSocket.nextOf('callMessage', 0, isCall(callId, 'preOffer'));
      await elapse(RING_TIMEOUT_MS - 5_000);
      expect(await record(callId)).toMatchObject({ state: 'ringing' });
      await elapse(5_000);
      expect((await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'missed', status: CallStatus.notAnswering });
      expect((await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'missed' });
      expect(await record(callId)).toMatchObject({ state: 'missed', endReason: 'missed' });
      const page = (await call('GET', '/api/2/notifications?types=missedCall', star)).json.body;
      expect(page.notifications).toHaveLength(1);
      expect(page.notifications[0]).toMatchObject({ type: 'missedCall', fromUser: { id: fan.id }, count: round });
      // Accepting now is too late.
      const from = starSocket.mark;
      send(starSocket, callId, 'preAnswer', fan.id, { accept: true });
      expect((await starSocket.nextOf('callMessage', from, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'missed' });
    }
    expect(await walletOf(app, fan.id)).toBe(1000);
  });

  it('is missed by the sweeper too, when the node that rang it is gone', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const callId = newCallId();
    // Rung by another node that then died: this node's clock does not know the call.
    const elsewhere = createCallService(app.fanstage, 'dead-node');
    expect((await elsewhere.offer(fan.id, callId, star.id)).kind).toBe('ringing');
    const starSocket = await connectSocket(server, star);
    app.fanstage.clock.advance(RING_TIMEOUT_MS);
    await calling.clock.tick();
    expect(await record(callId)).toMatchObject({ state: 'ringing' });
    expect(await app.fanstage.jobs.runNow('calls-sweep')).toBe(1);
    expect((await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'missed' });
    expect(await app.fanstage.jobs.runNow('calls-sweep')).toBe(0);
  });

  it('ends a live call whose party stayed away past the grace, paying the minutes begun until then', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const { callId, starSocket, fanSocket } = await liveCall(fan, star);
    await elapse(40_000);
    // The fan's only socket goes; back within the grace, the call goes on.
    fanSocket.close();
    await fanSocket.closed;
    await expect.poll(async () => (await record(callId)).callerGoneAt).not.toBeNull();
    await elapse(DISCONNECT_GRACE_MS - 5_000);
    const back = await connectSocket(server, fan);
    await expect.poll(async () => (await record(callId)).callerGoneAt).toBeNull();
    await elapse(10_000);
    expect(await record(callId)).toMatchObject({ state: 'live' });

    back.close();
    await back.closed;
    await expect.poll(async () => (await record(callId)).callerGoneAt).not.toBeNull();
    await elapse(DISCONNECT_GRACE_MS);
    expect((await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'disconnected', minutes: 2, earnings: 2 * PRICE });
    expect(await walletOf(app, fan.id)).toBe(1000 - 2 * fanPrice());
    expect(await openHolds(callId)).toEqual([]);
    await expectLedgerBalanced(app);
  });

  it('closes a live call whose node died once its lease lapsed: the minutes begun before it was last renewed are paid once, the rest given back', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const { callId } = await liveCall(fan, star);
    await elapse(35_000);
    expect(await record(callId)).toMatchObject({ heldThrough: 2 });
    // The node stops running the clock, as if it died now: the lease was last renewed at 35 s.
    calling.clock.forget(callId);
    app.fanstage.clock.advance(LEASE_MS - 1_000);
    expect(await app.fanstage.jobs.runNow('calls-sweep')).toBe(0);
    app.fanstage.clock.advance(60_000);
    // Two nodes sweeping at once close it once.
    const other = createCallService(app.fanstage, 'other-node');
    const [mine, theirs] = await Promise.all([calling.service.closeLapsed(), other.closeLapsed()]);
    expect(mine.length + theirs.length).toBe(1);
    const closed = [...mine, ...theirs][0]!;
    expect(closed).toMatchObject({ state: 'ended', endReason: 'failed', minutes: 1, cost: fanPrice(), earnings: PRICE });
    expect(await walletOf(app, fan.id)).toBe(1000 - fanPrice());
    expect(await earningsOf(app, star.id)).toBe(PRICE);
    expect(await openHolds(callId)).toEqual([]);
    expect(await app.fanstage.jobs.runNow('calls-sweep')).toBe(0);
    await expectLedgerBalanced(app);
  });
});

describe('what a minute costs', () => {
  it('answers the viewer’s price a minute and the whole minutes each credit package buys', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    const answer = (await call('GET', `/api/users/${star.id}/call-packages`, fan)).json;
    expect(answer.statusCode).toBe(2);
    expect(answer.body.pricePerMinute).toBe(fanPrice());
    const packages = (await call('GET', '/api/payments/packages', fan)).json.body as { id: number; cValue: number; gValue: number }[];
    expect(answer.body.packages).toEqual(packages.map((p) => ({ packageId: p.id, credits: p.cValue, priceCents: p.gValue, minutes: Math.floor(p.cValue / fanPrice()) })));
    const free = await creator(0);
    expect((await call('GET', `/api/users/${free.id}/call-packages`, fan)).json.body.packages.every((p: { minutes: number | null }) => p.minutes === null)).toBe(true);
    expect((await call('GET', `/api/users/${star.id}/call-packages`)).status).toBe(401);
    expect((await call('GET', '/api/users/99999999/call-packages', fan)).json).toEqual({ statusCode: -1, statusText: 'user-not-found' });
  });

  it('lets only sellers set a call price, and only to the call-minute steps', async () => {
    const fan = await createAccount(app);
    const star = await createAccount(app, { seller: true });
    expect((await call('PUT', '/api/users/me', fan, { callPrice: 128 })).json).toMatchObject({ statusCode: -2, statusText: 'verify-required' });
    expect((await call('PUT', '/api/users/me', star, { callPrice: 129 })).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect((await call('PUT', '/api/users/me', star, { callPrice: 955 })).json.statusCode).toBeGreaterThan(0);
  });

  it('publishes the calls’ ICE servers in the settings: none unless configured', async () => {
    expect((await call('GET', '/papi/settings')).json.body.iceServers).toEqual([]);
  });
});

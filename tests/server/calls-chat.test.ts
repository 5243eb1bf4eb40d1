import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../lib/contract/chat';
import type { ServerMessageOf } from '../../lib/contract/realtime';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { chatMessages, chatStreamHeads } from '../../server/src/db/schema';
import { CALL_MINUTE_MS, LEASE_MS, RING_TIMEOUT_MS } from '../../server/src/features/calls/domain';
import { callRuntime, type CallRuntime } from '../../server/src/features/calls/runtime';
import { createCallService } from '../../server/src/features/calls/service';
import { callEntryIsUnread, callEntryMsgId, callEntryView, isMsgId, leavesCallEntry } from '../../server/src/features/chat/domain';
import { storeCallEntry } from '../../server/src/features/chat/service';
import { countsAsUnread } from '../../lib/sdk/rules/chat';
import { inTransaction } from '../../server/src/ledger';
import { createAccount, type TestAccount } from '../support/accounts';
import { eq } from '../support/db';
import { apiCaller } from '../support/inject';
import { expectLedgerBalanced, fundWallet } from '../support/money';
import { startTestServer, type TestServer } from '../support/server';
import { acceptCall, CALL_PRICE, callingCreator, isCall, newCallId, sendCall } from '../support/calls';
import { closeSockets, connectSocket, type SocketClient } from '../support/sockets';

/**
 * Call entries in both people's chat history (docs/calls.md "In the chat"): the transaction
 * that ends a call writes one free message of the call into the pair's conversation, with a
 * position in both chat streams; each person reads it with their own amount — the fan what it
 * cost, the creator what it earned — over the websocket, in the history, in a resume and in the
 * conversation list; only a missed call counts as unread, and only for the callee.
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
const PRICE = CALL_PRICE;
const fanPrice = () => fanPriceCents(PRICE, app.fanstage.config.priceSalt);
const send = sendCall;

async function elapse(ms: number): Promise<void> {
  app.fanstage.clock.advance(ms);
  await calling.clock.tick();
}

const creator = (price = PRICE): Promise<TestAccount> => callingCreator(app, price);

const isEntryOf = (callId: string) => (m: ServerMessageOf<'chatMessage'>) => m.message.call?.callId === callId;

/** On sockets the two already hold: the fan rings the creator and she accepts. */
async function liveCall(fanSocket: SocketClient, starSocket: SocketClient, fan: TestAccount, star: TestAccount): Promise<string> {
  const callId = newCallId();
  sendCall(fanSocket, callId, 'preOffer', star.id);
  await starSocket.nextOf('callMessage', 0, isCall(callId, 'preOffer'));
  await acceptCall({ callId, fanSocket, starSocket }, fan);
  return callId;
}

async function history(viewer: TestAccount, partner: TestAccount): Promise<{ conversation: Conversation; messages: ChatMessage[] }> {
  const answer = (await call('GET', `/api/chat/conversations/${partner.id}`, viewer)).json;
  expect(answer.statusCode).toBe(2);
  return answer.body;
}

async function listed(viewer: TestAccount, partner: TestAccount): Promise<Conversation | undefined> {
  const answer = (await call('GET', '/api/chat/conversations', viewer)).json;
  return (answer.body.conversations as Conversation[]).find((c) => c.id === partner.id);
}

async function entriesOf(callId: string) {
  return app.fanstage.db.select().from(chatMessages).where(eq(chatMessages.callId, callId));
}

async function headsOf(...ids: number[]): Promise<number[]> {
  const heads: number[] = [];
  for (const id of ids) {
    const [row] = await app.fanstage.db.select().from(chatStreamHeads).where(eq(chatStreamHeads.userId, id));
    heads.push(row?.seq ?? 0);
  }
  return heads;
}

/** The socket's resume from position 0: every message of the person's stream, in order. */
async function resumeAll(socket: SocketClient): Promise<ChatMessage[]> {
  const from = socket.mark;
  socket.send({ type: 'resume', after: 0 });
  await socket.nextOf('resumed', from);
  return socket.all('chatMessage', from).map((m) => m.message);
}

describe('a call in the chat history', () => {
  it('writes one entry when a live call ends: the fan reads what it cost, the creator what she earned, each at their own next position', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);

    // A message before the call: the entry comes after it in both streams and in the history.
    fanSocket.send({ type: 'chatMessage', msgId: 'before-the-call', receiverId: star.id, text: 'Can I call you?' });
    const before = await fanSocket.nextOf('chatMessage', 0, (m) => m.message.msgId === 'before-the-call');
    const starBefore = await starSocket.nextOf('chatMessage', 0, (m) => m.message.msgId === 'before-the-call');

    const callId = await liveCall(fanSocket, starSocket, fan, star);
    await elapse(2 * CALL_MINUTE_MS + 35_000);
    const fanFrom = fanSocket.mark;
    const starFrom = starSocket.mark;
    send(fanSocket, callId, 'callStop', star.id);

    const forFan = (await fanSocket.nextOf('chatMessage', fanFrom, isEntryOf(callId))).message;
    const forStar = (await starSocket.nextOf('chatMessage', starFrom, isEntryOf(callId))).message;
    // The call's stop comes first, then its entry.
    const fanFrames = fanSocket.received.slice(fanFrom);
    expect(fanFrames.findIndex((m) => m.type === 'callMessage' && m.callMessageType === 'callStop')).toBeLessThan(fanFrames.findIndex((m) => m.type === 'chatMessage'));

    expect(forFan).toMatchObject({
      senderId: fan.id,
      receiverId: star.id,
      text: '',
      price: 0,
      giftId: null,
      media: null,
      seq: before.message.seq! + 1,
      call: { callId, state: 'ended', endReason: 'hangup', minutes: 3, amount: 3 * fanPrice() },
    });
    expect(forStar).toMatchObject({ id: forFan.id, seq: starBefore.message.seq! + 1, call: { callId, state: 'ended', endReason: 'hangup', minutes: 3, amount: 3 * PRICE } });
    // The server's clock moved 155 s (and real time a little) while the call was live.
    expect(forFan.call!.seconds).toBeGreaterThanOrEqual(155);
    expect(forFan.call!.seconds).toBeLessThan(165);
    expect(forStar.call!.seconds).toBe(forFan.call!.seconds);
    expect(forFan.sendDt).toBeGreaterThan(before.message.sendDt);

    // The histories hold it once, after the message, each with the viewer's amount.
    const fanHistory = await history(fan, star);
    expect(fanHistory.messages.map((m) => m.msgId)).toEqual(['before-the-call', forFan.msgId]);
    expect(fanHistory.messages[1]).toEqual(forFan);
    const starHistory = await history(star, fan);
    expect(starHistory.messages.filter((m) => m.call !== undefined)).toEqual([forStar]);
    expect(starHistory.messages[0]!.call).toBeUndefined();

    // The conversation lists show it as the latest; it is not unread for anyone.
    expect((await listed(fan, star))?.lastMessage).toEqual(forFan);
    const starSide = await listed(star, fan);
    expect(starSide?.lastMessage).toEqual(forStar);
    expect(starSide?.unreadCount).toBe(1); // the fan's message before the call, not the call
    expect((await listed(fan, star))?.unreadCount).toBe(0);

    // A resume brings it in stream order, with the position it was sent with.
    const resumed = await resumeAll(starSocket);
    expect(resumed.map((m) => m.seq)).toEqual([...resumed.map((m) => m.seq)].sort((a, b) => a! - b!));
    expect(resumed.find((m) => m.call?.callId === callId)).toEqual(forStar);
    expect(await entriesOf(callId)).toHaveLength(1);
    await expectLedgerBalanced(app);
  });

  it('counts a missed call as unread for the callee only, and charges nothing', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);
    expect((await call('GET', '/api/count/', star)).json.body).toMatchObject({ chats: 0 });

    const callId = newCallId();
    send(fanSocket, callId, 'preOffer', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(callId, 'preOffer'));
    await elapse(RING_TIMEOUT_MS);

    const forStar = (await starSocket.nextOf('chatMessage', 0, isEntryOf(callId))).message;
    const forFan = (await fanSocket.nextOf('chatMessage', 0, isEntryOf(callId))).message;
    expect(forStar.call).toEqual({ callId, state: 'missed', endReason: 'missed', seconds: 0, minutes: 0, amount: 0 });
    expect(forFan.call).toEqual(forStar.call);
    expect(forStar).toMatchObject({ senderId: fan.id, receiverId: star.id, seq: 1 });
    expect(forFan.seq).toBe(1);
    await starSocket.nextOf('updateCount', 0, (m) => m.chats === 1);

    expect((await listed(star, fan))).toMatchObject({ unreadCount: 1, lastMessage: { id: forStar.id, call: { state: 'missed' } } });
    expect((await listed(fan, star))).toMatchObject({ unreadCount: 0, lastMessage: { id: forStar.id } });
    expect((await call('GET', '/api/count/', star)).json.body).toMatchObject({ chats: 1 });
    expect((await call('GET', '/api/count/', fan)).json.body).toMatchObject({ chats: 0 });

    // Reading the conversation clears it, like any unread message.
    starSocket.send({ type: 'chatConvRead', userId: fan.id });
    await starSocket.nextOf('updateCount', 0, (m) => m.chats === 0);
    expect((await listed(star, fan))?.unreadCount).toBe(0);
    expect(await entriesOf(callId)).toHaveLength(1);
  });

  it('writes a declined and a cancelled call, but nothing for a call refused as busy or for want of credit', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);

    const declined = newCallId();
    send(fanSocket, declined, 'preOffer', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(declined, 'preOffer'));
    send(starSocket, declined, 'preAnswer', fan.id, { accept: false });
    expect((await fanSocket.nextOf('chatMessage', 0, isEntryOf(declined))).message.call).toMatchObject({ state: 'declined', endReason: 'declined', amount: 0 });

    const cancelled = newCallId();
    send(fanSocket, cancelled, 'preOffer', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(cancelled, 'preOffer'));
    send(fanSocket, cancelled, 'callStop', star.id);
    expect((await starSocket.nextOf('chatMessage', 0, isEntryOf(cancelled))).message.call).toMatchObject({ state: 'cancelled', endReason: 'cancelled' });

    // Neither counts as unread for the creator.
    expect((await listed(star, fan))?.unreadCount).toBe(0);
    expect((await call('GET', '/api/count/', star)).json.body).toMatchObject({ chats: 0 });

    // Busy: the creator is in a call with somebody else. No credit: an empty wallet.
    const other = await createAccount(app);
    await fundWallet(app, other.id, 1000);
    const otherSocket = await connectSocket(server, other);
    const busyWith = await liveCall(otherSocket, starSocket, other, star);
    const busy = newCallId();
    send(fanSocket, busy, 'preOffer', star.id);
    await fanSocket.nextOf('callMessage', 0, isCall(busy, 'preAnswer'));
    const poor = await createAccount(app);
    const poorSocket = await connectSocket(server, poor);
    const noCredit = newCallId();
    send(poorSocket, noCredit, 'preOffer', star.id);
    await poorSocket.nextOf('callMessage', 0, isCall(noCredit, 'preAnswer'));
    expect(await entriesOf(busy)).toEqual([]);
    expect(await entriesOf(noCredit)).toEqual([]);
    expect((await history(poor, star)).messages).toEqual([]);

    send(otherSocket, busyWith, 'callStop', star.id);
    await otherSocket.nextOf('chatMessage', 0, isEntryOf(busyWith));
    expect((await history(fan, star)).messages.map((m) => m.call?.state)).toEqual(['declined', 'cancelled']);
  });

  it('writes exactly one entry for a call closed after its node died, however many closers run and however often', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);
    const callId = await liveCall(fanSocket, starSocket, fan, star);
    await elapse(35_000);
    // The node stops running the clock as if it died: the lease lapses and the sweepers close it.
    calling.clock.forget(callId);
    app.fanstage.clock.advance(LEASE_MS + 60_000);
    const other = createCallService(app.fanstage, 'other-node');
    const [mine, theirs] = await Promise.all([calling.service.closeLapsed(), other.closeLapsed()]);
    expect(mine.length + theirs.length).toBe(1);
    // What the sweeper job does with what it closed: tell both people.
    for (const closed of [...mine, ...theirs]) await calling.notices.ended(closed);

    const forFan = (await fanSocket.nextOf('chatMessage', 0, isEntryOf(callId))).message;
    const forStar = (await starSocket.nextOf('chatMessage', 0, isEntryOf(callId))).message;
    // The minute begun before the lease was last renewed is paid; the entry says so.
    expect(forFan.call).toMatchObject({ state: 'ended', endReason: 'failed', minutes: 1, amount: fanPrice() });
    expect(forStar.call).toMatchObject({ state: 'ended', endReason: 'failed', minutes: 1, amount: PRICE });

    // Closing it again — the job, a late hang-up, a close retried — writes nothing more.
    expect(await app.fanstage.jobs.runNow('calls-sweep')).toBe(0);
    expect(await calling.service.end(callId, 'hangup', app.fanstage.clock.now())).toBeUndefined();
    send(fanSocket, callId, 'callStop', star.id);
    await fanSocket.sync();
    const heads = await headsOf(fan.id, star.id);
    await inTransaction(app.fanstage.db, (tx) => storeCallEntry(tx, { id: callId, callerId: fan.id, calleeId: star.id }, 'ended', app.fanstage.clock.now()));
    expect(await headsOf(fan.id, star.id)).toEqual(heads);
    expect(await entriesOf(callId)).toHaveLength(1);
    expect((await history(fan, star)).messages.filter((m) => m.call?.callId === callId)).toHaveLength(1);
    expect(fanSocket.all('chatMessage').filter((m) => m.message.call?.callId === callId)).toHaveLength(1);
    await expectLedgerBalanced(app);
  });

  it('is sent by the sweeper for a call missed after the node that rang it died', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const callId = newCallId();
    const elsewhere = createCallService(app.fanstage, 'dead-node');
    expect((await elsewhere.offer(fan.id, callId, star.id)).kind).toBe('ringing');
    const starSocket = await connectSocket(server, star);
    app.fanstage.clock.advance(RING_TIMEOUT_MS);
    expect(await app.fanstage.jobs.runNow('calls-sweep')).toBe(1);
    expect((await starSocket.nextOf('chatMessage', 0, isEntryOf(callId))).message).toMatchObject({ senderId: fan.id, call: { state: 'missed' } });
    expect(await entriesOf(callId)).toHaveLength(1);
  });

  it('shows a free call with the minutes it lasted and nothing paid', async () => {
    const fan = await createAccount(app);
    const star = await creator(0);
    const fanSocket = await connectSocket(server, fan);
    const starSocket = await connectSocket(server, star);
    const callId = await liveCall(fanSocket, starSocket, fan, star);
    await elapse(70_000);
    send(starSocket, callId, 'callStop', fan.id);
    const forFan = (await fanSocket.nextOf('chatMessage', 0, isEntryOf(callId))).message;
    expect(forFan.call).toMatchObject({ state: 'ended', endReason: 'hangup', minutes: 2, amount: 0 });
    // An entry from the fan to the creator that is no missed call: not unread for her.
    expect((await listed(star, fan))?.unreadCount).toBe(0);
  });
});

describe('the rules of call entries', () => {
  const row = {
    id: 'c'.repeat(22),
    callerId: 1,
    calleeId: 2,
    state: 'ended',
    endReason: 'hangup',
    minutes: 3,
    cost: 480,
    earnings: 384,
    startedAt: new Date(10_000),
    endedAt: new Date(10_000 + 182_900),
  };

  it('shows the caller the cost, the callee the earnings, anyone else nothing, and the whole seconds it was live', () => {
    expect(callEntryView(row, 1)).toEqual({ callId: row.id, state: 'ended', endReason: 'hangup', seconds: 182, minutes: 3, amount: 480 });
    expect(callEntryView(row, 2).amount).toBe(384);
    expect(callEntryView(row, 3).amount).toBe(0);
    expect(callEntryView({ ...row, state: 'missed', endReason: 'missed', minutes: 0, cost: 0, earnings: 0, startedAt: null }, 2)).toMatchObject({ state: 'missed', seconds: 0, amount: 0 });
  });

  it('writes entries for calls that were talked, missed, declined or cancelled; only a missed one is unread, on the server and in the SDK alike', () => {
    expect(['ended', 'missed', 'declined', 'cancelled'].every(leavesCallEntry)).toBe(true);
    expect(['busy', 'noCredit', 'failed', 'ringing', 'live'].some(leavesCallEntry)).toBe(false);
    for (const state of ['ended', 'missed', 'declined', 'cancelled']) expect(countsAsUnread({ call: { state } })).toBe(callEntryIsUnread(state));
    expect(countsAsUnread({})).toBe(true);
  });

  it('keys the entry by a msgId no client can choose', () => {
    expect(callEntryMsgId(row.id)).toBe(`call/${row.id}`);
    expect(isMsgId(callEntryMsgId(row.id))).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketProtocols } from '../../lib/contract/realtime';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { WebSocket } from 'ws';
import type { ServerMessage } from '../../lib/contract/realtime';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { fundWallet } from '../support/money';
import { createPaymentService } from '../../server/src/features/payments/service';
import { applyProcessorEvent } from '../../server/src/features/payments/orders';
import { sql } from '../support/db';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  // A short heartbeat, so a silent client is dropped within the test; the helper answers pings.
  server = await startTestServer({ seed: false, realtime: { heartbeatMs: 150, maxBufferedBytes: 256 * 1024 } });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const call = apiCaller(() => app);

/** Long enough never to fire on a working server; keeps a broken one from hanging the suite. */
const patience = 15_000;

interface Closed {
  code: number;
  reason: string;
}

/** A real websocket client that records what it receives. */
class Client {
  readonly received: ServerMessage[] = [];
  readonly closed: Promise<Closed>;
  private waiters: (() => void)[] = [];

  constructor(
    readonly socket: WebSocket,
    options: { answerPings: boolean },
  ) {
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      this.received.push(message);
      if (message.type === 'ping' && options.answerPings) this.send({ type: 'pong', ts: message.ts });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message received (from `from` on) matching `test`. */
  async next<T extends ServerMessage>(test: (message: ServerMessage) => message is T, from?: number): Promise<T>;
  async next(test: (message: ServerMessage) => boolean, from?: number): Promise<ServerMessage>;
  async next(test: (message: ServerMessage) => boolean, from = 0): Promise<ServerMessage> {
    const deadline = Date.now() + patience;
    for (;;) {
      const found = this.received.slice(from).find(test);
      if (found !== undefined) return found;
      if (Date.now() > deadline || this.socket.readyState > WebSocket.OPEN) throw new Error(`no matching message; got ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** A round trip: everything the server sent this socket before answering is here afterwards. */
  async sync(): Promise<void> {
    const ts = Math.floor(Math.random() * 1e12);
    const from = this.received.length;
    this.send({ type: 'ping', ts });
    await this.next((m) => m.type === 'pong' && m.ts === ts, from);
  }

  close(): void {
    this.socket.close();
  }
}

type Outcome = { client: Client; hello: ServerMessage } | { refused: Closed } | { status: number };

function connect(token: string | null, options: { origin?: string | null; answerPings?: boolean } = {}): Promise<Outcome> {
  const url = `${server.baseUrl.replace(/^http/, 'ws')}/ws/`;
  const origin = options.origin === undefined ? server.baseUrl : options.origin;
  const socket = new WebSocket(url, token === null ? [] : socketProtocols(token), origin === null ? {} : { origin });
  const client = new Client(socket, { answerPings: options.answerPings ?? true });
  return new Promise((resolve, reject) => {
    socket.on('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.on('error', (error) => reject(error));
    client.next((m) => m.type === 'hello').then(
      (hello) => resolve({ client, hello }),
      () => void client.closed.then((closed) => resolve({ refused: closed })),
    );
    void client.closed.then((closed) => resolve({ refused: closed }));
  });
}

const open: Client[] = [];
async function connected(account: TestAccount, options: { answerPings?: boolean } = {}): Promise<Client> {
  const outcome = await connect(account.accessToken, options);
  if (!('client' in outcome)) throw new Error(`not connected: ${JSON.stringify(outcome)}`);
  open.push(outcome.client);
  return outcome.client;
}
afterAll(() => {
  for (const client of open) client.socket.terminate();
});

/** `from` writes `to` a chat message and has it stored: from then on the two share a conversation. */
async function converse(from: Client, to: TestAccount): Promise<void> {
  const msgId = `hello-${Math.random().toString(36).slice(2)}`;
  from.send({ type: 'chatMessage', msgId, receiverId: to.id, text: 'Hello' });
  await from.next((m) => m.type === 'chatMessage' && m.message.msgId === msgId);
}

describe('connecting to /ws/', () => {
  it('greets a valid token with hello naming the user', async () => {
    const fan = await createAccount(app);
    const outcome = await connect(fan.accessToken);
    expect('client' in outcome).toBe(true);
    if (!('client' in outcome)) return;
    expect(outcome.hello).toMatchObject({ type: 'hello', userId: fan.id });
    expect(typeof (outcome.hello as { serverTime: number }).serverTime).toBe('number');
    outcome.client.close();
  });

  it('closes with 4401 for a missing, forged or revoked token', async () => {
    const fan = await createAccount(app);
    expect(await connect(null)).toMatchObject({ refused: { code: 4401 } });
    expect(await connect(`${fan.accessToken.slice(0, -4)}abcd`)).toMatchObject({ refused: { code: 4401 } });
    expect(await connect('not-a-token')).toMatchObject({ refused: { code: 4401 } });
  });

  it('closes with 1013, never 4401, when the account cannot be read for a fault of the server’s, and greets once it can', async () => {
    const fan = await createAccount(app);
    // A real database error that is not an outage (the column a sign-in reads is not there):
    // the token is good, so the client must not be told to refresh it and end its session.
    await app.fanstage.db.execute(sql`alter table users rename column banned_at to banned_at_away`);
    try {
      expect(await connect(fan.accessToken)).toEqual({ refused: { code: 1013, reason: 'service-unavailable' } });
    } finally {
      await app.fanstage.db.execute(sql`alter table users rename column banned_at_away to banned_at`);
    }
    const outcome = await connect(fan.accessToken);
    expect(outcome).toMatchObject({ hello: { type: 'hello', userId: fan.id } });
    if ('client' in outcome) outcome.client.close();
  });

  it('refuses a page of a foreign origin with 403 and accepts clients without an origin', async () => {
    const fan = await createAccount(app);
    expect(await connect(fan.accessToken, { origin: 'https://evil.example' })).toEqual({ status: 403 });
    const noOrigin = await connect(fan.accessToken, { origin: null });
    expect('client' in noOrigin).toBe(true);
    if ('client' in noOrigin) noOrigin.client.close();
  });

  it('answers other paths with 404', async () => {
    const socket = new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}/elsewhere`);
    const status = await new Promise<number>((resolve) => {
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('error', () => resolve(-1));
    });
    socket.terminate();
    expect(status).toBe(404);
  });
});

describe('the heartbeat', () => {
  it('pings, and drops a client that misses two pings while one that answers stays', async () => {
    const fan = await createAccount(app);
    const silent = await connected(fan, { answerPings: false });
    const answering = await connected(fan);
    await silent.next((m) => m.type === 'ping');
    const closed = await silent.closed;
    expect(closed.code).toBe(1006);
    expect(silent.received.filter((m) => m.type === 'ping').length).toBeGreaterThanOrEqual(2);
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    await answering.sync();
    answering.close();
  });
});

describe('a client that stops reading', () => {
  it('is cut off with 1013 instead of being buffered for without bound, and keeps that code however long it takes to read up to it', async () => {
    const fan = await createAccount(app);
    const client = await connected(fan);
    // Another account's client, answering pings: it shows when the heartbeat has gone round
    // without taking the flood itself, so only the client that stopped reading can be cut off.
    const witness = await connected(await createAccount(app));
    // The client's end stops reading: the server's writes pile up in its send buffer.
    const tcp = (client.socket as unknown as { _socket: Socket })._socket;
    tcp.pause();
    const data = { filler: 'x'.repeat(16 * 1024) };
    for (let i = 0; i < 2_000; i++) {
      app.fanstage.realtime.publish(fan.id, { type: 'eventMessage', event: 'typing', userId: 1, data });
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    // The cut-off client, its close frame behind the data it has not read, misses three beats
    // before it reads again: the heartbeat leaves a closing socket to its close handshake.
    const pingsSoFar = witness.received.filter((m) => m.type === 'ping').length;
    await witness.next((m) => m.type === 'ping' && witness.received.filter((n) => n.type === 'ping').indexOf(m) >= pingsSoFar + 2);
    tcp.resume();
    expect((await client.closed).code).toBe(1013);
    expect(witness.socket.readyState).toBe(WebSocket.OPEN);
    witness.close();
  });
});

describe('client messages', () => {
  it('answers invalid JSON and unknown types with an error and keeps the connection', async () => {
    const fan = await createAccount(app);
    const client = await connected(fan);
    client.send('{not json');
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', statusText: 'invalid-json' });
    const from = client.received.length;
    client.send({ type: 'dance' });
    expect(await client.next((m) => m.type === 'error', from)).toMatchObject({ type: 'error', statusText: 'invalid-request' });
    const from2 = client.received.length;
    client.send({ type: 'eventMessage', event: 'shout', userId: fan.id + 1 });
    expect(await client.next((m) => m.type === 'error', from2)).toMatchObject({ type: 'error', statusText: 'invalid-request' });
    await client.sync();
    client.close();
  });

  it('refuses a flood with too-many-requests, then closes the connection', async () => {
    const fan = await createAccount(app);
    const client = await connected(fan);
    for (let i = 0; i < 200; i++) client.send({ type: 'ping', ts: i });
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', statusText: 'too-many-requests' });
    expect((await client.closed).code).toBe(1008);
    // Refusals were answered up to the abuse limit, not for every one of the 200 messages.
    const refusals = client.received.filter((m) => m.type === 'error').length;
    expect(refusals).toBeGreaterThanOrEqual(1);
    expect(refusals).toBeLessThan(160);
  });

  it('relays the typing, upload and recording indicators to a conversation partner, never to a stranger', async () => {
    const a = await createAccount(app);
    const partner = await createAccount(app);
    const stranger = await createAccount(app);
    const sa = await connected(a);
    const sp = await connected(partner);
    const ss = await connected(stranger);
    await converse(sa, partner);
    const events = ['typing', 'stoptyping', 'mediaupload', 'audiorecord'] as const;
    for (const event of events) sa.send({ type: 'eventMessage', event, userId: stranger.id });
    for (const event of events) sa.send({ type: 'eventMessage', event, userId: partner.id });
    for (const event of events) {
      expect(await sp.next((m) => m.type === 'eventMessage' && m.event === event)).toEqual({ type: 'eventMessage', event, userId: a.id });
    }
    // a's messages are handled in order: those to the stranger were decided before the partner's.
    await ss.sync();
    expect(ss.received.some((m) => m.type === 'eventMessage')).toBe(false);
    // The stranger cannot reach a either, and the partner can (the conversation is both people's).
    ss.send({ type: 'eventMessage', event: 'typing', userId: a.id });
    await ss.sync();
    sp.send({ type: 'eventMessage', event: 'typing', userId: a.id });
    expect(await sa.next((m) => m.type === 'eventMessage')).toEqual({ type: 'eventMessage', event: 'typing', userId: partner.id });
    expect(sa.received.filter((m) => m.type === 'eventMessage')).toHaveLength(1);
    for (const s of [sa, sp, ss]) s.close();
  });

  it('counts a conversation row a creator opened only to set a price as no conversation', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    expect((await call('PUT', '/api/chat/conversations/', creator, { senderId: fan.id, customPrice: 128 })).json).toEqual({ statusCode: 1 });
    const sc = await connected(creator);
    const sf = await connected(fan);
    sc.send({ type: 'eventMessage', event: 'typing', userId: fan.id });
    await sc.sync();
    await sf.sync();
    expect(sf.received.some((m) => m.type === 'eventMessage')).toBe(false);
    // Once a message went between them, the same indicator arrives.
    await converse(sc, fan);
    sc.send({ type: 'eventMessage', event: 'typing', userId: fan.id });
    expect(await sf.next((m) => m.type === 'eventMessage')).toEqual({ type: 'eventMessage', event: 'typing', userId: creator.id });
    for (const s of [sc, sf]) s.close();
  });

  it('stops relaying indicators between partners the moment one blocks the other', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const c = await createAccount(app);
    const sa = await connected(a);
    const sb = await connected(b);
    const sc = await connected(c);
    await converse(sa, b);
    await converse(sa, c);
    sa.send({ type: 'eventMessage', event: 'typing', userId: c.id });
    expect(await sc.next((m) => m.type === 'eventMessage')).toEqual({ type: 'eventMessage', event: 'typing', userId: a.id });
    expect((await call('POST', '/api/users/block', c, { id: a.id })).json).toEqual({ statusCode: 1 });
    const fromC = sc.received.length;
    sa.send({ type: 'eventMessage', event: 'stoptyping', userId: c.id });
    sc.send({ type: 'eventMessage', event: 'typing', userId: a.id });
    sa.send({ type: 'eventMessage', event: 'typing', userId: b.id });
    expect(await sb.next((m) => m.type === 'eventMessage')).toEqual({ type: 'eventMessage', event: 'typing', userId: a.id });
    // a's message to c was decided before the one b got.
    await sc.sync();
    expect(sc.received.slice(fromC).some((m) => m.type === 'eventMessage')).toBe(false);
    // c's message to a was handled before c's ping was answered.
    await sa.sync();
    expect(sa.received.some((m) => m.type === 'eventMessage' && m.userId === c.id)).toBe(false);
    for (const s of [sa, sb, sc]) s.close();
  });

  it('marks notifications read and tells the user’s other sockets only', async () => {
    const fan = await createAccount(app);
    const first = await connected(fan);
    const second = await connected(fan);
    first.send({ type: 'notificationsRead' });
    await second.next((m) => m.type === 'notificationsRead');
    await first.sync();
    expect(first.received.some((m) => m.type === 'notificationsRead')).toBe(false);
    expect((await call('GET', '/api/count/', fan)).json.body).toEqual({ notifications: 0, chats: 0, reactions: 0 });
    // Read over HTTP: every socket hears of it.
    expect((await call('POST', '/api/2/notifications/read', fan)).json).toEqual({ statusCode: 1 });
    await first.next((m) => m.type === 'notificationsRead');
    first.close();
    second.close();
  });
});

describe('events from the rest of the server', () => {
  it('brings a recorded notification to the user as updateCount', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const socket = await connected(creator);
    expect((await call('POST', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
    expect(await socket.next((m) => m.type === 'updateCount')).toEqual({ type: 'updateCount', notifications: 1, chats: 0, reactions: 0 });
    socket.close();
  });

  it('tells connected followers of a new post, and not of a scheduled one', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    expect((await call('POST', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
    const socket = await connected(fan);
    const later = await call('POST', '/api/posts', creator, { text: 'tomorrow', startDate: Date.now() + 86_400_000 });
    expect(later.json.statusCode).toBe(2);
    const now = await call('POST', '/api/posts', creator, { text: 'now' });
    expect(now.json.statusCode).toBe(2);
    expect(await socket.next((m) => m.type === 'newPost')).toEqual({ type: 'newPost', postId: now.json.body.id, userId: creator.id });
    await socket.sync();
    expect(socket.received.filter((m) => m.type === 'newPost')).toHaveLength(1);
    socket.close();
  });

  it('brings a tip’s new balances to the fan and the creator as amountChange', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const gifts = (await call('GET', '/papi/gifts')).json.body as { id: number; gValue: number; cValue: number }[];
    const gift = gifts[0]!;
    await fundWallet(app, fan.id, gift.gValue + 5);
    const before = await createPaymentService(app.fanstage).balance(fan.id);
    const fanSocket = await connected(fan);
    const creatorSocket = await connected(creator);
    const answer = await call('POST', '/api/users/tip', fan, { userId: creator.id, giftId: gift.id });
    expect(answer.json.statusCode).toBe(2);
    const fanChange = await fanSocket.next((m) => m.type === 'amountChange');
    expect(fanChange.type === 'amountChange' && fanChange.balance.gBalance).toBe(5);
    expect(fanChange.type === 'amountChange' && fanChange.balance.ts).toBeGreaterThan(before.ts);
    const creatorChange = await creatorSocket.next((m) => m.type === 'amountChange');
    expect(creatorChange.type === 'amountChange' && creatorChange.balance.cBalance).toBe(gift.cValue);
    fanSocket.close();
    creatorSocket.close();
  });

  it('brings a paid top-up to the wallet owner as amountChange, once however often the processor reports it', async () => {
    const fan = await createAccount(app);
    const packages = (await call('GET', '/api/payments/packages', fan)).json.body as { id: number; gValue: number; cValue: number }[];
    const pkg = packages[0]!;
    const started = await call('POST', '/api/payments/pay-new-card', fan, { packageId: pkg.id, processor: 'sandbox' });
    expect(started.json.statusCode).toBe(2);
    const socket = await connected(fan);
    // The processor's report of the payment, as its callback delivers it.
    const report = { orderId: started.json.body.id as string, status: 'paid' as const, externalId: 'sandbox-realtime-1', card: null };
    await applyProcessorEvent(app.fanstage, 'sandbox', report);
    const change = await socket.next((m) => m.type === 'amountChange');
    expect(change.type === 'amountChange' && change.balance.gBalance).toBe(pkg.cValue);
    expect(change.type === 'amountChange' && change.balance.ts).toBeGreaterThan(0);
    await applyProcessorEvent(app.fanstage, 'sandbox', report);
    await socket.sync();
    expect(socket.received.filter((m) => m.type === 'amountChange')).toHaveLength(1);
    socket.close();
  });

  it('sends no amountChange for a payment that rolled back', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const gifts = (await call('GET', '/papi/gifts')).json.body as { id: number; gValue: number }[];
    const fanSocket = await connected(fan);
    const answer = await call('POST', '/api/users/tip', fan, { userId: creator.id, giftId: gifts[0]!.id });
    expect(answer.json.statusText).toBe('noMoney');
    await fanSocket.sync();
    expect(fanSocket.received.some((m) => m.type === 'amountChange')).toBe(false);
    fanSocket.close();
  });

  it('logs out the sockets of an account an admin blocks', async () => {
    const admin = await createAccount(app, { level: 500 });
    const fan = await createAccount(app);
    const socket = await connected(fan);
    expect((await call('POST', `/api/admin/users/${fan.id}/block`, admin)).json).toEqual({ statusCode: 1 });
    expect(await socket.next((m) => m.type === 'beforeLogout')).toEqual({ type: 'beforeLogout', reason: 'admin-blocked' });
    expect((await socket.closed).code).toBe(4401);
    expect(await connect(fan.accessToken)).toMatchObject({ refused: { code: 4401 } });
  });

  it('logs out the sockets of an account whose password changed', async () => {
    const fan = await createAccount(app);
    const socket = await connected(fan);
    const changed = await call('PUT', '/api/users/me', fan, { currentPassword: fan.password, newPassword: `${fan.password}-new` });
    expect(changed.json.statusCode).toBe(2);
    expect(await socket.next((m) => m.type === 'beforeLogout')).toEqual({ type: 'beforeLogout', reason: 'disconnected-password' });
    expect((await socket.closed).code).toBe(4401);
  });
});

describe('without a reachable Redis', () => {
  it('keeps serving its own sockets and closes cleanly', async () => {
    // Nothing listens on port 1: every Redis command fails.
    const lonely = await startTestServer({ seed: false, redisUrl: 'redis://127.0.0.1:1' });
    try {
      const a = await createAccount(lonely.app);
      const b = await createAccount(lonely.app);
      const connectHere = async (account: TestAccount) => {
        const socket = new WebSocket(`${lonely.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(account.accessToken), { origin: lonely.baseUrl });
        const client = new Client(socket, { answerPings: true });
        open.push(client);
        await client.next((m) => m.type === 'hello');
        return client;
      };
      const sa = await connectHere(a);
      const sb = await connectHere(b);
      await converse(sa, b);
      sa.send({ type: 'eventMessage', event: 'typing', userId: b.id });
      expect(await sb.next((m) => m.type === 'eventMessage')).toEqual({ type: 'eventMessage', event: 'typing', userId: a.id });
    } finally {
      await lonely.close();
    }
  });
});

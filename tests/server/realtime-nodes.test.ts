import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketProtocols } from '../../lib/contract/realtime';
import { WebSocket } from 'ws';
import type { ServerMessage } from '../../lib/contract/realtime';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { eq } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { users } from '../../server/src/db/schema';

/**
 * Two server nodes on one PostgreSQL database and one Redis: what one node publishes reaches
 * sockets held by the other. PGlite cannot be shared between two servers, so this suite needs
 * DATABASE_URL (a PostgreSQL server) and REDIS_URL.
 */
const databaseUrl = process.env.DATABASE_URL?.trim();
const redisUrl = process.env.REDIS_URL?.trim();
const runnable = Boolean(databaseUrl && databaseUrl !== 'memory://' && redisUrl);
const skipReason = 'needs DATABASE_URL (PostgreSQL) and REDIS_URL: two nodes must share a database and a Redis';

let nodeA: TestServer;
let nodeB: TestServer;

const patience = 15_000;

class Client {
  readonly received: ServerMessage[] = [];
  readonly closed: Promise<number>;

  constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      this.received.push(message);
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong', ts: message.ts }));
    });
  }

  async next(test: (message: ServerMessage) => boolean, from = 0): Promise<ServerMessage> {
    const deadline = Date.now() + patience;
    for (;;) {
      const found = this.received.slice(from).find(test);
      if (found !== undefined) return found;
      if (Date.now() > deadline || this.socket.readyState > WebSocket.OPEN) throw new Error(`no matching message; got ${JSON.stringify(this.received)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async sync(): Promise<void> {
    const ts = Math.floor(Math.random() * 1e12);
    const from = this.received.length;
    this.socket.send(JSON.stringify({ type: 'ping', ts }));
    await this.next((m) => m.type === 'pong' && m.ts === ts, from);
  }
}

const clients: Client[] = [];
async function connectTo(node: TestServer, account: TestAccount): Promise<Client> {
  const socket = new WebSocket(`${node.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(account.accessToken), { origin: node.baseUrl });
  const client = new Client(socket);
  clients.push(client);
  await client.next((m) => m.type === 'hello');
  return client;
}

/**
 * Publishes on node A until node B's socket has it: B subscribes to Redis while it starts,
 * and the subscription may complete a moment after B answers its first request.
 */
async function publishUntilDelivered(client: Client, userId: number): Promise<void> {
  const marker = Math.floor(Math.random() * 1e9);
  const deadline = Date.now() + patience;
  while (!client.received.some((m) => m.type === 'pong' && m.ts === marker)) {
    if (Date.now() > deadline) throw new Error('the bus never delivered');
    nodeA.app.fanstage.realtime.publish(userId, { type: 'pong', ts: marker });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!runnable)(`realtime across nodes (${runnable ? 'PostgreSQL + Redis' : `skipped: ${skipReason}`})`, () => {
  beforeAll(async () => {
    nodeA = await startTestServer({ seed: false, redisUrl });
    nodeB = await startTestServer({ seed: false, redisUrl, databaseUrl: nodeA.databaseUrl, jwtSecret: nodeA.app.fanstage.config.jwtSecret });
  });
  afterAll(async () => {
    for (const client of clients) client.socket.terminate();
    await nodeB?.close();
    await nodeA?.close();
  });

  const callA = apiCaller(() => nodeA.app);
  const callB = apiCaller(() => nodeB.app);

  it('delivers what node A publishes to a socket on node B, once', async () => {
    const fan = await createAccount(nodeA.app);
    const onB = await connectTo(nodeB, fan);
    const onA = await connectTo(nodeA, fan);
    await publishUntilDelivered(onB, fan.id);
    const fromA = onA.received.length;
    const fromB = onB.received.length;
    nodeA.app.fanstage.realtime.publish(fan.id, { type: 'newPost', postId: 7, userId: 3 });
    expect(await onB.next((m) => m.type === 'newPost', fromB)).toEqual({ type: 'newPost', postId: 7, userId: 3 });
    // Node A delivered locally and ignored its own message coming back from Redis.
    await publishUntilDelivered(onB, fan.id);
    await onA.sync();
    expect(onA.received.slice(fromA).filter((m) => m.type === 'newPost')).toHaveLength(1);
  });

  it('brings a notification made through node A to the user on node B', async () => {
    const creator = await createAccount(nodeA.app, { seller: true });
    const fan = await createAccount(nodeA.app);
    const onB = await connectTo(nodeB, creator);
    await publishUntilDelivered(onB, creator.id);
    expect((await callA('POST', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
    expect(await onB.next((m) => m.type === 'updateCount')).toEqual({ type: 'updateCount', notifications: 1, chats: 0, reactions: 0 });
  });

  it('relays typing from a socket on node A to one on node B', async () => {
    const a = await createAccount(nodeA.app);
    const b = await createAccount(nodeA.app);
    const sa = await connectTo(nodeA, a);
    const sb = await connectTo(nodeB, b);
    await publishUntilDelivered(sb, b.id);
    // Indicators go only between people who share a conversation.
    const msgId = `nodes-hello-${Date.now()}`;
    sa.socket.send(JSON.stringify({ type: 'chatMessage', msgId, receiverId: b.id, text: 'Hello' }));
    await sa.next((m) => m.type === 'chatMessage' && m.message.msgId === msgId);
    sa.socket.send(JSON.stringify({ type: 'eventMessage', event: 'typing', userId: b.id }));
    expect(await sb.next((m) => m.type === 'eventMessage')).toEqual({ type: 'eventMessage', event: 'typing', userId: a.id });
  });

  it('carries a paid chat both ways between a fan on node A and a creator on node B, stored once and charged once', async () => {
    const creator = await createAccount(nodeA.app, { seller: true });
    const fan = await createAccount(nodeA.app);
    await nodeA.app.fanstage.db.update(users).set({ messagePrice: 32 }).where(eq(users.id, creator.id));
    const price = fanPriceCents(32, nodeA.app.fanstage.config.priceSalt);
    await fundWallet(nodeA.app, fan.id, price);
    const onA = await connectTo(nodeA, fan);
    const onB = await connectTo(nodeB, creator);
    await publishUntilDelivered(onB, creator.id);
    await publishUntilDelivered(onA, fan.id);

    const msgId = `nodes-${Date.now()}`;
    onA.socket.send(JSON.stringify({ type: 'chatMessage', msgId, receiverId: creator.id, text: 'from node A', price: 32 }));
    const echo = await onA.next((m) => m.type === 'chatMessage' && m.message.msgId === msgId);
    const delivered = await onB.next((m) => m.type === 'chatMessage' && m.message.msgId === msgId);
    expect(delivered).toEqual(echo);
    expect(await onB.next((m) => m.type === 'updateCount')).toEqual({ type: 'updateCount', notifications: 0, chats: 1, reactions: 0 });
    expect(await onB.next((m) => m.type === 'amountChange')).toMatchObject({ balance: { cBalance: 32 } });

    const replyId = `nodes-reply-${Date.now()}`;
    onB.socket.send(JSON.stringify({ type: 'chatMessage', msgId: replyId, receiverId: fan.id, text: 'from node B' }));
    const reply = await onA.next((m) => m.type === 'chatMessage' && m.message.msgId === replyId);
    expect(reply).toMatchObject({ message: { senderId: creator.id, receiverId: fan.id, text: 'from node B', price: 0 } });
    onB.socket.send(JSON.stringify({ type: 'chatConvRead', userId: fan.id }));
    expect(await onA.next((m) => m.type === 'readMessages')).toMatchObject({ userId: creator.id });

    // The fan's resend reaches node B's database row, not a second payment.
    onA.socket.send(JSON.stringify({ type: 'chatMessage', msgId, receiverId: creator.id, text: 'from node A', price: 32 }));
    await onA.sync();
    expect(onA.received.filter((m) => m.type === 'chatMessage' && m.message.msgId === msgId)).toHaveLength(2);
    expect(await walletOf(nodeB.app, fan.id)).toBe(0);
    expect(await earningsOf(nodeB.app, creator.id)).toBe(32);
    await expectLedgerBalanced(nodeB.app);
  });

  it('logs out on node B an account blocked through node A', async () => {
    const admin = await createAccount(nodeA.app, { level: 500 });
    const fan = await createAccount(nodeA.app);
    const onB = await connectTo(nodeB, fan);
    await publishUntilDelivered(onB, fan.id);
    // Node B holds the account behind the fan's token for a moment.
    expect((await callB('GET', '/api/users/me', fan)).json.statusCode).toBeGreaterThan(0);
    expect((await callA('POST', `/api/admin/users/${fan.id}/block`, admin)).json).toEqual({ statusCode: 1 });
    expect(await onB.next((m) => m.type === 'beforeLogout')).toEqual({ type: 'beforeLogout', reason: 'admin-blocked' });
    expect(await onB.closed).toBe(4401);
    // The logout that closed B's socket also ended what B held: the token is refused there too.
    expect((await callB('GET', '/api/users/me', fan)).status).toBe(401);
  });

  it('tells node B of a write answered by node A, so the pages B holds in memory are read afresh', async () => {
    const fan = await createAccount(nodeA.app);
    const creator = await createAccount(nodeA.app, { seller: true });
    let heard = 0;
    nodeB.app.fanstage.realtime.onWriteElsewhere(() => (heard += 1));
    // B's subscription may complete a moment after it answers its first request.
    const onB = await connectTo(nodeB, fan);
    await publishUntilDelivered(onB, fan.id);
    expect((await callA('POST', '/api/users/follow', fan, { id: creator.id })).json).toMatchObject({ statusCode: 1 });
    const deadline = Date.now() + patience;
    while (heard === 0) {
      if (Date.now() > deadline) throw new Error('node B never heard of the write');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
});

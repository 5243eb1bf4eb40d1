import { spawn, type ChildProcess } from 'node:child_process';
import { socketProtocols } from '../../lib/contract/realtime';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerMessage } from '../../lib/contract/realtime';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { users } from '../../server/src/db/schema';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { eq } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';

/**
 * Two server processes — `server/src/main.ts`, as an operator runs each node behind a load
 * balancer — on one PostgreSQL database and one Redis: a fan connected to one and a creator
 * connected to the other chat both ways. The test's own in-process server only owns the
 * database (made afresh, migrated) and makes the accounts; it serves no socket.
 */
const databaseUrl = process.env.DATABASE_URL?.trim();
const redisUrl = process.env.REDIS_URL?.trim();
const runnable = Boolean(databaseUrl && databaseUrl !== 'memory://' && redisUrl);

const root = path.join(import.meta.dirname, '..', '..');
const patience = 15_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Node {
  child: ChildProcess;
  baseUrl: string;
  dataDir: string;
}

async function startNode(env: Record<string, string>): Promise<Node> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-node-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`a node exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/papi/settings`)).ok) return { child, baseUrl, dataDir };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`a node did not answer on ${baseUrl}`);
}

async function stopNode(node: Node | undefined): Promise<void> {
  if (node === undefined) return;
  if (node.child.exitCode === null) {
    const exited = new Promise((resolve) => node.child.once('exit', resolve));
    node.child.kill('SIGTERM');
    await exited;
  }
  await rm(node.dataDir, { recursive: true, force: true });
}

class Client {
  readonly received: ServerMessage[] = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      this.received.push(message);
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong', ts: message.ts }));
    });
  }

  static async connect(node: Node, account: TestAccount): Promise<Client> {
    const socket = new WebSocket(`${node.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(account.accessToken), { origin: node.baseUrl });
    const client = new Client(socket);
    await client.next((m) => m.type === 'hello');
    return client;
  }

  async next(test: (message: ServerMessage) => boolean): Promise<ServerMessage> {
    const deadline = Date.now() + patience;
    for (;;) {
      const found = this.received.find(test);
      if (found !== undefined) return found;
      if (Date.now() > deadline || this.socket.readyState > WebSocket.OPEN) throw new Error(`no matching message; got ${JSON.stringify(this.received)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/**
 * Sends typing from `from` until `to` (on the other node) hears it: a node subscribes to Redis
 * while it starts, and the subscription may complete a moment after it answers its first request.
 */
async function typingUntilHeard(from: Client, fromId: number, to: Client, toId: number): Promise<void> {
  const deadline = Date.now() + patience;
  while (!to.received.some((m) => m.type === 'eventMessage' && m.event === 'typing' && m.userId === fromId)) {
    if (Date.now() > deadline) throw new Error('the other node never heard the typing');
    from.socket.send(JSON.stringify({ type: 'eventMessage', event: 'typing', userId: toId }));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!runnable)(`two server processes (${runnable ? 'PostgreSQL + Redis' : 'skipped: needs DATABASE_URL (PostgreSQL) and REDIS_URL'})`, () => {
  let owner: TestServer;
  let nodeA: Node | undefined;
  let nodeB: Node | undefined;
  const clients: Client[] = [];

  beforeAll(async () => {
    owner = await startTestServer({ seed: false });
    const env = { NODE_ENV: 'test', DATABASE_URL: owner.databaseUrl, REDIS_URL: redisUrl!, JWT_SECRET: owner.app.fanstage.config.jwtSecret };
    [nodeA, nodeB] = await Promise.all([startNode(env), startNode(env)]);
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.socket.terminate();
    await Promise.all([stopNode(nodeA), stopNode(nodeB)]);
    await owner?.close();
  });

  it('a fan on one process and a creator on the other chat both ways; the message is stored once and paid once', { timeout: 60_000 }, async () => {
    const creator = await createAccount(owner.app, { seller: true });
    const fan = await createAccount(owner.app);
    await owner.app.fanstage.db.update(users).set({ messagePrice: 13 }).where(eq(users.id, creator.id));
    const price = fanPriceCents(13, owner.app.fanstage.config.priceSalt);
    await fundWallet(owner.app, fan.id, price);

    const onA = await Client.connect(nodeA!, fan);
    const onB = await Client.connect(nodeB!, creator);
    clients.push(onA, onB);
    // Indicators go only between people who share a conversation: the creator writes first (free).
    const welcomeId = `processes-welcome-${Date.now()}`;
    onB.socket.send(JSON.stringify({ type: 'chatMessage', msgId: welcomeId, receiverId: fan.id, text: 'Welcome' }));
    await onB.next((m) => m.type === 'chatMessage' && m.message.msgId === welcomeId);
    await typingUntilHeard(onA, fan.id, onB, creator.id);
    await typingUntilHeard(onB, creator.id, onA, fan.id);

    const msgId = `processes-${Date.now()}`;
    onA.socket.send(JSON.stringify({ type: 'chatMessage', msgId, receiverId: creator.id, text: 'Hello from node A', price: 13 }));
    const echo = await onA.next((m) => m.type === 'chatMessage' && m.message.msgId === msgId);
    const delivered = await onB.next((m) => m.type === 'chatMessage' && m.message.msgId === msgId);
    expect(delivered).toEqual(echo);
    expect(delivered).toMatchObject({ message: { senderId: fan.id, receiverId: creator.id, price: 13 } });
    expect(await onB.next((m) => m.type === 'amountChange')).toMatchObject({ balance: { cBalance: 13 } });

    const replyId = `processes-reply-${Date.now()}`;
    onB.socket.send(JSON.stringify({ type: 'chatMessage', msgId: replyId, receiverId: fan.id, text: 'Hello from node B' }));
    expect(await onA.next((m) => m.type === 'chatMessage' && m.message.msgId === replyId)).toMatchObject({
      message: { senderId: creator.id, receiverId: fan.id, text: 'Hello from node B', price: 0 },
    });
    onA.socket.send(JSON.stringify({ type: 'chatConvRead', userId: creator.id }));
    expect(await onB.next((m) => m.type === 'readMessages')).toMatchObject({ userId: fan.id });

    expect(await walletOf(owner.app, fan.id)).toBe(0);
    expect(await earningsOf(owner.app, creator.id)).toBe(13);
    await expectLedgerBalanced(owner.app);
  });
});

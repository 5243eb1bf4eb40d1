import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../lib/contract/chat';
import type { ServerMessage } from '../../lib/contract/realtime';
import { freePort } from '../support/ports';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { closeSockets, connectSocket, type SocketClient } from '../support/sockets';
import { say } from './support-chat';

/**
 * Redis between two nodes goes away for 20 s while a fan on node A and a creator on node B
 * chat (docs/realtime.md, "Between nodes"). Every message is stored, but what one node sends
 * meanwhile never reaches the other's sockets. When Redis is back each node tells its sockets
 * to catch up (`catchUp`), and a client that does what the SDK does — resume after the last
 * position it holds, keep each message once by its position — has every message within 5 s.
 * The suite runs a Redis server of its own (the one CI shares cannot be stopped), so it needs
 * `redis-server` and a PostgreSQL server the two nodes share.
 */
const databaseUrl = process.env.DATABASE_URL?.trim();
const runnable = Boolean(databaseUrl && databaseUrl !== 'memory://' && process.env.REDIS_URL?.trim());

async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    redis.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    redis.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return redis;
}

async function stopRedis(redis: ChildProcess): Promise<void> {
  if (redis.exitCode !== null) return;
  const exited = new Promise((resolve) => redis.once('exit', resolve));
  redis.kill('SIGKILL');
  await exited;
}

/** A chat client as the SDK is one: messages kept once by position, a resume after the last on `catchUp`. */
class Chat {
  readonly byPosition = new Map<number, ChatMessage>();
  private handled = 0;

  constructor(readonly socket: SocketClient) {}

  /** Reads what arrived: chat messages into the list, and a `catchUp` answered with a resume. */
  pump(): void {
    for (const message of this.socket.received.slice(this.handled) as ServerMessage[]) {
      if (message.type === 'chatMessage' && typeof message.message.seq === 'number') {
        this.byPosition.set(message.message.seq, message.message);
      }
      if (message.type === 'catchUp') this.socket.send({ type: 'resume', after: this.through() });
    }
    this.handled = this.socket.received.length;
  }

  /** The highest position held with none missing before it. */
  through(): number {
    let position = 0;
    while (this.byPosition.has(position + 1)) position += 1;
    return position;
  }

  texts(): string[] {
    return [...this.byPosition.values()].map((message) => message.text ?? '').filter((text) => text.startsWith('outage ')).sort();
  }
}

describe.skipIf(!runnable)('when Redis between two nodes goes away and comes back', () => {
  let redisPort = 0;
  let redis: ChildProcess;
  let nodeA: TestServer;
  let nodeB: TestServer;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    const jwtSecret = randomBytes(32).toString('base64url');
    nodeA = await startTestServer({ seed: false, redisUrl, jwtSecret });
    nodeB = await startTestServer({ seed: false, redisUrl, jwtSecret, databaseUrl: nodeA.databaseUrl });
  }, 60_000);

  afterAll(async () => {
    closeSockets();
    await nodeB?.close();
    await nodeA?.close();
    if (redis) await stopRedis(redis);
  });

  it('every message of a 20 s outage reaches both open chats within 5 s of its return, none twice', { timeout: 90_000 }, async () => {
    const [fan, creator] = await Promise.all([createAccount(nodeA.app), createAccount(nodeA.app)]);
    const fanChat = new Chat(await connectSocket(nodeA, fan));
    const creatorChat = new Chat(await connectSocket(nodeB, creator));
    // Live across the nodes first: the bus works.
    await say(fanChat.socket, { receiverId: creator.id, text: 'before' });
    await creatorChat.socket.next((m) => m.type === 'chatMessage' && m.message.text === 'before');

    await stopRedis(redis);
    const started = Date.now();
    const sent: string[] = [];
    let turn = 0;
    while (Date.now() - started < 20_000) {
      const text = `outage ${String(turn).padStart(3, '0')}`;
      const [from, to]: [Chat, TestAccount] = turn % 2 === 0 ? [fanChat, creator] : [creatorChat, fan];
      await say(from.socket, { receiverId: to.id, text });
      sent.push(text);
      turn += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    fanChat.pump();
    creatorChat.pump();
    // Each side has its own messages (echoed by its node) and not the other's.
    expect(fanChat.texts().length).toBeLessThan(sent.length);
    expect(creatorChat.texts().length).toBeLessThan(sent.length);

    redis = await startRedis(redisPort);
    const back = Date.now();
    const deadline = back + 5_000;
    while (Date.now() < deadline && !(fanChat.texts().length === sent.length && creatorChat.texts().length === sent.length)) {
      fanChat.pump();
      creatorChat.pump();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(fanChat.socket.all('catchUp').length).toBeGreaterThanOrEqual(1);
    expect(creatorChat.socket.all('catchUp').length).toBeGreaterThanOrEqual(1);
    expect(fanChat.texts()).toEqual([...sent].sort());
    expect(creatorChat.texts()).toEqual([...sent].sort());
    // None twice: every position holds one message, and they are the stream's 1…n.
    for (const chat of [fanChat, creatorChat]) {
      const ids = [...chat.byPosition.values()].map((message) => message.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(chat.through()).toBe(chat.byPosition.size);
    }
  });
});

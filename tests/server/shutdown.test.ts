import { randomBytes } from 'node:crypto';
import { socketProtocols } from '../../lib/contract/realtime';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerMessage } from '../../lib/contract/realtime';
import { openDatabase } from '../../server/src/db';
import { gifts, ledgerTransfers, media, postMedia, posts, users } from '../../server/src/db/schema';
import { createAccount, type TestAccount } from '../support/accounts';
import { eq, sql } from '../support/db';
import { fundWallets } from '../support/money';
import { startTestServer } from '../support/server';
import {
  freshProcessDatabase,
  openArrangingApp,
  startServerProcess,
  stopServerProcess,
  type ProcessSettings,
  type ServerProcess,
} from '../support/processes';

/**
 * A supervisor stops the server with SIGTERM (a deploy, a scale-down) while it is busy: about
 * 200 requests — payments and reads — are in flight and people are connected on websockets.
 * Every request the server took gets its whole answer, and no payment is made without one;
 * the websockets are told 1001 (going away), even one whose client stopped reading; the process
 * closes its database and exits 0 within the bound main.ts sets (else it would exit 1).
 */

const FANS = 8;
const REQUESTS = 200;
/** Payments whose bodies the client is still sending when the signal comes. */
const SLOW_REQUESTS = 8;
/** Long enough never to fire on a working server; keeps a broken one from hanging the test. */
const patience = 20_000;
/** Sent once the signal went: the server may refuse their connections, but must not cut an answer. */
const LATE_REQUESTS = 20;
const PRICE = 48;

type Result =
  /** The whole answer arrived (status and a complete JSON body). */
  | { state: 'answered'; status: number; body: { statusCode?: number; statusText?: string } }
  /** No answer began: the connection was refused or closed before the server took the request. */
  | { state: 'not-taken'; reason: string }
  /** The answer began and broke off. */
  | { state: 'cut'; status: number; reason: string };

interface Request {
  n: number;
  method: 'GET' | 'POST';
  url: string;
  fan: TestAccount;
  body?: Record<string, unknown>;
  /** For payments: the ledger's key of the transfer it makes. */
  ledgerKey?: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** A websocket whose client answers the server as `ws` does, recording the close code it gets. */
async function openSocket(server: ServerProcess, fan: TestAccount): Promise<{ socket: WebSocket; closed: Promise<number> }> {
  const socket = new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(fan.accessToken), { origin: server.baseUrl });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      if (message.type === 'hello') resolve();
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong', ts: message.ts }));
    });
    void closed.then((code) => reject(new Error(`the socket closed with ${code} before hello`)));
  });
  return { socket, closed };
}

/**
 * A websocket whose client froze after the handshake: it reads nothing more, so it never
 * answers the server's close frame. The bytes the server sends wait in the connection.
 */
async function frozenSocket(server: ServerProcess, fan: TestAccount): Promise<{ socket: Socket; received: () => Promise<Buffer> }> {
  const socket = connect(server.port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(
    [
      'GET /ws/ HTTP/1.1',
      `Sec-WebSocket-Protocol: ${socketProtocols(fan.accessToken).join(', ')}`,
      `Host: 127.0.0.1:${server.port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      `Origin: ${server.baseUrl}`,
      '',
      '',
    ].join('\r\n'),
  );
  // Up to the hello, then no more reading.
  for (;;) {
    const text = Buffer.concat(chunks).toString('latin1');
    if (text.includes('"hello"')) break;
    if (socket.destroyed) throw new Error(`the frozen socket's handshake failed: ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(Buffer.concat(chunks).toString('latin1')).toMatch(/^HTTP\/1\.1 101 /);
  socket.pause();
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    received: async () => {
      socket.resume();
      await ended;
      return Buffer.concat(chunks);
    },
  };
}

/** The close code of the first close frame (opcode 8) the server sent after the handshake, if any. */
function closeCodeIn(bytes: Buffer): number | undefined {
  let at = bytes.indexOf('\r\n\r\n') + 4;
  while (at + 2 <= bytes.length) {
    const opcode = bytes[at]! & 0x0f;
    let length = bytes[at + 1]! & 0x7f;
    let header = 2;
    if (length === 126) {
      length = bytes.readUInt16BE(at + 2);
      header = 4;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(at + 2));
      header = 10;
    }
    if (opcode === 8) return length >= 2 ? bytes.readUInt16BE(at + header) : undefined;
    at += header + length;
  }
  return undefined;
}

/** One request on the agent's connections: its whole answer, no answer at all, or an answer that broke off. */
function exchange(agent: Agent, server: ServerProcess, request: Pick<Request, 'method' | 'url' | 'body'> & { fan?: TestAccount }): Promise<Result> {
  return new Promise((resolve) => {
    const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
    let responded = false;
    const outgoing = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port: server.port,
        method: request.method,
        path: request.url,
        headers: {
          ...(request.fan ? { authorization: `Bearer ${request.fan.accessToken}` } : {}),
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        responded = true;
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let settled = false;
        const broke = (reason: string) => {
          if (settled) return;
          settled = true;
          resolve({ state: 'cut', status, reason });
        };
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) => broke(error.message));
        response.on('aborted', () => broke('aborted'));
        response.on('end', () => {
          if (settled) return;
          settled = true;
          const text = Buffer.concat(chunks).toString();
          try {
            resolve({ state: 'answered', status, body: JSON.parse(text) as { statusCode?: number; statusText?: string } });
          } catch {
            resolve({ state: 'cut', status, reason: `not the whole JSON: ${text.slice(0, 200)}` });
          }
        });
        response.on('close', () => broke('closed before the end'));
      },
    );
    // Before any answer: the connection was refused, or closed before the server took the request.
    outgoing.on('error', (error) => resolve(responded ? { state: 'cut', status: 0, reason: error.message } : { state: 'not-taken', reason: error.message }));
    outgoing.end(payload);
  });
}

interface LogEntry {
  level: number;
  msg?: string;
  req?: { remotePort?: number };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + patience;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A request on a connection of its own whose body is sent in two halves: the first now, the
 * second by `finish`, which then reads the whole answer (status, headers, Content-Length bytes).
 */
async function halfSent(server: ServerProcess, request: Request): Promise<{ port: number; finish: () => Promise<Result> }> {
  const socket = connect(server.port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const chunks: Buffer[] = [];
  let ended = false;
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.once('close', () => (ended = true));
  const payload = Buffer.from(JSON.stringify(request.body));
  const half = Math.floor(payload.length / 2);
  socket.write(
    [
      `${request.method} ${request.url} HTTP/1.1`,
      `Host: 127.0.0.1:${server.port}`,
      `Authorization: Bearer ${request.fan.accessToken}`,
      'Content-Type: application/json',
      `Content-Length: ${payload.length}`,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(payload.subarray(0, half));
  /** The answer once it is all there, or `undefined` while more is to come. */
  const answer = (): Result | undefined => {
    const bytes = Buffer.concat(chunks);
    const split = bytes.indexOf('\r\n\r\n');
    if (split < 0) return ended ? (bytes.length === 0 ? { state: 'not-taken', reason: 'closed without an answer' } : { state: 'cut', status: 0, reason: 'closed within the headers' }) : undefined;
    const head = bytes.subarray(0, split).toString('latin1');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
    const body = bytes.subarray(split + 4);
    if (Number.isFinite(length) && body.length >= length) {
      try {
        return { state: 'answered', status, body: JSON.parse(body.subarray(0, length).toString()) as { statusCode?: number; statusText?: string } };
      } catch {
        return { state: 'cut', status, reason: `not JSON: ${body.toString().slice(0, 200)}` };
      }
    }
    return ended ? { state: 'cut', status, reason: `closed after ${body.length} of ${length} bytes` } : undefined;
  };
  return {
    port: socket.localPort!,
    finish: async () => {
      socket.write(payload.subarray(half));
      let result: Result | undefined;
      await waitFor(() => (result = answer()) !== undefined, `the answer to ${request.url}`);
      socket.destroy();
      return result!;
    },
  };
}

const driver = process.env.DATABASE_URL?.trim() && process.env.DATABASE_URL.trim() !== 'memory://' ? 'PostgreSQL' : 'PGlite files';

describe(`a server process stopped with SIGTERM under load (${driver})`, () => {
  it('answers in full every request it took, pays nothing unanswered, closes websockets with 1001 and exits 0', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-shutdown-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const database = await freshProcessDatabase();
    cleanups.push(() => database.drop());
    const settings: ProcessSettings = { dataDir, databaseUrl: database.databaseUrl, jwtSecret: randomBytes(32).toString('base64url') };

    // ---- Arranged before the process opens the database.
    const arranging = await openArrangingApp(settings);
    let fans: TestAccount[];
    let creator: TestAccount;
    let giftId: number;
    const requests: Request[] = [];
    try {
      const { db } = arranging.fanstage;
      creator = await createAccount(arranging, { seller: true });
      fans = await Promise.all(Array.from({ length: FANS }, () => createAccount(arranging)));
      await db.update(users).set({ nsfwAgreement: 1 }).where(sql`${users.id} <> ${creator.id}`);
      const [gift] = await db.select().from(gifts).where(eq(gifts.active, true)).orderBy(gifts.gValue).limit(1);
      giftId = gift!.id;
      const publishedAt = new Date(Date.now() - 60_000);
      const [giftPost] = await db.insert(posts).values({ userId: creator.id, text: 'gift me', publishedAt }).returning({ id: posts.id });
      const unlocks = Math.ceil(REQUESTS / 5);
      const lockedPosts = await db
        .insert(posts)
        .values(Array.from({ length: unlocks }, () => ({ userId: creator.id, text: 'locked', publishedAt })))
        .returning({ id: posts.id });
      const mediaIds = (
        await db
          .insert(media)
          .values(lockedPosts.map(() => ({ hash: randomBytes(16).toString('hex'), ownerId: creator.id, kind: 'post', format: 'webp', width: 800, height: 600, status: 3, price: PRICE })))
          .returning({ id: media.id })
      ).map((r) => r.id);
      await db.insert(postMedia).values(lockedPosts.map((p, i) => ({ postId: p.id, mediaId: mediaIds[i]!, position: 0 })));
      // Enough for everything: a payment refused noMoney would say nothing about the shutdown.
      await fundWallets(arranging, new Map(fans.map((fan) => [fan.id, 1_000_000])));

      // Payments and reads mixed; payments with their keys, each unlock of its own media.
      for (let n = 0; n < REQUESTS + LATE_REQUESTS; n++) {
        const fan = fans[n % FANS]!;
        const key = `shutdown-${n}-${randomBytes(6).toString('hex')}`;
        const kind = n % 5 === 0 && mediaIds.length === 0 ? 1 : n % 5;
        switch (kind) {
          case 0: {
            const mediaId = mediaIds.pop()!;
            requests.push({ n, method: 'POST', url: '/api/media/unlock', fan, body: { id: mediaId, price: PRICE }, ledgerKey: `unlock:${fan.id}:${mediaId}` });
            break;
          }
          case 1:
            requests.push({ n, method: 'POST', url: '/api/posts/gift', fan, body: { postId: giftPost!.id, giftId: gift!.id, idempotencyKey: key }, ledgerKey: `gift:${fan.id}:${key}` });
            break;
          case 2:
            requests.push({ n, method: 'POST', url: '/api/users/tip', fan, body: { userId: creator.id, giftId: gift!.id, idempotencyKey: key }, ledgerKey: `gift:${fan.id}:${key}` });
            break;
          case 3:
            requests.push({ n, method: 'GET', url: '/api/payments/balance', fan });
            break;
          default:
            requests.push({ n, method: 'GET', url: n % 2 === 0 ? '/papi/gifts' : `/api/posts/${giftPost!.id}`, fan });
        }
      }
    } finally {
      await arranging.close();
    }

    // ---- The process, people connected, and the load.
    // As operators run it (its jobs on timers); at LOG_LEVEL info its log names each request it took.
    // Its money is the sandbox's, which production runs only on a staging server.
    const server = await startServerProcess(settings, { env: { NODE_ENV: 'production', FANSTAGE_STAGING: '1', LOG_LEVEL: 'info' } });
    cleanups.push(async () => {
      await stopServerProcess(server, 'SIGKILL');
    });
    const log = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogEntry);
    const sockets = await Promise.all(fans.slice(0, 4).map((fan) => openSocket(server, fan)));
    const frozen = await frozenSocket(server, fans[4]!);

    // Payments whose bodies are still arriving: the server took each (its log says so) before
    // the signal, and must answer it in full after.
    const slow = await Promise.all(
      Array.from({ length: SLOW_REQUESTS }, async (_, i) => {
        const fan = fans[i % FANS]!;
        const key = `shutdown-slow-${i}-${randomBytes(6).toString('hex')}`;
        const request: Request = { n: -1 - i, method: 'POST', url: '/api/users/tip', fan, body: { userId: creator.id, giftId: giftId, idempotencyKey: key }, ledgerKey: `gift:${fan.id}:${key}` };
        return { request, exchange: await halfSent(server, request) };
      }),
    );
    await waitFor(() => slow.every((s) => log().some((entry) => entry.msg === 'incoming request' && entry.req?.remotePort === s.exchange.port)), 'the server took the slow requests');

    // Connections opened first, as a busy site's clients hold them: the requests then reach the
    // server at once, instead of waiting to be accepted one connection at a time.
    const agent = new Agent({ keepAlive: true, maxSockets: REQUESTS });
    cleanups.push(async () => agent.destroy());
    const warmUp = await Promise.all(Array.from({ length: REQUESTS }, () => exchange(agent, server, { method: 'GET', url: '/papi/settings' })));
    expect(warmUp.filter((r) => r.state !== 'answered')).toEqual([]);

    // ~200 requests at once; SIGTERM as the first answer arrives.
    let signalled = false;
    let answeredCount = 0;
    const signalSent = new Promise<void>((resolve) => {
      void (async () => {
        await waitFor(() => answeredCount > 0, 'a first answer');
        signalled = true;
        server.child.kill('SIGTERM');
        resolve();
      })();
    });
    const results = new Map<Request, Result>();
    const early = requests.slice(0, REQUESTS);
    const late = requests.slice(REQUESTS);
    const send = async (request: Request) => {
      const result = await exchange(agent, server, request);
      if (result.state === 'answered') answeredCount++;
      results.set(request, result);
    };
    const inFlight = early.map(send);
    await signalSent;
    expect(signalled).toBe(true);
    // Once the server is closing, the slow requests' bodies arrive, and new requests try their luck.
    await waitFor(() => log().some((entry) => entry.msg === 'shutting down'), 'the server to begin closing');
    const slowAnswers = Promise.all(slow.map(async (s) => results.set(s.request, await s.exchange.finish())));
    const lateFlight = late.map(send);
    await Promise.all([...inFlight, ...lateFlight, slowAnswers]);

    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    // Nothing ran into a closed database or was cut short: no error in the log.
    expect(log().filter((entry) => entry.level >= 50)).toEqual([]);

    // Every websocket was told the server is going away, the frozen one too.
    expect(await Promise.all(sockets.map((s) => s.closed))).toEqual(sockets.map(() => 1001));
    expect(closeCodeIn(await frozen.received())).toBe(1001);

    // No answer broke off. The requests the server took before the signal were answered in full
    // and did what they asked; others were either refused a connection or told 503.
    const all = [...results.entries()];
    expect(all.filter(([, r]) => r.state === 'cut').map(([q, r]) => ({ n: q.n, url: q.url, r }))).toEqual([]);
    for (const { request } of slow) expect(results.get(request), `slow request ${request.n}`).toMatchObject({ state: 'answered', status: 200, body: { statusCode: 2 } });
    for (const [request, result] of all) {
      if (result.state !== 'answered' || result.status === 503) continue;
      expect(result.status, `${request.method} ${request.url}: ${JSON.stringify(result.body)}`).toBe(200);
      expect(result.body.statusCode).toBe(2);
    }

    // Money moved exactly for the payments answered OK: none was made without its answer.
    const handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir });
    try {
      const spent = await handle.db.select({ key: ledgerTransfers.idempotencyKey }).from(ledgerTransfers).where(sql`${ledgerTransfers.kind} <> 'promotion'`);
      const paidAndAnswered = all.filter(([q, r]) => q.ledgerKey !== undefined && r.state === 'answered' && r.status === 200).map(([q]) => q.ledgerKey!);
      expect(spent.map((t) => t.key).sort()).toEqual(paidAndAnswered.sort());
      expect(paidAndAnswered.length).toBeGreaterThanOrEqual(SLOW_REQUESTS);
    } finally {
      await handle.close();
    }
  });
});

describe('timed jobs when the server stops', () => {
  it('stopping waits for the run under way, so the database closes after it', async () => {
    const server = await startTestServer({ seed: false });
    try {
      const { jobs } = server.app.fanstage;
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let finished = false;
      jobs.add({
        name: 'test-held-open',
        everyMs: 60_000,
        run: async (ctx) => {
          await gate;
          await ctx.db.execute(sql`select 1`);
          finished = true;
          return 1;
        },
      });
      const run = jobs.runNow('test-held-open');
      let stopped = false;
      const stopping = jobs.stop().then(() => (stopped = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(finished).toBe(true);
      expect(await run).toBe(1);
    } finally {
      await server.close();
    }
  });
});

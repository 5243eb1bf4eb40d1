import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketProtocols } from '../../lib/contract/realtime';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { and, eq } from '../support/db';
import { fundWallets } from '../support/money';
import { closeSockets, connectSocket, type SocketClient } from '../support/sockets';
import type { ChatMessage } from '../../lib/contract/chat';
import type { ServerMessage } from '../../lib/contract/realtime';
import { chatMessages, chatStreamHeads, gifts } from '../../server/src/db/schema';
import { answers, newMsgId, say, setMessagePrice } from './support-chat';

/**
 * Resume by position (docs/realtime.md "Resume"): every chat message has a position in the
 * stream of its sender and of its receiver, handed out under a lock held until the storing
 * transaction commits, so a client that resumes after the last position it holds misses nothing
 * even when messages are stored concurrently.
 */

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
}, 60_000);
afterAll(async () => {
  closeSockets();
  await server?.close();
});

const call = apiCaller(() => app);
const databaseUrl = process.env.DATABASE_URL?.trim();
const onPostgres = databaseUrl !== undefined && databaseUrl !== '' && databaseUrl !== 'memory://';

/** Waits, processing what has arrived, until `done` holds; patience only against a hang. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * What one person's client holds of their chat stream, kept as the SDK keeps it: messages by id
 * (a message arriving twice is kept once), and `through`, the position up to which every message
 * is held — a live message above a hole waits in `above` until the hole is filled, and a
 * `resumed` answer vouches for everything up to its `last`.
 */
class HeldStream {
  readonly byId = new Map<number, ChatMessage>();
  readonly idAt = new Map<number, number>();
  readonly problems: string[] = [];
  through = 0;
  above = new Set<number>();
  /** Messages that came in answer to a resume (not live). */
  resumedMessages = 0;

  take(message: ChatMessage, resuming: boolean): void {
    if (message.seq === undefined) {
      this.problems.push(`message ${message.id} came without a position`);
      return;
    }
    const held = this.idAt.get(message.seq);
    if (held !== undefined && held !== message.id) this.problems.push(`position ${message.seq} named ${held} and then ${message.id}`);
    const before = this.byId.get(message.id)?.seq;
    if (before !== undefined && before !== message.seq) this.problems.push(`message ${message.id} came at ${before} and then at ${message.seq}`);
    this.byId.set(message.id, message);
    this.idAt.set(message.seq, message.id);
    if (resuming) this.resumedMessages += 1;
    this.see(message.seq);
  }

  see(seq: number): void {
    if (seq <= this.through) return;
    this.above.add(seq);
    while (this.above.delete(this.through + 1)) this.through += 1;
  }

  /**
   * The answer to a resume after `askedAfter`. It may end below `through` — messages that
   * committed after the resume read the stream arrive live ahead of its answer — but never below
   * the position asked after, which the SDK would take for a database that was reset.
   */
  caughtUp(last: number, askedAfter: number): void {
    if (last < askedAfter) this.problems.push(`resumed after ${askedAfter} answered ${last}`);
    this.through = Math.max(this.through, last);
    for (const seq of this.above) if (seq <= this.through) this.above.delete(seq);
    while (this.above.delete(this.through + 1)) this.through += 1;
  }
}

/**
 * One connection of a person's client: reads its frames in order into `stream`, resumes after
 * `stream.through` as soon as it is open (again while `more`), and counts live messages.
 */
class Reader {
  private index = 0;
  private resuming = false;
  private askedAfter = 0;
  live = 0;
  caughtUp = false;

  private constructor(
    readonly socket: SocketClient,
    readonly stream: HeldStream,
  ) {}

  static async open(account: TestAccount, stream: HeldStream): Promise<Reader> {
    const reader = new Reader(await connectSocket(server, account), stream);
    reader.resume();
    return reader;
  }

  private resume(): void {
    this.resuming = true;
    this.askedAfter = this.stream.through;
    this.socket.send({ type: 'resume', after: this.askedAfter });
  }

  /** Handles every frame that has arrived. */
  pump(): void {
    while (this.index < this.socket.received.length) this.handle(this.socket.received[this.index++]!);
  }

  private handle(frame: ServerMessage): void {
    if (frame.type === 'chatMessage') {
      this.stream.take(frame.message, this.resuming);
      if (!this.resuming) this.live += 1;
    } else if (frame.type === 'resumed') {
      this.stream.caughtUp(frame.last, this.askedAfter);
      if (frame.more) this.resume();
      else {
        this.resuming = false;
        this.caughtUp = true;
      }
    } else if (frame.type === 'error') {
      this.stream.problems.push(`error ${JSON.stringify(frame)}`);
    }
  }

  async until(done: () => boolean, what: string): Promise<void> {
    await until(() => {
      this.pump();
      return done();
    }, what);
  }

  /** Reads everything to the end of the stream. */
  async catchUp(): Promise<void> {
    await this.until(() => this.caughtUp, 'resumed');
  }

  close(): void {
    this.socket.socket.terminate();
  }
}

/** Everything `account`'s stream holds, read by a fresh client from position 0. */
async function wholeStream(account: TestAccount): Promise<HeldStream> {
  const stream = new HeldStream();
  const reader = await Reader.open(account, stream);
  await reader.catchUp();
  reader.close();
  return stream;
}

async function headOf(userId: number): Promise<number> {
  const [row] = await app.fanstage.db.select({ seq: chatStreamHeads.seq }).from(chatStreamHeads).where(eq(chatStreamHeads.userId, userId));
  return row?.seq ?? 0;
}

/** Fails unless the stream holds exactly `expected` (message ids) at positions 1…n, without gaps. */
async function expectWhole(stream: HeldStream, userId: number, expected: ReadonlySet<number>): Promise<void> {
  expect(stream.problems).toEqual([]);
  expect(new Set(stream.byId.keys())).toEqual(expected);
  const positions = [...stream.idAt.keys()].sort((a, b) => a - b);
  expect(positions).toEqual(Array.from({ length: expected.size }, (_, i) => i + 1));
  expect(await headOf(userId)).toBe(expected.size);
  expect(stream.through).toBe(expected.size);
}

/** The texts one sender sent to one receiver, in the stream's order. */
function sentInOrder(stream: HeldStream, senderId: number, receiverId: number): string[] {
  return [...stream.byId.values()]
    .filter((m) => m.senderId === senderId && m.receiverId === receiverId)
    .sort((a, b) => a.seq! - b.seq!)
    .map((m) => m.text);
}

describe('resume by position', () => {
  it('while fans, support, a mass message and the creator’s other tab write concurrently and the creator’s socket closes and opens again, the creator gets every message once, positions 1…n in order', async () => {
    const creator = await createAccount(app, { seller: true });
    const other = await createAccount(app, { seller: true });
    const support = await createAccount(app, { level: 100 });
    const fans = await Promise.all([createAccount(app), createAccount(app), createAccount(app)]);
    await setMessagePrice(app, creator.id, 16);
    await fundWallets(app, new Map(fans.map((fan) => [fan.id, 100_000])));
    // The creator and the fans follow another creator, whose mass messages reach them all.
    for (const follower of [creator, ...fans]) expect((await call('POST', '/api/users/follow', follower, { id: other.id })).json).toEqual({ statusCode: 1 });

    const perFan = 15;
    const sent: ChatMessage[] = [];
    let stored = 0;
    // Writers never get far ahead of the creator's page: it sees some messages live, some only
    // by resuming, and is cut off and back several times before they are done.
    let allowance = Infinity;
    const gate = () => until(() => stored < allowance, 'the creator’s page');
    const store = (message: ChatMessage) => {
      sent.push(message);
      stored += 1;
    };
    const senders: Promise<void>[] = [];
    // Each fan writes to the creator, one message after the other, over their own socket.
    for (const fan of fans) {
      senders.push(
        (async () => {
          const socket = await connectSocket(server, fan);
          for (let i = 0; i < perFan; i++) {
            await gate();
            store(await say(socket, { receiverId: creator.id, text: `fan ${fan.id} #${i}`, price: 16 }));
          }
        })(),
      );
    }
    // Support writes too, for free.
    senders.push(
      (async () => {
        const socket = await connectSocket(server, support);
        for (let i = 0; i < 6; i++) {
          await gate();
          store(await say(socket, { receiverId: creator.id, text: `support #${i}` }));
        }
      })(),
    );
    // The creator answers from another tab: the stream holds what they send as well.
    senders.push(
      (async () => {
        const socket = await connectSocket(server, creator);
        for (let i = 0; i < 6; i++) {
          await gate();
          store(await say(socket, { receiverId: fans[i % fans.length]!.id, text: `reply #${i}` }));
        }
      })(),
    );
    // Another creator's mass messages reach the creator and the fans.
    const massIds: number[] = [];
    senders.push(
      (async () => {
        const socket = await connectSocket(server, other);
        for (let i = 0; i < 3; i++) {
          await gate();
          const msgId = newMsgId();
          const from = socket.mark;
          socket.send({ type: 'massChatMessage', msgId, recGroup: 'followers', text: `news #${i}` });
          const ack = await socket.next(answers(msgId), from);
          if (ack.type !== 'massChatMessage') throw new Error(`mass message refused: ${JSON.stringify(ack)}`);
          expect(ack.message.recipientsCount).toBe(4);
          massIds.push(ack.message.id);
          stored += 1;
        }
      })(),
    );
    let writing = true;
    const allSent = Promise.all(senders).finally(() => {
      writing = false;
    });

    // The creator's page: open until it has seen a few messages live, then cut off; back once
    // more were stored meanwhile, resuming after the last position it holds.
    const stream = new HeldStream();
    let sessions = 0;
    while (writing) {
      const reader = await Reader.open(creator, stream);
      sessions += 1;
      allowance = stored + 10;
      await reader.until(() => (reader.caughtUp && reader.live >= 5) || !writing, 'live messages');
      reader.close();
      const closedAt = stored;
      allowance = closedAt + 4;
      await until(() => stored >= closedAt + 3 || !writing, 'messages stored while away');
    }
    allowance = Infinity;
    await allSent;
    const last = await Reader.open(creator, stream);
    await last.catchUp();
    last.close();

    // Cut off and back at least twice while the writers wrote, and once more at the end.
    expect(sessions).toBeGreaterThanOrEqual(3);
    // Some of it only ever came by resuming.
    expect(stream.resumedMessages).toBeGreaterThan(0);
    const copies = await app.fanstage.db.select({ id: chatMessages.id, receiverId: chatMessages.receiverId }).from(chatMessages).where(eq(chatMessages.senderId, other.id));
    expect(copies).toHaveLength(3 * 4);
    const copiesTo = (userId: number) => copies.filter((c) => c.receiverId === userId).map((c) => c.id);
    const streamOf = (userId: number) => new Set([...sent.filter((m) => m.senderId === userId || m.receiverId === userId).map((m) => m.id), ...copiesTo(userId)]);
    expect(sent).toHaveLength(fans.length * perFan + 6 + 6);
    await expectWhole(stream, creator.id, streamOf(creator.id));
    expect(stream.byId.size).toBe(fans.length * perFan + 6 + 6 + 3);
    // Each conversation in its sender's order — none of them was ever opened.
    for (const fan of fans) expect(sentInOrder(stream, fan.id, creator.id)).toEqual(Array.from({ length: perFan }, (_, i) => `fan ${fan.id} #${i}`));
    expect(sentInOrder(stream, support.id, creator.id)).toEqual(Array.from({ length: 6 }, (_, i) => `support #${i}`));
    expect(sentInOrder(stream, other.id, creator.id)).toEqual(['news #0', 'news #1', 'news #2']);

    // Every other stream is whole too: each fan's (sent, replies, mass copies), support's, and
    // the mass sender's, whose copies took a block of positions each.
    for (const [i, fan] of fans.entries()) {
      const theirs = await wholeStream(fan);
      expect(streamOf(fan.id).size).toBe(perFan + 2 + 3);
      await expectWhole(theirs, fan.id, streamOf(fan.id));
      expect(sentInOrder(theirs, creator.id, fan.id)).toEqual([`reply #${i}`, `reply #${i + 3}`]);
    }
    await expectWhole(await wholeStream(support), support.id, streamOf(support.id));
    const massSender = await wholeStream(other);
    await expectWhole(massSender, other.id, new Set(copies.map((c) => c.id)));
    // Each mass message's copies sit together in the sender's stream, in the order of the masses.
    const blocks = massIds.map((massId) => [...massSender.byId.values()].filter((m) => m.massId === massId).map((m) => m.seq!));
    expect(blocks.map((b) => [Math.min(...b), Math.max(...b)])).toEqual([
      [1, 4],
      [5, 8],
      [9, 12],
    ]);
  }, 120_000);

  it('a page that holds nothing starts from the position in hello; the mass sender’s live ack names the positions its copies took', async () => {
    const creator = await createAccount(app, { seller: true });
    const fans = await Promise.all([createAccount(app), createAccount(app)]);
    for (const fan of fans) await call('POST', '/api/users/follow', fan, { id: creator.id });
    const tab = await connectSocket(server, creator);
    await say(tab, { receiverId: fans[0]!.id, text: 'before' });
    const page = await connectSocket(server, creator);
    expect(page.received[0]).toMatchObject({ type: 'hello', chatSeq: 1 });
    const msgId = newMsgId();
    const from = page.mark;
    tab.send({ type: 'massChatMessage', msgId, recGroup: 'followers', text: 'hi all' });
    const ack = await page.nextOf('massChatMessage', from);
    expect(ack).toMatchObject({ seqFrom: 2, seqTo: 3 });
    // A resend of the mass message names the same block.
    const again = page.mark;
    tab.send({ type: 'massChatMessage', msgId, recGroup: 'followers', text: 'hi all' });
    expect(await page.nextOf('massChatMessage', again)).toMatchObject({ seqFrom: 2, seqTo: 3 });
    expect(await headOf(creator.id)).toBe(3);
  });
});

describe.skipIf(!onPostgres)('positions under concurrent transactions (PostgreSQL)', () => {
  /** Backends of the test's database waiting for a lock, other than `own`. */
  async function waiting(client: pg.Client): Promise<number[]> {
    const { rows } = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid() order by backend_start`,
    );
    return rows.map((row) => row.pid);
  }

  async function waitingCount(client: pg.Client, count: number): Promise<number[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const pids = await waiting(client);
      if (pids.length >= count) return pids;
      if (Date.now() > deadline) throw new Error(`expected ${count} waiting transactions, found ${pids.length}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * A second connection of the test's own, holding a fan's chat stream head as a long
   * transaction would. A message takes its positions last, locking the heads lowest user id
   * first: the fan's message to a creator made before him takes the creator's position, then
   * waits for his own.
   */
  async function holdStreamHead(userId: number): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    await client.query('insert into chat_stream_heads (user_id, seq) values ($1, 0) on conflict do nothing', [userId]);
    await client.query('begin');
    await client.query('select user_id from chat_stream_heads where user_id = $1 for update', [userId]);
    return client;
  }

  async function people() {
    const creator = await createAccount(app, { seller: true });
    const first = await createAccount(app);
    const second = await createAccount(app);
    // holdStreamHead relies on it: the creator's head is locked before the fans'.
    expect(creator.id).toBeLessThan(first.id);
    await setMessagePrice(app, creator.id, 16);
    await fundWallets(app, new Map([first, second].map((fan) => [fan.id, 10_000])));
    // A message with a gift is written alone, in a transaction of its own (texts that arrive
    // together share one: chat/batch.ts), which is the path these tests hold open.
    const [gift] = await app.fanstage.db.select({ id: gifts.id }).from(gifts).orderBy(gifts.gValue).limit(1);
    return { creator, first, second, giftId: gift!.id, sockets: await Promise.all([first, second, creator].map((a) => connectSocket(server, a))) };
  }

  it('a message stored while an earlier one still holds its position waits for it, and comes after it', async () => {
    const { creator, first, giftId, sockets } = await people();
    const [sf, ss, sc] = sockets as [SocketClient, SocketClient, SocketClient];
    const holder = await holdStreamHead(first.id);
    const observer = new pg.Client({ connectionString: server.databaseUrl });
    await observer.connect();
    try {
      // The first fan's message takes the creator's position, then waits for its own.
      const one = newMsgId();
      sf.send({ type: 'chatMessage', msgId: one, receiverId: creator.id, text: 'first', price: 16, giftId });
      await waitingCount(observer, 1);
      // The second fan's message is stored meanwhile, and waits for the creator's next position.
      const two = newMsgId();
      ss.send({ type: 'chatMessage', msgId: two, receiverId: creator.id, text: 'second', price: 16, giftId });
      await waitingCount(observer, 2);
      // Nothing is past the open transaction: a resume now finds nothing to skip over later.
      const from = sc.mark;
      sc.send({ type: 'resume', after: 0 });
      expect(await sc.nextOf('resumed', from)).toEqual({ type: 'resumed', last: 0, more: false });
      expect(sc.all('chatMessage', from)).toHaveLength(0);

      await holder.query('commit');
      const echoOne = await sf.next(answers(one));
      const echoTwo = await ss.next(answers(two));
      expect(echoOne.type).toBe('chatMessage');
      expect(echoTwo.type).toBe('chatMessage');
      // Live, each reaches the creator with its position (in whatever order the two are published).
      expect((await sc.nextOf('chatMessage', from, (m) => m.message.text === 'first')).message.seq).toBe(1);
      expect((await sc.nextOf('chatMessage', from, (m) => m.message.text === 'second')).message.seq).toBe(2);
      const resumedFrom = sc.mark;
      sc.send({ type: 'resume', after: 0 });
      await sc.nextOf('resumed', resumedFrom);
      const got = sc.all('chatMessage', resumedFrom).map((m) => [m.message.text, m.message.seq]);
      expect(got).toEqual([
        ['first', 1],
        ['second', 2],
      ]);
    } finally {
      await holder.end().catch(() => undefined);
      await observer.end();
    }
  });

  it('a position whose transaction rolls back is handed to the next message: no gap', async () => {
    const { creator, first, giftId, sockets } = await people();
    const [sf, ss, sc] = sockets as [SocketClient, SocketClient, SocketClient];
    const holder = await holdStreamHead(first.id);
    const observer = new pg.Client({ connectionString: server.databaseUrl });
    await observer.connect();
    try {
      const one = newMsgId();
      sf.send({ type: 'chatMessage', msgId: one, receiverId: creator.id, text: 'first', price: 16, giftId });
      const [firstPid] = await waitingCount(observer, 1);
      const two = newMsgId();
      ss.send({ type: 'chatMessage', msgId: two, receiverId: creator.id, text: 'second', price: 16, giftId });
      await waitingCount(observer, 2);
      // The first one's statement is cancelled: its transaction rolls back with its position.
      await observer.query('select pg_cancel_backend($1)', [firstPid]);
      const echoTwo = await ss.next(answers(two));
      expect(echoTwo).toMatchObject({ type: 'chatMessage', message: { text: 'second', seq: 1 } });
      const refused = await sf.next(answers(one));
      expect(refused).toMatchObject({ type: 'error', msgId: one });
      const toCreator = await sc.nextOf('chatMessage', 0, (m) => m.message.text === 'second');
      expect(toCreator.message.seq).toBe(1);
      await holder.query('commit');
      // Sent again, it is stored after it.
      const resent = await say(sf, { msgId: one, receiverId: creator.id, text: 'first', price: 16, giftId });
      expect(resent.seq).toBe(1);
      const again = await sc.nextOf('chatMessage', 0, (m) => m.message.text === 'first');
      expect(again.message.seq).toBe(2);
      const stored = await app.fanstage.db.select({ id: chatMessages.id }).from(chatMessages).where(and(eq(chatMessages.receiverId, creator.id)));
      expect(stored).toHaveLength(2);
      expect(await headOf(creator.id)).toBe(2);
    } finally {
      await holder.end().catch(() => undefined);
      await observer.end();
    }
  });
});

/**
 * A TCP proxy in front of PostgreSQL that the test can cut, as a network does: every open
 * connection is reset and new ones are refused, until it is restored on the same port.
 */
async function databaseLink(target: URL) {
  const open = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => relay.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  await listen(0);
  const { port } = relay.address() as net.AddressInfo;
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    async cut(): Promise<void> {
      const closed = new Promise<void>((resolve) => relay.close(() => resolve()));
      for (const socket of open) socket.resetAndDestroy();
      await closed;
    },
    restore: () => listen(port),
    async close(): Promise<void> {
      for (const socket of open) socket.destroy();
      if (relay.listening) await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

describe.skipIf(!onPostgres)('while the database cannot be reached (PostgreSQL behind a link the test cuts)', () => {
  it('a new socket is closed with 1013 service-unavailable, a chat message is refused with service-unavailable and its msgId; both work once it is back', async () => {
    const link = await databaseLink(new URL(server.databaseUrl));
    // A second node on the same database, reaching it through the link.
    const node = await startTestServer({ databaseUrl: link.url, seed: false });
    try {
      const fan = await createAccount(node.app);
      const creator = await createAccount(node.app, { seller: true });
      const sf = await connectSocket(node, fan);
      await link.cut();

      // The account cannot be read: not "unauthorized" (a refresh would fail the same way and
      // end the session), but "try again later".
      const refused = new WebSocket(`${node.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(creator.accessToken), { origin: node.baseUrl });
      const [code, reason] = await new Promise<[number, string]>((resolve) => refused.on('close', (c, r) => resolve([c, String(r)])));
      expect([code, reason]).toEqual([1013, 'service-unavailable']);

      const msgId = newMsgId();
      const from = sf.mark;
      sf.send({ type: 'chatMessage', msgId, receiverId: creator.id, text: 'are you there?' });
      expect(await sf.next(answers(msgId), from)).toEqual({ type: 'error', statusText: 'service-unavailable', ref: 'chatMessage', msgId });
      // Not only chat: any client message that needs the database says so.
      sf.send({ type: 'notificationsRead' });
      expect(await sf.nextOf('error', from, (m) => m.ref === 'notificationsRead')).toEqual({ type: 'error', statusText: 'service-unavailable', ref: 'notificationsRead' });

      await link.restore();
      const sc = await connectSocket(node, creator);
      expect(sc.received[0]).toMatchObject({ type: 'hello', userId: creator.id, chatSeq: 0 });
      // Sent again with its msgId once the database is back, it is stored once.
      const stored = await say(sf, { msgId, receiverId: creator.id, text: 'are you there?' });
      expect(stored.seq).toBe(1);
      expect((await sc.nextOf('chatMessage', 0, (m) => m.message.msgId === msgId)).message.seq).toBe(1);
    } finally {
      await node.close();
      await link.close();
    }
  }, 60_000);
});

import { randomBytes } from 'node:crypto';
import { socketProtocols } from '../../lib/contract/realtime';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ChatMessage } from '../../lib/contract/chat';
import type { ServerMessage } from '../../lib/contract/realtime';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { openDatabase } from '../../server/src/db';
import { chatMessages, gifts, ledgerAccounts, ledgerEntries, ledgerTransfers, media, mediaUnlocks, postMedia, posts, users } from '../../server/src/db/schema';
import { account, balanceOf } from '../../server/src/ledger';
import { createAccount, type TestAccount } from '../support/accounts';
import { eq, sql } from '../support/db';
import { fundWallets } from '../support/money';
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

/**
 * The done-when of "survive the database going away" for money: a server process of the
 * test's own — `server/src/main.ts`, as an operator runs it — is SIGKILLed while 1,000 money
 * operations (gifts on posts and in chat, tips, unlocks) are under way, with a few dozen in
 * flight. It is restarted on the same data; every operation left without an answer is sent
 * again with its key, as the SDK does. Then the database must show each operation answered OK
 * exactly once, every refused one as nothing, every balance as its operations say, and
 * `npm run reconcile` must find the ledger clean. On PGlite files (the default) and, with
 * DATABASE_URL, on a PostgreSQL database of the test's own.
 */

const OPERATIONS = 1000;
const IN_FLIGHT = 32;
/** The kill comes once about a third of the operations were answered. */
const KILL_AFTER = Math.round(OPERATIONS / 3);
const FANS = 24;
/** Fans funded with half of what their operations cost: some of theirs are refused noMoney. */
const SHORT_FANS = 4;
const CREATORS = 6;
const LOCKED_MEDIA_PER_CREATOR = 12;
const GIFT_POSTS_PER_CREATOR = 2;
/** A post-media price step (stored cents); the fan pays it with the salt. */
const PRICE = 48;
/** Answered-OK operations sent again after the restart: each must answer the same, charging nothing. */
const RESENT_SAMPLE = 60;

/** A small deterministic generator, so a failing run can be replayed with the same plan. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Kind = 'post-gift' | 'tip' | 'chat-gift' | 'unlock';

interface Operation {
  n: number;
  kind: Kind;
  fan: TestAccount;
  creatorId: number;
  /** The transfer's idempotency key in the ledger, as the server names it. */
  ledgerKey: string;
  fanAmount: number;
  earnerCents: number;
  /** An unlock at a price the fan was never shown: refused price-changed, whenever it is sent. */
  wrongPrice?: boolean;
  /** HTTP operations: the route and the body, resent byte for byte. */
  url?: string;
  body?: Record<string, unknown>;
  /** Chat gifts: the websocket message (its msgId is the key). */
  message?: { type: 'chatMessage'; msgId: string; receiverId: number; text: string; giftId: number };
  postId?: number;
  mediaId?: number;
}

type Outcome =
  | { state: 'ok'; answer: unknown }
  | { state: 'refused'; status: number; key: string }
  | { state: 'unanswered'; reason: string };

interface Envelope {
  statusCode: number;
  statusText?: string;
  body?: unknown;
}

/** A fan's websocket on one server process; each chat gift waits for its echo, refusal or the socket's end. */
class FanSocket {
  private readonly pending = new Map<string, (outcome: Outcome) => void>();
  private open = true;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong', ts: message.ts }));
      else if (message.type === 'chatMessage') this.settle(message.message.msgId, { state: 'ok', answer: message.message });
      else if (message.type === 'eventMessage') {
        const msgId = (message.data as { msgId?: unknown } | undefined)?.msgId;
        // noCredit is the chat's noMoney; notAcceptedPrice or emailNotVerified would be bugs of the plan.
        if (typeof msgId === 'string') this.settle(msgId, { state: 'refused', status: 0, key: message.event === 'noCredit' ? 'noMoney' : message.event });
      } else if (message.type === 'error' && message.msgId !== undefined) {
        // service-unavailable is the socket's 503 (the database could not be had in time, as under
        // a restart's load): the draft is not delivered and the client sends it again.
        const outcome: Outcome = message.statusText === 'service-unavailable' ? { state: 'unanswered', reason: 'service-unavailable' } : { state: 'refused', status: 0, key: message.statusText };
        this.settle(message.msgId, outcome);
      }
    });
    socket.on('close', () => {
      this.open = false;
      for (const [msgId] of this.pending) this.settle(msgId, { state: 'unanswered', reason: 'the socket closed' });
    });
    socket.on('error', () => {});
  }

  static async connect(server: ServerProcess, fan: TestAccount): Promise<FanSocket> {
    const socket = new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(fan.accessToken), { origin: server.baseUrl });
    await new Promise<void>((resolve, reject) => {
      socket.on('message', function hello(data) {
        if ((JSON.parse(String(data)) as ServerMessage).type !== 'hello') return;
        socket.off('message', hello);
        resolve();
      });
      socket.once('error', reject);
      socket.once('close', (code) => reject(new Error(`the socket closed with ${code} before hello`)));
    });
    return new FanSocket(socket);
  }

  private settle(msgId: string, outcome: Outcome): void {
    const resolve = this.pending.get(msgId);
    if (resolve === undefined) return;
    this.pending.delete(msgId);
    resolve(outcome);
  }

  send(message: NonNullable<Operation['message']>): Promise<Outcome> {
    if (!this.open) return Promise.resolve({ state: 'unanswered', reason: 'the socket was closed' });
    return new Promise((resolve) => {
      this.pending.set(message.msgId, resolve);
      this.socket.send(JSON.stringify(message), (error) => {
        if (error) this.settle(message.msgId, { state: 'unanswered', reason: error.message });
      });
    });
  }

  close(): void {
    this.socket.terminate();
  }
}

/** One server process and the fans' sockets on it. */
interface Node {
  server: ServerProcess;
  sockets: Map<number, FanSocket>;
}

async function connectFans(server: ServerProcess, fans: TestAccount[]): Promise<Node> {
  const sockets = new Map<number, FanSocket>();
  for (const fan of fans) sockets.set(fan.id, await FanSocket.connect(server, fan));
  return { server, sockets };
}

async function perform(node: Node, op: Operation): Promise<Outcome> {
  if (op.message !== undefined) return node.sockets.get(op.fan.id)!.send(op.message);
  let response: Response;
  try {
    response = await fetch(`${node.server.baseUrl}${op.url}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${op.fan.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(op.body),
    });
  } catch (error) {
    return { state: 'unanswered', reason: error instanceof Error ? String(error.cause ?? error.message) : String(error) };
  }
  let json: Envelope;
  try {
    json = (await response.json()) as Envelope;
  } catch (error) {
    return { state: 'unanswered', reason: `the answer broke off: ${String(error)}` };
  }
  if (response.status === 200 && json.statusCode === 2) return { state: 'ok', answer: json.body };
  // The database was away: nothing was done, and the docs say to send it again with its key.
  if (response.status === 503) return { state: 'unanswered', reason: `503 ${json.statusText}` };
  return { state: 'refused', status: response.status, key: json.statusText ?? `status ${json.statusCode}` };
}

/**
 * Runs operations with at most `IN_FLIGHT` of them waiting for an answer. `stop` is asked after
 * each answer; once it says so no further operation starts, and those are left out of the result.
 */
async function runAll(ops: Operation[], send: (op: Operation) => Promise<Outcome>, stop: (outcomes: Map<Operation, Outcome>) => boolean = () => false): Promise<Map<Operation, Outcome>> {
  const outcomes = new Map<Operation, Outcome>();
  const queue = [...ops];
  let stopped = false;
  const worker = async () => {
    for (let op = queue.shift(); op !== undefined && !stopped; op = queue.shift()) {
      outcomes.set(op, await send(op));
      if (!stopped && stop(outcomes)) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return outcomes;
}

/** `users.id in (…)` of these accounts. */
const idIn = (accounts: TestAccount[]) => sql`${users.id} in (${sql.join(accounts.map((a) => sql`${a.id}`), sql`, `)})`;

const answered = (outcome: Outcome | undefined) => outcome !== undefined && outcome.state !== 'unanswered';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const driver = process.env.DATABASE_URL?.trim() && process.env.DATABASE_URL.trim() !== 'memory://' ? 'PostgreSQL' : 'PGlite files';

describe(`a server process killed during ${OPERATIONS} money operations (${driver})`, () => {
  it('is restarted; unanswered operations resent with their keys take effect once; refused ones move nothing; the ledger reconciles', { timeout: 180_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-crash-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const database: ProcessDatabase = await freshProcessDatabase();
    cleanups.push(() => database.drop());
    const settings: ProcessSettings = { dataDir, databaseUrl: database.databaseUrl, jwtSecret: randomBytes(32).toString('base64url') };
    const random = generator(16);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

    // ---- Arranged with the server's own code, before any process runs on the database.
    const arranging = await openArrangingApp(settings);
    let fans: TestAccount[];
    let creators: TestAccount[];
    const ops: Operation[] = [];
    const funded = new Map<number, number>();
    try {
      const { db } = arranging.fanstage;
      const salt = arranging.fanstage.config.priceSalt;
      creators = await Promise.all(Array.from({ length: CREATORS }, () => createAccount(arranging, { seller: true })));
      fans = await Promise.all(Array.from({ length: FANS }, () => createAccount(arranging)));
      await db.update(users).set({ nsfwAgreement: 1 }).where(idIn(fans));
      await db.update(users).set({ messagePrice: 0 }).where(idIn(creators));
      const catalogue = (await db.select().from(gifts).where(eq(gifts.active, true)).orderBy(gifts.gValue)).slice(0, 3);
      expect(catalogue.length).toBeGreaterThan(0);

      // A few statements in all: on PGlite files every commit is written through to disk.
      const publishedAt = new Date(Date.now() - 60_000);
      const perCreator = GIFT_POSTS_PER_CREATOR + LOCKED_MEDIA_PER_CREATOR;
      const postRows = creators.flatMap((creator) =>
        Array.from({ length: perCreator }, (_, i) => ({ userId: creator.id, text: i < GIFT_POSTS_PER_CREATOR ? 'gift me' : 'locked', publishedAt })),
      );
      const postIds = (await db.insert(posts).values(postRows).returning({ id: posts.id, userId: posts.userId, text: posts.text })).sort((a, b) => a.id - b.id);
      const giftPosts = postIds.filter((p) => p.text === 'gift me').map((p) => ({ postId: p.id, creatorId: p.userId }));
      const lockedPosts = postIds.filter((p) => p.text === 'locked');
      const mediaIds = (
        await db
          .insert(media)
          .values(lockedPosts.map((p) => ({ hash: randomBytes(16).toString('hex'), ownerId: p.userId, kind: 'post', format: 'webp', width: 800, height: 600, status: 3, price: PRICE })))
          .returning({ id: media.id })
      ).map((r) => r.id);
      await db.insert(postMedia).values(lockedPosts.map((p, i) => ({ postId: p.id, mediaId: mediaIds[i]!, position: 0 })));
      const lockedMedia = lockedPosts.map((p, i) => ({ mediaId: mediaIds[i]!, creatorId: p.userId }));

      // Every unlock is of its own (fan, media) pair: a second unlock of a pair is free by design.
      const pairs = fans.flatMap((fan) => lockedMedia.map((m) => ({ fan, ...m })));
      for (let i = pairs.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [pairs[i], pairs[j]] = [pairs[j]!, pairs[i]!];
      }
      const unlockCost = fanPriceCents(PRICE, salt);
      for (let n = 0; n < OPERATIONS; n++) {
        const roll = random();
        const fan = pick(fans);
        const gift = pick(catalogue);
        const clientKey = `crash-${n}-${randomBytes(6).toString('hex')}`;
        if (roll < 0.3) {
          const target = pick(giftPosts);
          ops.push({
            n,
            kind: 'post-gift',
            fan,
            creatorId: target.creatorId,
            ledgerKey: `gift:${fan.id}:${clientKey}`,
            fanAmount: gift.gValue,
            earnerCents: gift.cValue,
            url: '/api/posts/gift',
            body: { postId: target.postId, giftId: gift.id, idempotencyKey: clientKey },
            postId: target.postId,
          });
        } else if (roll < 0.5) {
          const creator = pick(creators);
          ops.push({
            n,
            kind: 'tip',
            fan,
            creatorId: creator.id,
            ledgerKey: `gift:${fan.id}:${clientKey}`,
            fanAmount: gift.gValue,
            earnerCents: gift.cValue,
            url: '/api/users/tip',
            body: { userId: creator.id, giftId: gift.id, idempotencyKey: clientKey },
          });
        } else if (roll < 0.72) {
          const creator = pick(creators);
          ops.push({
            n,
            kind: 'chat-gift',
            fan,
            creatorId: creator.id,
            ledgerKey: `chat-gift:${fan.id}:${clientKey}`,
            fanAmount: gift.gValue,
            earnerCents: gift.cValue,
            message: { type: 'chatMessage', msgId: clientKey, receiverId: creator.id, text: 'a gift for you', giftId: gift.id },
          });
        } else {
          const pair = pairs.pop()!;
          const wrongPrice = random() < 0.05;
          ops.push({
            n,
            kind: 'unlock',
            fan: pair.fan,
            creatorId: pair.creatorId,
            ledgerKey: `unlock:${pair.fan.id}:${pair.mediaId}`,
            fanAmount: unlockCost,
            earnerCents: Math.min(PRICE, unlockCost),
            wrongPrice,
            url: '/api/media/unlock',
            body: { id: pair.mediaId, price: wrongPrice ? PRICE + 1 : PRICE },
            mediaId: pair.mediaId,
          });
        }
      }

      // Most fans can pay for everything they will try; a few for half of it.
      for (const [index, fan] of fans.entries()) {
        const planned = ops.filter((op) => op.fan.id === fan.id && !op.wrongPrice).reduce((sum, op) => sum + op.fanAmount, 0);
        funded.set(fan.id, index < SHORT_FANS ? Math.floor(planned / 2) : planned);
      }
      await fundWallets(arranging, funded);
    } finally {
      await arranging.close();
    }

    // ---- The load, and the kill.
    let node = await connectFans(await startServerProcess(settings), fans);
    const processes: ServerProcess[] = [node.server];
    cleanups.push(async () => {
      for (const server of processes) await stopServerProcess(server, 'SIGKILL');
    });
    const firstRun = node;
    let killed = false;
    const first = await runAll(
      ops,
      (op) => perform(firstRun, op),
      (outcomes) => {
        if (killed || [...outcomes.values()].filter(answered).length < KILL_AFTER) return false;
        killed = true;
        firstRun.server.child.kill('SIGKILL');
        return true;
      },
    );
    expect(killed).toBe(true);
    const death = await firstRun.server.exited;
    expect(death.signal).toBe('SIGKILL');
    for (const socket of firstRun.sockets.values()) socket.close();

    // Operations cut off by the kill: sent, but no answer came. The kill must have hit some.
    const cutOff = ops.filter((op) => first.get(op)?.state === 'unanswered');
    expect(cutOff.length).toBeGreaterThan(0);
    const answeredBeforeKill = ops.filter((op) => answered(first.get(op)));
    expect(answeredBeforeKill.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(answeredBeforeKill.length).toBeLessThan(OPERATIONS);

    // ---- The restart on the same data; what got no answer (or was never sent) goes again, same key and body.
    node = await connectFans(await startServerProcess(settings, { port: firstRun.server.port }), fans);
    processes.push(node.server);
    const secondRun = node;
    const final = new Map<Operation, Outcome>(ops.filter((op) => answered(first.get(op))).map((op) => [op, first.get(op)!]));
    let toSend = ops.filter((op) => !answered(first.get(op)));
    // A client sends again what a broken connection left unanswered; a restarted server answers at the latest the second time.
    for (let round = 0; round < 3 && toSend.length > 0; round++) {
      const again = await runAll(toSend, (op) => perform(secondRun, op));
      for (const [op, outcome] of again) if (answered(outcome)) final.set(op, outcome);
      toSend = toSend.filter((op) => !answered(again.get(op)));
    }
    expect(toSend.map((op) => ({ n: op.n, kind: op.kind, outcome: first.get(op) })), 'operations still unanswered after the restart').toEqual([]);
    expect(final.size).toBe(OPERATIONS);

    // Every refusal is one the plan foresees: an unlock at a wrong price, or a wallet that ran dry.
    const okOps = ops.filter((op) => final.get(op)!.state === 'ok');
    const refusedOps = ops.filter((op) => final.get(op)!.state === 'refused');
    for (const op of ops) {
      const outcome = final.get(op)!;
      if (op.wrongPrice) expect(outcome, `operation ${op.n}`).toMatchObject({ state: 'refused', status: 409, key: 'price-changed' });
      else if (outcome.state === 'refused') {
        expect(outcome.key, `operation ${op.n} (${op.kind})`).toBe('noMoney');
        expect(fans.indexOf(op.fan), `operation ${op.n}: a fully funded fan was refused`).toBeLessThan(SHORT_FANS);
      }
    }
    expect(refusedOps.some((op) => !op.wrongPrice)).toBe(true);

    // ---- A sample of operations answered OK before the kill, sent again: the same answer, nothing charged.
    const balances = async () =>
      Promise.all(
        fans.map(async (fan) => {
          const response = await fetch(`${secondRun.server.baseUrl}/api/payments/balance`, { headers: { authorization: `Bearer ${fan.accessToken}` } });
          return ((await response.json()) as { body: { gBalance: number } }).body.gBalance;
        }),
      );
    const before = await balances();
    const sample = answeredBeforeKill.filter((op) => first.get(op)!.state === 'ok').filter((_, i, all) => i % Math.max(1, Math.floor(all.length / RESENT_SAMPLE)) === 0);
    expect(sample.length).toBeGreaterThanOrEqual(RESENT_SAMPLE / 2);
    const resent = await runAll(sample, (op) => perform(secondRun, op));
    for (const op of sample) {
      const was = first.get(op) as Extract<Outcome, { state: 'ok' }>;
      const now = resent.get(op)!;
      expect(now.state, `resent operation ${op.n} (${op.kind})`).toBe('ok');
      const answer = (now as Extract<Outcome, { state: 'ok' }>).answer;
      if (op.kind === 'chat-gift') expect((answer as ChatMessage).id).toBe((was.answer as ChatMessage).id);
      if (op.kind === 'unlock') expect((answer as { mediaId: number }).mediaId).toBe(op.mediaId);
    }
    expect(await balances()).toEqual(before);

    for (const socket of secondRun.sockets.values()) socket.close();
    const stopped = await stopServerProcess(secondRun.server);
    expect(stopped, secondRun.server.output()).toEqual({ code: 0, signal: null });

    // ---- What the database holds.
    const handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir });
    try {
      const { db } = handle;
      const spent = await db
        .select({ key: ledgerTransfers.idempotencyKey, userId: ledgerTransfers.userId, counterpartyId: ledgerTransfers.counterpartyId, kind: ledgerTransfers.kind })
        .from(ledgerTransfers)
        .where(sql`${ledgerTransfers.kind} <> 'promotion'`);
      // Exactly once: each operation answered OK has its transfer, and no other money moved.
      expect(spent.map((t) => t.key).sort()).toEqual(okOps.map((op) => op.ledgerKey).sort());
      const byKey = new Map(spent.map((t) => [t.key, t]));
      for (const op of okOps) expect(byKey.get(op.ledgerKey), `operation ${op.n}`).toMatchObject({ userId: op.fan.id, counterpartyId: op.creatorId });

      // Each transfer moved what its operation costs, from the fan to the creator.
      const legs = await db
        .select({ key: ledgerTransfers.idempotencyKey, kind: ledgerAccounts.kind, userId: ledgerAccounts.userId, amount: ledgerEntries.amount })
        .from(ledgerEntries)
        .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
        .where(sql`${ledgerTransfers.kind} <> 'promotion'`);
      const legsOf = new Map<string, typeof legs>();
      for (const leg of legs) legsOf.set(leg.key, [...(legsOf.get(leg.key) ?? []), leg]);
      for (const op of okOps) {
        const mine = legsOf.get(op.ledgerKey) ?? [];
        expect(mine.filter((l) => l.kind === 'wallet').map((l) => [l.userId, l.amount]), `operation ${op.n}`).toEqual([[op.fan.id, -op.fanAmount]]);
        expect(mine.filter((l) => l.kind === 'earnings').map((l) => [l.userId, l.amount]), `operation ${op.n}`).toEqual([[op.creatorId, op.earnerCents]]);
      }

      for (const fan of fans) {
        const charged = okOps.filter((op) => op.fan.id === fan.id).reduce((sum, op) => sum + op.fanAmount, 0);
        expect(await balanceOf(db, account.wallet(fan.id)), `the wallet of fan ${fan.id}`).toBe(funded.get(fan.id)! - charged);
      }
      for (const creator of creators) {
        const earned = okOps.filter((op) => op.creatorId === creator.id).reduce((sum, op) => sum + op.earnerCents, 0);
        expect(await balanceOf(db, account.earnings(creator.id)), `the earnings of creator ${creator.id}`).toBe(earned);
      }

      // What the money paid for is there once, and nothing for refused operations.
      const unlocks = await db.select({ userId: mediaUnlocks.userId, mediaId: mediaUnlocks.mediaId }).from(mediaUnlocks);
      expect(unlocks.map((u) => `${u.userId}:${u.mediaId}`).sort()).toEqual(okOps.filter((op) => op.kind === 'unlock').map((op) => `${op.fan.id}:${op.mediaId}`).sort());
      const messages = await db.select({ msgId: chatMessages.msgId, senderId: chatMessages.senderId }).from(chatMessages);
      expect(messages.map((m) => `${m.senderId}:${m.msgId}`).sort()).toEqual(
        okOps.filter((op) => op.kind === 'chat-gift').map((op) => `${op.fan.id}:${op.message!.msgId}`).sort(),
      );
      const counts = await db.select({ id: posts.id, giftsCount: posts.giftsCount }).from(posts).where(sql`${posts.text} = 'gift me'`);
      for (const post of counts) expect(post.giftsCount, `gifts on post ${post.id}`).toBe(okOps.filter((op) => op.postId === post.id).length);
    } finally {
      await handle.close();
    }

    // ---- The operator's check, as `npm run reconcile` runs it on this database.
    const reconciled = await runReconcileScript(settings);
    expect(reconciled.stderr).toBe('');
    expect(reconciled.stdout).toContain('The ledger reconciles.');
    expect(reconciled.code).toBe(0);
  });
});

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { CallStatus } from '../../lib/contract/calls';
import { media, postMedia, posts, users } from '../../server/src/db/schema';
import { SANDBOX_SIGNATURE_HEADER, sandboxKeys } from '../../server/src/features/payments/processors/sandbox';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { eq } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallets, walletOf } from '../support/money';
import { hasPgBouncer, startPgBouncer, type PgBouncer } from '../support/pgbouncer';
import { closeSockets, connectSocket } from '../support/sockets';
import { CALL_PRICE, isCall, liveCall, sendCall } from '../support/calls';
import { say, setMessagePrice } from './support-chat';

/**
 * The server behind PgBouncer in transaction pooling (docs/server.md, "A pooled PostgreSQL"):
 * two nodes start together through the pooler and migrate once, then the main journeys run
 * over HTTP and websockets against both — sign-in, timeline, profile, top-up, tip, unlock, a
 * paid message from one node to the other (Redis between them), a paid call minute, and 300
 * money operations at once, each counted once and the ledger reconciled. The pooler's
 * connections are fewer than the nodes' pools, so consecutive statements of one node run on
 * different server connections, as they do in production.
 */
const adminUrl = process.env.DATABASE_URL?.trim() ?? '';
const redisUrl = process.env.REDIS_URL?.trim();
const runnable = /^postgres(ql)?:\/\//.test(adminUrl) && redisUrl !== undefined && redisUrl !== '' && hasPgBouncer();

const journal = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../server/src/db/migrations/meta/_journal.json'), 'utf8')) as { entries: unknown[] };

describe.skipIf(!runnable)('behind PgBouncer in transaction pooling (PostgreSQL, Redis and Debian’s pgbouncer)', () => {
  let bouncer: PgBouncer;
  let nodes: TestServer[] = [];
  let databaseName = '';
  let databaseUrl = '';

  beforeAll(async () => {
    databaseName = `fanstage_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    bouncer = await startPgBouncer(adminUrl, { poolSize: 4 });
    const jwtSecret = randomBytes(32).toString('base64url');
    // Two nodes started at once on an empty database, one after the other: the first migrates
    // through the pooler, the second on a direct connection (DATABASE_DIRECT_URL), as managed
    // databases advise; both seed the demo through the pooler.
    nodes = await Promise.all(
      ([{}, { DATABASE_DIRECT_URL: databaseUrl }] as Record<string, string>[]).map((direct) =>
        startTestServer({ databaseUrl: bouncer.pooled(databaseUrl), jwtSecret, redisUrl, env: { DATABASE_POOLING: 'transaction', ...direct } }),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    closeSockets();
    for (const node of nodes) await node.close();
    await bouncer?.stop();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  });

  it('two nodes starting together migrate once', async () => {
    const direct = new pg.Client({ connectionString: databaseUrl });
    await direct.connect();
    try {
      const applied = await direct.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations');
      expect(applied.rows).toHaveLength(journal.entries.length);
      expect(new Set(applied.rows.map((row) => row.hash)).size).toBe(journal.entries.length);
      // No session lock is left behind on a server connection the pooler keeps.
      const locks = await direct.query(`select 1 from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = $1)`, [databaseName]);
      expect(locks.rows).toEqual([]);
    } finally {
      await direct.end();
    }
    for (const node of nodes) expect((await fetch(`${node.baseUrl}/papi/health/ready`)).status).toBe(200);
  });

  it('signs in, reads, tops up, tips, unlocks, chats across the nodes and bills a call minute', { timeout: 120_000 }, async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const { app } = a;
    const { db } = app.fanstage;
    const salt = app.fanstage.config.priceSalt;
    const creator = await createAccount(app, { seller: true });
    const password = 'pooled-pass-word';
    const registered = await createAccount(app, { password });

    // Sign-in on one node; its token works on the other.
    const login = await fetch(`${b.baseUrl}/papi/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: registered.email, password, tokenInBody: true }) });
    expect(login.status).toBe(200);
    const signedIn = ((await login.json()) as { body: { accessToken: string } }).body;
    const fan: TestAccount = { ...registered, accessToken: signedIn.accessToken };
    const api = async (node: TestServer, method: string, url: string, who: TestAccount | undefined, body?: unknown) => {
      const response = await fetch(`${node.baseUrl}${url}`, {
        method,
        headers: { ...(who ? { authorization: `Bearer ${who.accessToken}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: (await response.json()) as { statusCode: number; statusText?: string; body?: unknown } };
    };

    // Reads, on both nodes.
    expect((await api(a, 'POST', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
    const posted = await api(b, 'POST', '/api/posts', creator, { text: 'through the pooler' });
    expect(posted.json.statusCode).toBe(2);
    const postId = (posted.json.body as { id: number }).id;
    for (const node of nodes) {
      const timeline = await api(node, 'GET', '/api/2/timeline', fan);
      expect(timeline.json.statusCode).toBe(2);
      expect(JSON.stringify(timeline.json.body)).toContain('through the pooler');
      const profile = await api(node, 'GET', `/papi/users/${creator.username}`, fan);
      expect(profile.json).toMatchObject({ statusCode: 2, body: { id: creator.id } });
    }

    // A top-up by card: the order on one node, the processor's signed callback on the other.
    const packages = (await api(a, 'GET', '/api/payments/packages', fan)).json.body as { id: number; gValue: number; cValue: number }[];
    const pkg = packages.find((p) => p.gValue === 2000)!;
    const order = (await api(a, 'POST', '/api/payments/pay-new-card', fan, { packageId: pkg.id, processor: 'sandbox' })).json.body as { id: string };
    const callback = JSON.stringify({ orderId: order.id, status: 'paid', externalId: `sbx_ch_${randomBytes(6).toString('hex')}` });
    const paid = await fetch(`${b.baseUrl}/papi/payments/sandbox/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sandboxKeys(app.fanstage.config.jwtSecret).signBody(callback) },
      body: callback,
    });
    expect(await paid.json()).toEqual({ statusCode: 1 });
    let wallet = pkg.cValue;
    expect(await walletOf(app, fan.id)).toBe(wallet);

    // A tip.
    const gift = ((await api(b, 'GET', '/papi/gifts', fan)).json.body as { id: number; gValue: number; cValue: number }[])[0]!;
    expect((await api(b, 'POST', '/api/users/tip', fan, { userId: creator.id, giftId: gift.id })).json.statusCode).toBe(2);
    wallet -= gift.gValue;
    let earned = gift.cValue;

    // An unlock of a priced picture on the creator's post.
    await db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));
    const [picture] = await db
      .insert(media)
      .values({ hash: randomBytes(16).toString('hex'), ownerId: creator.id, kind: 'post', format: 'webp', width: 800, height: 600, status: 3, price: 48 })
      .returning({ id: media.id });
    await db.insert(postMedia).values({ postId, mediaId: picture!.id, position: 0 });
    const unlocked = await api(a, 'POST', '/api/media/unlock', fan, { id: picture!.id, price: 48 });
    expect(unlocked.json).toMatchObject({ statusCode: 2, body: { mediaId: picture!.id } });
    wallet -= fanPriceCents(48, salt);
    earned += 48;

    // A paid message from a socket on node A to the creator's on node B.
    await setMessagePrice(app, creator.id, 24);
    const fanSocket = await connectSocket(a, fan);
    const creatorSocket = await connectSocket(b, creator);
    const message = await say(fanSocket, { receiverId: creator.id, price: 24, text: 'hello across the pooler' });
    expect(message.price).toBe(24);
    expect((await creatorSocket.nextOf('chatMessage', 0, (m) => m.message.msgId === message.msgId)).message.text).toBe('hello across the pooler');
    wallet -= fanPriceCents(24, salt);
    earned += 24;

    // A call hung up in its first minute pays that minute.
    await api(a, 'PUT', '/api/users/me', creator, { callPrice: CALL_PRICE });
    const call = await liveCall(a, fan, creator);
    sendCall(call.fanSocket, call.callId, 'callStop', creator.id);
    const stopped = await call.starSocket.nextOf('callMessage', 0, isCall(call.callId, 'callStop'));
    expect(stopped.callMessageBody).toMatchObject({ reason: 'hangup', status: CallStatus.ended, minutes: 1, earnings: CALL_PRICE });
    wallet -= fanPriceCents(CALL_PRICE, salt);
    earned += CALL_PRICE;

    expect(await walletOf(app, fan.id)).toBe(wallet);
    expect(await earningsOf(app, creator.id)).toBe(earned);
    await expectLedgerBalanced(app);
  });

  it('takes 300 money operations at once on both nodes, each once, the ledger reconciled', { timeout: 120_000 }, async () => {
    const { app } = nodes[0]!;
    const { db } = app.fanstage;
    const creator = await createAccount(app, { seller: true });
    const fans = await Promise.all(Array.from({ length: 50 }, () => createAccount(app)));
    const [post] = await db.insert(posts).values({ userId: creator.id, text: 'gifts at once', publishedAt: new Date(Date.now() - 60_000) }).returning({ id: posts.id });
    const gift = ((await (await fetch(`${nodes[0]!.baseUrl}/papi/gifts`)).json()) as { body: { id: number; gValue: number; cValue: number }[] }).body[0]!;
    await fundWallets(app, new Map(fans.map((fan) => [fan.id, 100 * gift.gValue])));

    // Each fan: two keyed gifts, each sent twice at once (to both nodes), and two tips.
    const requests = fans.flatMap((fan, i) => {
      const keys = [randomBytes(8).toString('hex'), randomBytes(8).toString('hex')];
      const gifts = keys.flatMap((idempotencyKey) => [0, 1].map((n) => ({ node: nodes[n]!, url: '/api/posts/gift', body: { postId: post!.id, giftId: gift.id, idempotencyKey }, fan })));
      const tips = [0, 1].map((n) => ({ node: nodes[(n + i) % 2]!, url: '/api/users/tip', body: { userId: creator.id, giftId: gift.id }, fan }));
      return [...gifts, ...tips];
    });
    expect(requests).toHaveLength(300);
    const answers = await Promise.all(
      requests.map(async ({ node, url, body, fan }) => {
        const response = await fetch(`${node.baseUrl}${url}`, { method: 'POST', headers: { authorization: `Bearer ${fan.accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: response.status, json: (await response.json()) as { statusCode: number; statusText?: string } };
      }),
    );
    expect(answers.filter((answer) => answer.status !== 200 || answer.json.statusCode !== 2)).toEqual([]);

    // Two gifts and two tips a fan: the repeated keys gave nothing more.
    for (const fan of fans) expect(await walletOf(app, fan.id)).toBe(96 * gift.gValue);
    expect(await earningsOf(app, creator.id)).toBe(fans.length * 4 * gift.cValue);
    await expectLedgerBalanced(app);
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { fundWallet } from '../support/money';
import { rowsOf, sql } from '../../server/src/db';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { createChatService } from '../../server/src/features/chat/service';
import { createSpendingService } from '../../server/src/features/spending/service';
import { setMessagePrice } from './support-chat';

// A durable write's time on the server is mostly its round trips to the database (issue 29,
// docs/performance.md "Durable money writes"): these budgets keep a paid message and a gift
// from growing statements back. Counted on PostgreSQL, where each statement is one round trip
// of node-postgres (BEGIN and COMMIT included).
const runnable = (process.env.DATABASE_URL?.trim() ?? '') !== '' && process.env.DATABASE_URL !== 'memory://';

/**
 * Budgets: what the write path takes today, so that more is noticed. Each includes the one
 * statement that records where the spend happened (ledger/attribution.ts), which could join the
 * transfer's own statement as the spend record does.
 */
const PAID_MESSAGE_STATEMENTS = 10;
const GIFT_STATEMENTS = 11;

/**
 * Writes that arrive together share one transaction (group commit, docs/performance.md): the
 * statements of a batch are counted for the batch, whatever its size — the senders' check
 * before it, BEGIN, the pairs, the spending controls, the accounts, the messages with their
 * positions, the money, COMMIT; for gifts the posts' check, the notifications and the posts'
 * counts instead of the senders, pairs and messages — and after it, the one read of whether the
 * receivers have push devices. One at a time, 20 of them took 20 times the budgets above.
 */
const TOGETHER = 20;
const BATCH_OF_MESSAGES_STATEMENTS = 9;
const BATCH_OF_GIFTS_STATEMENTS = 9;

describe.skipIf(!runnable)('durable money writes, counted in statements (PostgreSQL)', () => {
  let server: TestServer;
  let app: FastifyInstance;
  const query = pg.Client.prototype.query;
  let counted = 0;

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    app = server.app;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      counted++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await server?.close();
  });

  /** Statements `work` sends, on a server otherwise idle. */
  async function statementsOf(work: () => Promise<unknown>): Promise<number> {
    const before = counted;
    await work();
    return counted - before;
  }

  it('a paid chat message: its checks, payment, message, conversations and positions', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await setMessagePrice(app, creator.id, 100);
    await fundWallet(app, fan.id, 10_000);
    const chat = createChatService(app.fanstage);
    const price = 100;
    const send = () => chat.send(fan.id, { msgId: randomBytes(8).toString('hex'), receiverId: creator.id, text: 'hello', mediaId: null, giftId: null, price, confirmation: null });
    // The first opens the pair's conversation, the fan's controls and the accounts.
    expect(await send()).toHaveProperty('stored');
    let outcome: unknown;
    const statements = await statementsOf(async () => {
      outcome = await send();
    });
    expect(outcome).toHaveProperty('stored');
    expect(fanPriceCents(price, app.fanstage.config.priceSalt)).toBeGreaterThan(0);
    expect(statements).toBeLessThanOrEqual(PAID_MESSAGE_STATEMENTS);
  });

  it("a gift on a creator's post", async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await fundWallet(app, fan.id, 100_000);
    const [post] = rowsOf<{ id: number }>(await app.fanstage.db.execute(sql`insert into posts (user_id, text, published_at) values (${creator.id}, 'A set', now()) returning id`));
    const [gift] = rowsOf<{ id: number }>(await app.fanstage.db.execute(sql`select id from gifts where active order by g_value limit 1`));
    const postId = Number(post!.id);
    const giftId = Number(gift!.id);
    const spending = createSpendingService(app.fanstage);
    const give = () => spending.giftPost(fan.id, { postId, giftId, idempotencyKey: randomBytes(8).toString('hex') }, { channel: 'platform', at: new Date() });
    await give();
    const statements = await statementsOf(give);
    expect(statements).toBeLessThanOrEqual(GIFT_STATEMENTS);
  });

  it(`${TOGETHER} paid messages from ${TOGETHER} fans sent together: one batch's statements`, async () => {
    const creator = await createAccount(app, { seller: true });
    await setMessagePrice(app, creator.id, 100);
    const fans = await Promise.all(Array.from({ length: TOGETHER }, () => createAccount(app)));
    for (const fan of fans) await fundWallet(app, fan.id, 10_000);
    const chat = createChatService(app.fanstage);
    const send = (fanId: number) => chat.send(fanId, { msgId: randomBytes(8).toString('hex'), receiverId: creator.id, text: 'hello', mediaId: null, giftId: null, price: 100, confirmation: null });
    // The first of each fan opens the pair's conversation, the fan's controls and the accounts.
    await Promise.all(fans.map((fan) => send(fan.id)));
    let outcomes: unknown[] = [];
    const statements = await statementsOf(async () => {
      outcomes = await Promise.all(fans.map((fan) => send(fan.id)));
    });
    for (const outcome of outcomes) expect(outcome).toHaveProperty('stored');
    expect(statements).toBeLessThanOrEqual(BATCH_OF_MESSAGES_STATEMENTS);
  });

  it(`${TOGETHER} gifts on one post from ${TOGETHER} fans given together: one batch's statements`, async () => {
    const creator = await createAccount(app, { seller: true });
    const fans = await Promise.all(Array.from({ length: TOGETHER }, () => createAccount(app)));
    for (const fan of fans) await fundWallet(app, fan.id, 100_000);
    const [post] = rowsOf<{ id: number }>(await app.fanstage.db.execute(sql`insert into posts (user_id, text, published_at) values (${creator.id}, 'A set', now()) returning id`));
    const [gift] = rowsOf<{ id: number }>(await app.fanstage.db.execute(sql`select id from gifts where active order by g_value limit 1`));
    const spending = createSpendingService(app.fanstage);
    const give = (fanId: number) => spending.giftPost(fanId, { postId: Number(post!.id), giftId: Number(gift!.id), idempotencyKey: randomBytes(8).toString('hex') }, { channel: 'platform', at: new Date() });
    await Promise.all(fans.map((fan) => give(fan.id)));
    let results: { totalGiftsCount?: number }[] = [];
    const statements = await statementsOf(async () => {
      results = await Promise.all(fans.map((fan) => give(fan.id)));
    });
    expect(Math.max(...results.map((r) => r.totalGiftsCount ?? 0))).toBe(2 * TOGETHER);
    expect(statements).toBeLessThanOrEqual(BATCH_OF_GIFTS_STATEMENTS);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { eq } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { media, mediaUnlocks, notifications, postMedia, posts, users } from '../../server/src/db/schema';

/**
 * One wallet, many unlocks at once. This needs real concurrent transactions: PGlite runs a
 * single connection, so every request there waits for the one before and no race can happen.
 * Run with DATABASE_URL pointing at PostgreSQL.
 */
const onPostgres = Boolean(process.env.DATABASE_URL?.trim()) && process.env.DATABASE_URL?.trim() !== 'memory://';
const MEDIA = 200;
const PRICE = 320;

describe.skipIf(!onPostgres)('simultaneous unlocks from one wallet (PostgreSQL only: PGlite has one connection and cannot race)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ seed: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`${MEDIA} requests for different media from a wallet that pays for one: one unlock, the rest noMoney`, { timeout: 120_000 }, async () => {
    const { app, baseUrl } = server;
    const { db } = app.fanstage;
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));

    const publishedAt = new Date(Date.now() - 60_000);
    const postIds = (await db.insert(posts).values(Array.from({ length: MEDIA }, () => ({ userId: creator.id, text: 'locked', publishedAt }))).returning({ id: posts.id })).map((r) => r.id);
    const mediaIds = (
      await db
        .insert(media)
        .values(postIds.map(() => ({ hash: randomBytes(16).toString('hex'), ownerId: creator.id, kind: 'post', format: 'webp', width: 800, height: 600, status: 3, price: PRICE })))
        .returning({ id: media.id })
    ).map((r) => r.id);
    await db.insert(postMedia).values(postIds.map((postId, i) => ({ postId, mediaId: mediaIds[i]!, position: 0 })));

    const cost = fanPriceCents(PRICE, app.fanstage.config.priceSalt);
    const remainder = cost - 1;
    await fundWallet(app, fan.id, cost + remainder);

    const answers = await Promise.all(
      mediaIds.map(async (id) => {
        const response = await fetch(`${baseUrl}/api/media/unlock`, {
          method: 'POST',
          headers: { authorization: `Bearer ${fan.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ id, price: PRICE }),
        });
        return { status: response.status, json: (await response.json()) as { statusCode: number; statusText?: string; body?: { mediaId: number; gBalance: number } } };
      }),
    );

    const succeeded = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 402 && a.json.statusText === 'noMoney');
    expect(succeeded).toHaveLength(1);
    expect(refused).toHaveLength(MEDIA - 1);
    expect(succeeded[0]!.json.body!.gBalance).toBe(remainder);

    expect(await walletOf(app, fan.id)).toBe(remainder);
    expect(await earningsOf(app, creator.id)).toBe(PRICE);
    const unlocks = await db.select().from(mediaUnlocks).where(eq(mediaUnlocks.userId, fan.id));
    expect(unlocks.map((u) => u.mediaId)).toEqual([succeeded[0]!.json.body!.mediaId]);
    expect(await db.select().from(notifications).where(eq(notifications.userId, creator.id))).toHaveLength(1);
    await expectLedgerBalanced(app);
  });
});

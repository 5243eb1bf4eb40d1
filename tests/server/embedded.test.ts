import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { closeSockets, connectSocket } from '../support/sockets';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { say, setMessagePrice } from './support-chat';

/**
 * Each feature once, on the seeded demo: the part of the server suite that runs on the embedded
 * database even when the rest runs on PostgreSQL (docs/development.md, "Which database"). Every
 * read the API lists answers a visitor, a fan and a creator without a server error, and the
 * writes a fan's first visit makes — follow, like, comment, a paid message, a tip — land and
 * keep the ledger balanced.
 */
let server: TestServer;
let app: FastifyInstance;
let fan: TestAccount;
let creator: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  app = server.app;
  fan = await createAccount(app);
  creator = await createAccount(app, { seller: true });
});
afterAll(async () => {
  closeSockets();
  await server?.close();
});

const call = apiCaller(() => app);

describe('the embedded database', () => {
  it('answers every read of the API without a server error, to a visitor, a fan and a creator', async () => {
    const reads = app.fanstage.routes.filter((route) => route.method === 'GET' && /^\/p?api\//.test(route.url) && !route.url.includes(':') && !route.url.includes('*'));
    // Two reads answer a document of their own rather than the envelope: the API's description
    // and the account's data export.
    const documents = new Set(['/papi/openapi.json', '/api/users/me/export']);
    expect(reads.length).toBeGreaterThan(30);
    const failures: string[] = [];
    for (const who of [undefined, fan, creator]) {
      for (const route of reads) {
        const response = await app.inject({ method: 'GET', url: route.url, headers: who ? { authorization: `Bearer ${who.accessToken}` } : {} });
        if (response.statusCode >= 500) failures.push(`${who?.username ?? 'visitor'} GET ${route.url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        else if (!documents.has(route.url) && response.headers['content-type']?.toString().startsWith('application/json')) {
          const envelope = response.json() as { statusCode?: unknown };
          if (typeof envelope.statusCode !== 'number') failures.push(`${who?.username ?? 'visitor'} GET ${route.url}: no envelope`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('takes a fan’s first visit: follow, like, comment, a paid message and a tip, the ledger balanced', async () => {
    expect((await call('POST', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
    const posted = await call('POST', '/api/posts', creator, { text: 'hello from the embedded database #smoke' });
    expect(posted.json.statusCode).toBe(2);
    const postId = posted.json.body.id as number;
    expect((await call('POST', `/api/posts/${postId}/likes`, fan)).json.body).toEqual({ totalLikesCount: 1, likedByMe: true });
    expect((await call('POST', '/api/posts/comments', fan, { postId, text: 'lovely' })).json.statusCode).toBeGreaterThan(0);
    const timeline = await call('GET', '/api/2/timeline', fan);
    expect(timeline.json.statusCode).toBe(2);
    expect(JSON.stringify(timeline.json.body)).toContain('hello from the embedded database');

    const salt = app.fanstage.config.priceSalt;
    await setMessagePrice(app, creator.id, 48);
    await fundWallet(app, fan.id, 10_000);
    const socket = await connectSocket(server, fan);
    const message = await say(socket, { receiverId: creator.id, price: 48 });
    expect(message.price).toBe(48);
    const gift = ((await call('GET', '/papi/gifts', fan)).json.body as { id: number; gValue: number; cValue: number }[])[0]!;
    expect((await call('POST', '/api/users/tip', fan, { userId: creator.id, giftId: gift.id })).json.statusCode).toBe(2);
    expect(await walletOf(app, fan.id)).toBe(10_000 - fanPriceCents(48, salt) - gift.gValue);
    expect(await earningsOf(app, creator.id)).toBe(48 + gift.cValue);
    const notifications = await call('GET', '/api/2/notifications?limit=20', creator);
    expect(notifications.json.statusCode).toBe(2);
    await expectLedgerBalanced(app);
  });
});

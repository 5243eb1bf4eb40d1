import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { apiCaller } from '../support/inject';
import { eq } from '../support/db';
import { earningsOf, expectLedgerBalanced } from '../support/money';
import { issueAccessToken } from '../../server/src/features/auth/guard';
import { users } from '../../server/src/db/schema';
import type { TestAccount } from '../support/accounts';
import type { Conversation } from '../../lib/contract/chat';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const call = apiCaller(() => app);

async function demoAccount(username: string): Promise<TestAccount> {
  const [row] = await app.fanstage.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.username, username));
  return { id: row!.id, email: row!.email!, password: '', username, accessToken: await issueAccessToken(app.fanstage, row!.id) };
}

describe('the demo chats', () => {
  it('give the demo creator a chat list with paid messages from fans, one of them unread', async () => {
    const lucy = await demoAccount('lucy.rivers');
    const conversations = (await call('GET', '/api/chat/conversations', lucy)).json.body.conversations as Conversation[];
    expect(conversations.map((c) => c.sender.username)).toEqual(['petra.svobodova', 'jakub.dvorak']);
    expect(conversations.map((c) => c.unreadCount)).toEqual([1, 1]);
    expect(conversations[1]!.lastMessage).toMatchObject({ senderId: lucy.id, price: 0 });
    // Two fans' messages at Lucy's price of 32 cents.
    expect(await earningsOf(app, lucy.id)).toBe(2 * 32);
    expect((await call('GET', '/api/count/', lucy)).json.body).toMatchObject({ chats: 2 });
    const jakub = await demoAccount('jakub.dvorak');
    expect((await call('GET', '/api/chat/conversations', jakub)).json.body.conversations).toHaveLength(2);
    await expectLedgerBalanced(app);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import type { MassMessage } from '../../lib/contract/chat';
import { users } from '../../server/src/db/schema';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { eq } from '../support/db';
import { fundWallet } from '../support/money';
import { closeSockets, connectSocket } from '../support/sockets';
import { answers, chatPicture, newMsgId } from './support-chat';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  closeSockets();
  await server?.close();
});

const call = apiCaller(() => app);

async function follower(creator: TestAccount): Promise<TestAccount> {
  const fan = await createAccount(app);
  expect((await call('POST', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
  await app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));
  return fan;
}

describe('the sent mass messages', () => {
  it('count how many got each one and how many of them unlocked its priced media', async () => {
    const creator = await createAccount(app, { seller: true });
    const fans = [await follower(creator), await follower(creator), await follower(creator)];
    const price = 160;
    const picture = await chatPicture(app, creator.id, price);
    const socket = await connectSocket(server, creator);

    const msgId = newMsgId();
    const from = socket.mark;
    socket.send({ type: 'massChatMessage', msgId, recGroup: 'followers', text: 'a new set', mediaId: picture });
    const ack = (await socket.next(answers(msgId), from)) as { type: string; message: MassMessage };
    expect(ack.type).toBe('massChatMessage');
    expect(ack.message).toMatchObject({ recipientsCount: 3, unlocksCount: 0 });
    const textOnly = newMsgId();
    socket.send({ type: 'massChatMessage', msgId: textOnly, recGroup: 'followers', text: 'thank you all' });
    await socket.next(answers(textOnly), from);

    // Two of the three unlock; the same media unlocked by someone who did not get the message does not count.
    for (const fan of fans.slice(0, 2)) {
      await fundWallet(app, fan.id, fanPriceCents(price, app.fanstage.config.priceSalt));
      expect((await call('POST', '/api/media/unlock', fan, { id: picture, price })).json.statusCode).toBe(2);
    }

    const history = (await call('GET', '/api/chat/mass-conversations/followers', creator)).json.body.messages as MassMessage[];
    expect(history.map((m) => [m.text, m.recipientsCount, m.unlocksCount])).toEqual([
      ['a new set', 3, 2],
      ['thank you all', 3, 0],
    ]);
    const groups = (await call('GET', '/api/chat/mass-conversations', creator)).json.body.groups as { recGroup: string; lastMessage: MassMessage | null }[];
    expect(groups.find((g) => g.recGroup === 'followers')?.lastMessage).toMatchObject({ text: 'thank you all', unlocksCount: 0 });

    // The lists are the sender's own: a fan has none, a visitor none at all.
    const fanView = (await call('GET', '/api/chat/mass-conversations/followers', fans[0])).json.body.messages;
    expect(fanView).toEqual([]);
    expect((await call('GET', '/api/chat/mass-conversations/followers')).status).toBe(401);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { fundWallet } from '../support/money';
import { eq } from '../support/db';
import { users } from '../../server/src/db/schema';
import { chatPicture } from '../server/support-chat';
import { follow, post } from '../server/support-feeds';
import { closeSockets, connectSocket } from '../support/sockets';

let server: TestServer;
const made: Fanstage[] = [];
const call = apiCaller(() => server.app);

beforeAll(async () => {
  server = await startTestServer({ seed: false });
}, 60_000);
afterEach(() => {
  for (const fanstage of made.splice(0)) {
    fanstage.socket.disconnect();
    fanstage.session.dispose();
  }
});
afterAll(async () => {
  closeSockets();
  await server?.close();
});

/** One page (tab) of `account`, connected. */
async function page(account: TestAccount): Promise<Fanstage> {
  const fanstage = createFanstage({ baseUrl: server.baseUrl, socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 50 } });
  made.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  fanstage.socket.connect();
  await expect.poll(() => fanstage.socket.connectedState.value).toBe('open');
  return fanstage;
}

async function payingFan(options: AccountOptions = {}): Promise<TestAccount> {
  const fan = await createAccount(server.app, options);
  await server.app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));
  await fundWallet(server.app, fan.id, 10_000);
  return fan;
}

describe('an unlock in another tab', () => {
  it('opens a chat media in this tab’s open thread', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const fan = await payingFan();
    const mediaId = await chatPicture(server.app, creator.id, 160);
    const creatorSocket = await connectSocket(server, creator);
    creatorSocket.send({ type: 'chatMessage', msgId: `m-${mediaId}`, receiverId: fan.id, text: 'for you', mediaId });
    await creatorSocket.nextOf('chatMessage', 0, (m) => m.message.msgId === `m-${mediaId}`);

    const tabB = await page(fan);
    const thread = tabB.chat.thread(creator.id);
    await thread.load();
    const mediaOf = () => thread.items.value.find((item) => item.mediaId === mediaId)?.media ?? null;
    await expect.poll(() => mediaOf()?.mediaUnlocked).toBe(false);

    // Tab A: the fan's own call from elsewhere.
    const answer = await call('POST', '/api/media/unlock', fan, { id: mediaId, price: 160 });
    expect(answer.json.statusCode).toBe(2);
    await expect.poll(() => mediaOf()?.mediaUnlocked).toBe(true);
    expect(mediaOf()?.mediaUnlockHash).toBe(answer.json.body.mediaUnlockHash);
  });

  it('opens a post media in every list of this tab, and another fan’s tab stays locked', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const fan = await payingFan();
    const other = await payingFan();
    const { id, mediaIds } = await post(server.app, creator.id, { text: 'locked', media: 1, price: 320 });
    const [mine, theirs] = [await page(fan), await page(other)];
    await mine.posts.load(id);
    await theirs.posts.load(id);
    expect(mine.posts.peek(id)?.media[0]?.mediaUnlockHash).toBeNull();

    const answer = await call('POST', '/api/media/unlock', fan, { id: mediaIds[0], price: 320 });
    expect(answer.json.statusCode).toBe(2);
    await expect.poll(() => mine.posts.peek(id)?.media[0]?.mediaUnlockHash).toBe(answer.json.body.mediaUnlockHash);
    // A round trip on the other fan's socket: anything meant for it would have arrived first.
    await theirs.posts.load(id);
    expect(theirs.posts.peek(id)?.media[0]?.mediaUnlockHash).toBeNull();
  });
});

describe('newPost', () => {
  it('offers the post to an open private timeline once, and showNew puts it first', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const fan = await createAccount(server.app);
    await post(server.app, creator.id, { text: 'older', publishedAt: new Date(Date.now() - 3_600_000) });
    await follow(server.app, fan.id, creator.id);
    const tab = await page(fan);
    const timeline = tab.feeds.feed('private');
    await timeline.loadMore();
    expect(timeline.newCount.value).toBe(0);

    const created = await call('POST', '/api/posts', creator, { text: 'newest' });
    await expect.poll(() => timeline.newCount.value).toBe(1);
    // The same announcement again (the author may re-announce a post) is one post still.
    await tab.feeds.noticeNewPost(created.json.body.id);
    expect(timeline.newCount.value).toBe(1);
    timeline.showNew();
    expect(timeline.items.value[0]).toMatchObject({ kind: 'post', id: created.json.body.id });
    expect(timeline.newCount.value).toBe(0);
  });
});

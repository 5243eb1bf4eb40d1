import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { eq } from '../support/db';
import { closeSockets, connectSocket, type SocketClient } from '../support/sockets';
import { SubscriptionStatus } from '../../lib/contract/constants';
import type { MassMessage } from '../../lib/contract/chat';
import { chatMassMessages, chatMessages, subscriptionOffers, subscriptions } from '../../server/src/db/schema';
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
const connect = (account: TestAccount) => connectSocket(server, account);

async function subscribe(creatorId: number, subscriberId: number, status: number): Promise<void> {
  const { db } = app.fanstage;
  const [offer] = await db.insert(subscriptionOffers).values({ userId: creatorId, name: 'Monthly', priceCents: 500 }).returning({ id: subscriptionOffers.id });
  const periodEnd = new Date(Date.now() + (status === SubscriptionStatus.expired ? -86_400_000 : 86_400_000 * 20));
  await db.insert(subscriptions).values({ offerId: offer!.id, subscriberId, creatorId, status, priceCents: 500, periodsPaid: 1, periodEnd });
}

async function mass(socket: SocketClient, fields: Record<string, unknown>) {
  const msgId = typeof fields.msgId === 'string' ? fields.msgId : newMsgId();
  const from = socket.mark;
  socket.send({ type: 'massChatMessage', msgId, text: 'hello everyone', ...fields });
  return socket.next(answers(msgId), from);
}

describe('mass messages', () => {
  it('reach every follower once, free, with the sender’s ack and each receiver’s counts', async () => {
    const creator = await createAccount(app, { seller: true });
    const fans = await Promise.all([createAccount(app), createAccount(app), createAccount(app)]);
    const blocker = await createAccount(app);
    for (const fan of [...fans, blocker]) expect((await call('POST', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
    expect((await call('POST', '/api/users/block', blocker, { id: creator.id })).json).toEqual({ statusCode: 1 });
    const sockets = await Promise.all(fans.map(connect));
    const sb = await connect(blocker);
    const sc = await connect(creator);
    const msgId = newMsgId();
    const ack = await mass(sc, { msgId, senderId: creator.id, recGroup: 'followers', text: 'new video tonight' });
    expect(ack.type).toBe('massChatMessage');
    const message = (ack as { message: MassMessage }).message;
    expect(message).toMatchObject({ msgId, recGroup: 'followers', text: 'new video tonight', recipientsCount: 3, media: null });

    for (const [i, socket] of sockets.entries()) {
      const got = await socket.nextOf('chatMessage');
      expect(got.message).toMatchObject({ senderId: creator.id, receiverId: fans[i]!.id, text: 'new video tonight', price: 0, massId: message.id, msgId: `${msgId}/${fans[i]!.id}` });
      expect(await socket.nextOf('updateCount')).toMatchObject({ chats: 1 });
      const [conversation] = (await call('GET', `/api/chat/conversations?senderId=${creator.id}`, fans[i])).json.body.conversations;
      expect(conversation).toMatchObject({ unreadCount: 1, lastMessage: { massId: message.id } });
    }
    await sb.sync();
    expect(sb.all('chatMessage')).toHaveLength(0);
    expect(await app.fanstage.db.select().from(chatMessages).where(eq(chatMessages.massId, message.id))).toHaveLength(3);

    // A resend is acknowledged again and sends nothing new.
    const again = await mass(sc, { msgId, recGroup: 'followers', text: 'new video tonight' });
    expect(again).toMatchObject({ type: 'massChatMessage', message: { id: message.id } });
    await sockets[0]!.sync();
    expect(sockets[0]!.all('chatMessage')).toHaveLength(1);
    expect(await app.fanstage.db.select().from(chatMassMessages).where(eq(chatMassMessages.msgId, msgId))).toHaveLength(1);
    // The creator's list shows the conversations the mass message opened.
    expect((await call('GET', '/api/chat/conversations', creator)).json.body.conversations).toHaveLength(3);
  });

  it('to subscribers and to expired subscribers reach just those groups, leaving out people in a block', async () => {
    const creator = await createAccount(app, { seller: true });
    const active = await createAccount(app);
    const cancelled = await createAccount(app);
    const expired = await createAccount(app);
    const renewed = await createAccount(app);
    const stranger = await createAccount(app);
    await subscribe(creator.id, active.id, SubscriptionStatus.active);
    await subscribe(creator.id, cancelled.id, SubscriptionStatus.cancelled);
    await subscribe(creator.id, expired.id, SubscriptionStatus.expired);
    await subscribe(creator.id, renewed.id, SubscriptionStatus.expired);
    await subscribe(creator.id, renewed.id, SubscriptionStatus.active);
    // Blocking cancels the subscription, which runs to its end: still a subscriber, but blocked.
    const blocker = await createAccount(app);
    await subscribe(creator.id, blocker.id, SubscriptionStatus.active);
    expect((await call('POST', '/api/users/block', blocker, { id: creator.id })).json).toEqual({ statusCode: 1 });
    const sc = await connect(creator);

    const toSubscribers = await mass(sc, { recGroup: 'subscribers', text: 'thank you' });
    expect(toSubscribers).toMatchObject({ type: 'massChatMessage', message: { recipientsCount: 3 } });
    const toExpired = await mass(sc, { recGroup: 'expired-subscribers', text: 'come back' });
    expect(toExpired).toMatchObject({ type: 'massChatMessage', message: { recipientsCount: 1 } });
    const receivers = async (id: number) => (await app.fanstage.db.select({ to: chatMessages.receiverId }).from(chatMessages).where(eq(chatMessages.massId, id))).map((r) => r.to).sort();
    expect(await receivers((toSubscribers as { message: MassMessage }).message.id)).toEqual([active.id, cancelled.id, renewed.id].sort());
    expect(await receivers((toExpired as { message: MassMessage }).message.id)).toEqual([expired.id]);
    expect((await call('GET', `/api/chat/conversations?senderId=${creator.id}`, stranger)).json.body.conversations[0].lastMessage).toBeNull();

    const groups = (await call('GET', '/api/chat/mass-conversations', creator)).json.body.groups;
    expect(groups).toEqual([
      { recGroup: 'followers', membersCount: 0, lastMessage: null },
      { recGroup: 'subscribers', membersCount: 3, lastMessage: expect.objectContaining({ text: 'thank you' }) },
      { recGroup: 'expired-subscribers', membersCount: 1, lastMessage: expect.objectContaining({ text: 'come back' }) },
    ]);
  });

  it('keep a priced media locked for each receiver, and page back through a group’s history', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    expect((await call('POST', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
    const sf = await connect(fan);
    const sc = await connect(creator);
    const mediaId = await chatPicture(app, creator.id, 320);
    const sent = await mass(sc, { recGroup: 'followers', text: '', mediaId });
    expect(sent).toMatchObject({ type: 'massChatMessage', message: { media: { mediaId, mediaPrice: 320, mediaUnlocked: true } } });
    expect((await sf.nextOf('chatMessage')).message.media).toMatchObject({ mediaId, mediaPrice: 320, mediaUnlocked: false, mediaUnlockHash: null });

    await mass(sc, { recGroup: 'followers', text: 'second' });
    await mass(sc, { recGroup: 'followers', text: 'third' });
    const page = (await call('GET', '/api/chat/mass-conversations/followers?limit=2', creator)).json.body.messages as MassMessage[];
    expect(page.map((m) => m.text)).toEqual(['second', 'third']);
    const older = (await call('GET', `/api/chat/mass-conversations/followers?limit=2&ts=${page[0]!.sendDt}`, creator)).json.body.messages as MassMessage[];
    expect(older.map((m) => m.media?.mediaId)).toEqual([mediaId]);
    expect((await call('GET', '/api/chat/mass-conversations/everyone', creator)).json.statusText).toBe('invalid-request');
  });

  it('are for sellers with a verified e-mail only, and answer bad fields with an error', async () => {
    const fan = await createAccount(app);
    const unverified = await createAccount(app, { seller: true, verified: false });
    const sf = await connect(fan);
    const msgId = newMsgId();
    expect(await mass(sf, { msgId, recGroup: 'followers' })).toEqual({ type: 'error', statusText: 'verify-required', ref: 'massChatMessage', msgId });
    const su = await connect(unverified);
    const refused = newMsgId();
    expect(await mass(su, { msgId: refused, recGroup: 'followers' })).toEqual({ type: 'eventMessage', event: 'emailNotVerified', userId: unverified.id, data: { msgId: refused } });
    expect(await mass(sf, { recGroup: 'fans' })).toMatchObject({ type: 'error', statusText: 'invalid-request' });
    expect(await mass(sf, { recGroup: 'followers', senderId: fan.id + 1 })).toMatchObject({ type: 'error', statusText: 'forbidden' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { closeSockets, connectSocket, type SocketClient } from '../support/sockets';
import type { ChatMessage, Conversation } from '../../lib/contract/chat';
import { chatPicture, say } from './support-chat';
import { chatConversations, chatMessages, users } from '../../server/src/db/schema';

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

async function conversationsOf(account: TestAccount, query = ''): Promise<Conversation[]> {
  const answer = await call('GET', `/api/chat/conversations${query}`, account);
  expect(answer.json.statusCode, JSON.stringify(answer.json)).toBe(2);
  return answer.json.body.conversations;
}

async function historyPage(account: TestAccount, partnerId: number, query = ''): Promise<{ conversation: Conversation; messages: ChatMessage[] }> {
  const answer = await call('GET', `/api/chat/conversations/${partnerId}${query}`, account);
  expect(answer.json.statusCode, JSON.stringify(answer.json)).toBe(2);
  return answer.json.body;
}

describe('the conversation list', () => {
  it('shows the latest activity first with the partner, the last message and unread counts; q searches partners', async () => {
    const me = await createAccount(app);
    const anna = await createAccount(app, { username: `anna_${Date.now().toString(36)}` });
    const bob = await createAccount(app, { username: `bob_${Date.now().toString(36)}` });
    const sme = await connect(me);
    const sanna = await connect(anna);
    const sbob = await connect(bob);
    await say(sme, { receiverId: anna.id, text: 'hi anna' });
    await say(sanna, { receiverId: me.id, text: 'hi back' });
    await say(sanna, { receiverId: me.id, text: 'how are you?' });
    const last = await say(sbob, { receiverId: me.id, text: 'bob here' });

    const list = await conversationsOf(me);
    expect(list.map((c) => c.id)).toEqual([bob.id, anna.id]);
    expect(list[0]).toMatchObject({ sender: { id: bob.id, username: bob.username }, unreadCount: 1, lastMessage: { id: last.id, text: 'bob here' }, archived: false });
    expect(list[1]).toMatchObject({ unreadCount: 2, lastMessage: { text: 'how are you?' } });
    expect((await call('GET', '/api/count/', me)).json.body).toMatchObject({ chats: 2 });

    expect((await conversationsOf(me, `?q=${encodeURIComponent(anna.username.slice(0, 6).toUpperCase())}`)).map((c) => c.id)).toEqual([anna.id]);
    expect(await conversationsOf(me, '?q=nobody_like_this')).toEqual([]);
    expect((await conversationsOf(me, '?limit=1&offset=1')).map((c) => c.id)).toEqual([anna.id]);
  });

  it('answers a fresh conversation for someone never written to, and refuses oneself and blocked people', async () => {
    const me = await createAccount(app);
    const creator = await createAccount(app, { seller: true });
    const [fresh] = await conversationsOf(me, `?senderId=${creator.id}`);
    expect(fresh).toMatchObject({ id: creator.id, unreadCount: 0, lastMessage: null, lastReadDate: null, agreedPrice: 0, sumPrice: 0, archived: false });
    expect(await conversationsOf(me)).toEqual([]);
    expect((await call('GET', `/api/chat/conversations?senderId=${me.id}`, me)).json).toEqual({ statusCode: -1, statusText: 'cannot-target-self' });
    expect((await call('POST', '/api/users/block', creator, { id: me.id })).json).toEqual({ statusCode: 1 });
    expect((await call('GET', `/api/chat/conversations?senderId=${creator.id}`, me)).json).toEqual({ statusCode: -1, statusText: 'user-not-found' });
    expect((await call('GET', `/api/chat/conversations/${creator.id}`, me)).json.statusText).toBe('user-not-found');
    expect((await call('GET', '/api/chat/conversations?limit=0', me)).json.statusText).toBe('invalid-request');
    expect((await call('GET', '/api/chat/conversations')).status).toBe(401);
  });

  it('hides an archived conversation until the next message, and a block archives it for the blocker', async () => {
    const me = await createAccount(app);
    const other = await createAccount(app);
    const pest = await createAccount(app);
    const sme = await connect(me);
    const sother = await connect(other);
    const spest = await connect(pest);
    await say(sother, { receiverId: me.id, text: 'one' });
    await say(spest, { receiverId: me.id, text: 'buy my stuff' });
    expect((await call('DELETE', `/api/chat/conversations/${other.id}`, me)).json).toEqual({ statusCode: 1 });
    expect((await conversationsOf(me)).map((c) => c.id)).toEqual([pest.id]);
    expect((await conversationsOf(me, '?archived=true')).map((c) => c.id).sort()).toEqual([other.id, pest.id].sort());
    expect((await call('GET', '/api/count/', me)).json.body.chats).toBe(1);
    await say(sother, { receiverId: me.id, text: 'two' });
    expect((await conversationsOf(me)).map((c) => c.id)).toEqual([other.id, pest.id]);
    expect((await call('DELETE', `/api/chat/conversations/${other.id + 100_000}`, me)).json).toEqual({ statusCode: -1, statusText: 'conversation-not-found' });

    // Blocked, pest vanishes; unblocked, the conversation stays archived (the blocker left it).
    expect((await call('POST', '/api/users/block', me, { id: pest.id })).json).toEqual({ statusCode: 1 });
    expect((await conversationsOf(me, '?archived=true')).map((c) => c.id)).toEqual([other.id]);
    expect((await call('DELETE', '/api/users/block', me, { id: pest.id })).json).toEqual({ statusCode: 1 });
    expect((await conversationsOf(me)).map((c) => c.id)).toEqual([other.id]);
    expect((await conversationsOf(me, '?archived=true')).find((c) => c.id === pest.id)).toMatchObject({ archived: true });
    await sme.sync();
  });

  it('counts unread up to 100 — a conversation’s messages and the Chat badge’s conversations — which the screens show as 99+', async () => {
    const me = await createAccount(app);
    const fan = await createAccount(app);
    const first = await say(await connect(fan), { receiverId: me.id, text: 'one' });
    const { db } = app.fanstage;
    // A hundred more from the same fan, and 101 other people who wrote and were never read.
    const later = (i: number) => new Date(first.sendDt + (i + 1) * 1000);
    await db.insert(chatMessages).values(Array.from({ length: 100 }, (_, i) => ({ msgId: `more-${i}`, senderId: fan.id, receiverId: me.id, text: `more ${i}`, createdAt: later(i) })));
    const stamp = Date.now().toString(36);
    const writers = await db
      .insert(users)
      .values(Array.from({ length: 101 }, (_, i) => ({ username: `writer_${stamp}_${i}`, displayName: `Writer ${i}`, email: `writer_${stamp}_${i}@example.com` })))
      .returning({ id: users.id });
    await db.insert(chatConversations).values(writers.map((w, i) => ({ userId: me.id, partnerId: w.id, lastMessageId: first.id, lastMessageAt: later(-2 - i), lastIncomingAt: later(-2 - i) })));

    const [top] = await conversationsOf(me, '?limit=1');
    expect(top).toMatchObject({ id: fan.id, unreadCount: 100 });
    expect((await call('GET', '/api/count/', me)).json.body).toMatchObject({ chats: 100 });
    expect((await call('GET', '/api/count/', fan)).json.body).toMatchObject({ chats: 0 });
  });
});

describe('the history', () => {
  it('pages back by sendDt, oldest first in each page, ending with a short page; reading it marks nothing read', async () => {
    const me = await createAccount(app);
    const other = await createAccount(app);
    const sme = await connect(me);
    const sother = await connect(other);
    const sent: ChatMessage[] = [];
    for (let i = 0; i < 7; i++) sent.push(await say(i % 2 === 0 ? sother : sme, { receiverId: i % 2 === 0 ? me.id : other.id, text: `message ${i}` }));
    // Every message of a pair is later than the one before: pages split cleanly by sendDt.
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.sendDt).toBeGreaterThan(sent[i - 1]!.sendDt);

    const first = await historyPage(me, other.id, '?limit=3');
    expect(first.messages.map((m) => m.text)).toEqual(['message 4', 'message 5', 'message 6']);
    expect(first.conversation).toMatchObject({ id: other.id, unreadCount: 4 });
    const second = await historyPage(me, other.id, `?limit=3&ts=${first.messages[0]!.sendDt}`);
    expect(second.messages.map((m) => m.text)).toEqual(['message 1', 'message 2', 'message 3']);
    const third = await historyPage(me, other.id, `?limit=3&ts=${second.messages[0]!.sendDt}`);
    expect(third.messages.map((m) => m.text)).toEqual(['message 0']);
    expect((await historyPage(me, other.id, '')).messages).toHaveLength(7);
    expect((await call('GET', '/api/count/', me)).json.body.chats).toBe(1);
    expect((await historyPage(me, other.id, '?limit=1')).conversation.unreadCount).toBe(4);
  });

  it('lists the media exchanged with a person, newest first', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const sc: SocketClient = await connect(creator);
    const free = await chatPicture(app, creator.id, 0);
    const priced = await chatPicture(app, creator.id, 64);
    await say(sc, { receiverId: fan.id, text: 'a free one', mediaId: free });
    await say(sc, { receiverId: fan.id, text: 'no media' });
    await say(sc, { receiverId: fan.id, text: '', mediaId: priced });
    const answer = await call('GET', `/api/chat/conversations-media/?receiverId=${creator.id}`, fan);
    expect(answer.json.statusCode).toBe(2);
    const messages = answer.json.body.messages as ChatMessage[];
    expect(messages.map((m) => m.mediaId)).toEqual([priced, free]);
    expect(messages[0]!.media).toMatchObject({ mediaPrice: 64, mediaUnlocked: false });
    expect(messages[1]!.media).toMatchObject({ mediaPrice: 0, mediaUnlocked: true });
    expect((await call('GET', `/api/chat/conversations-media/?receiverId=${creator.id}&offset=1`, fan)).json.body.messages).toHaveLength(1);
    expect((await call('GET', '/api/chat/conversations-media/', fan)).json.statusText).toBe('invalid-request');
  });
});

describe('a creator’s price for one conversation', () => {
  it('is for sellers only, from the chat-message steps, and null goes back to the usual price', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    expect((await call('PUT', '/api/chat/conversations/', fan, { senderId: creator.id, customPrice: 13 })).json).toEqual({
      statusCode: -2,
      statusText: 'verify-required',
      body: { field: 'customPrice' },
    });
    expect((await call('PUT', '/api/chat/conversations/', creator, { senderId: fan.id, customPrice: 15 })).json).toEqual({ statusCode: -1, statusText: 'invalid-price' });
    expect((await call('PUT', '/api/chat/conversations/', creator, { senderId: creator.id, customPrice: 16 })).json.statusText).toBe('cannot-target-self');
    expect((await call('PUT', '/api/chat/conversations/', creator, { senderId: fan.id, customPrice: -1 })).json.statusText).toBe('invalid-request');
    expect((await call('PUT', '/api/chat/conversations/', creator, { senderId: fan.id, customPrice: 128 })).json).toEqual({ statusCode: 1 });
    expect((await conversationsOf(fan, `?senderId=${creator.id}`))[0]).toMatchObject({ price: 128, customPrice: 128 });
    expect((await call('PUT', '/api/chat/conversations/', creator, { senderId: fan.id, customPrice: null })).json).toEqual({ statusCode: 1 });
    expect((await conversationsOf(fan, `?senderId=${creator.id}`))[0]).toMatchObject({ price: 0, customPrice: null });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { and, eq } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { closeSockets, connectSocket } from '../support/sockets';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { ChatLimits } from '../../lib/contract/constants';
import { chatConversations, chatMessages, chatStream, ledgerTransfers, notifications, users } from '../../server/src/db/schema';
import { createChatService, type SendOutcome } from '../../server/src/features/chat/service';
import { answers, attempt, chatPicture, newMsgId, say, setMessagePrice } from './support-chat';

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
const salt = () => app.fanstage.config.priceSalt;
const connect = (account: Parameters<typeof connectSocket>[1]) => connectSocket(server, account);
const storedByMsgId = (senderId: number, msgId: string) =>
  app.fanstage.db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.senderId, senderId), eq(chatMessages.msgId, msgId)));

describe('a message', () => {
  it('is stored before anyone hears of it: the sender gets the echo, the receiver the message and fresh counts', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const sa = await connect(a);
    const sb = await connect(b);
    const echo = await say(sa, { receiverId: b.id, text: '  Hi there!  ' });
    expect(echo).toMatchObject({ senderId: a.id, receiverId: b.id, text: 'Hi there!', price: 0, giftId: null, mediaId: null, media: null, suspectedState: 0, massId: null });
    const [row] = await storedByMsgId(a.id, echo.msgId);
    expect(row).toMatchObject({ id: echo.id, text: 'Hi there!' });
    expect(echo.sendDt).toBe(row!.createdAt.getTime());
    const delivered = await sb.nextOf('chatMessage');
    expect(delivered.message).toEqual(echo);
    expect(await sb.nextOf('updateCount')).toEqual({ type: 'updateCount', notifications: 0, chats: 1, reactions: 0 });
    expect((await call('GET', '/api/count/', b)).json.body).toEqual({ notifications: 0, chats: 1, reactions: 0 });
  });

  it('costs a fan the salted price of a creator’s messages, credits the creator the price, and records the agreed price', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await setMessagePrice(app, creator.id, 48);
    const paid = fanPriceCents(48, salt());
    expect(paid).toBeGreaterThan(48);
    await fundWallet(app, fan.id, paid * 2 + 3);
    const sf = await connect(fan);
    const sc = await connect(creator);

    const message = await say(sf, { receiverId: creator.id, price: 48 });
    expect(message.price).toBe(48);
    expect(await walletOf(app, fan.id)).toBe(paid + 3);
    expect(await earningsOf(app, creator.id)).toBe(48);
    const fanChange = await sf.nextOf('amountChange');
    expect(fanChange.balance.gBalance).toBe(paid + 3);
    expect((await sc.nextOf('amountChange')).balance.cBalance).toBe(48);
    const [transfer] = await app.fanstage.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, `chat:${fan.id}:${message.msgId}`));
    expect(transfer).toMatchObject({ kind: 'chat-message', userId: fan.id, counterpartyId: creator.id });

    // The creator answers for free: the fan is no seller.
    const reply = await say(sc, { receiverId: fan.id, text: 'thanks!' });
    expect(reply.price).toBe(0);
    expect(await walletOf(app, fan.id)).toBe(paid + 3);

    const fanView = (await call('GET', `/api/chat/conversations?senderId=${creator.id}`, fan)).json.body.conversations[0];
    expect(fanView).toMatchObject({ id: creator.id, agreedPrice: 48, price: 48, customPrice: null, isSupport: false, sumPrice: 0 });
    const creatorView = (await call('GET', `/api/chat/conversations?senderId=${fan.id}`, creator)).json.body.conversations[0];
    expect(creatorView).toMatchObject({ id: fan.id, sumPrice: 48, price: 0 });
    await expectLedgerBalanced(app);
  });

  it('is refused with noCredit when the wallet cannot pay: nothing stored, nothing charged, nothing delivered', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await setMessagePrice(app, creator.id, 32);
    await fundWallet(app, fan.id, fanPriceCents(32, salt()) - 1);
    const sf = await connect(fan);
    const sc = await connect(creator);
    const msgId = newMsgId();
    const answer = await attempt(sf, { msgId, receiverId: creator.id, price: 32 });
    expect(answer).toEqual({ type: 'eventMessage', event: 'noCredit', userId: creator.id, data: { msgId } });
    expect(await storedByMsgId(fan.id, msgId)).toHaveLength(0);
    expect(await walletOf(app, fan.id)).toBe(fanPriceCents(32, salt()) - 1);
    expect(await earningsOf(app, creator.id)).toBe(0);
    await sc.sync();
    expect(sc.all('chatMessage')).toHaveLength(0);
    expect(sf.all('amountChange')).toHaveLength(0);
    await expectLedgerBalanced(app);
  });

  it('is refused with notAcceptedPrice and the new price when the price rose above what the fan accepted; the resend at that price goes through', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await setMessagePrice(app, creator.id, 16);
    await fundWallet(app, fan.id, 1_000);
    const sf = await connect(fan);
    await say(sf, { receiverId: creator.id, price: 16 });
    await setMessagePrice(app, creator.id, 64);
    const msgId = newMsgId();
    const refused = await attempt(sf, { msgId, receiverId: creator.id, price: 16 });
    expect(refused).toEqual({ type: 'eventMessage', event: 'notAcceptedPrice', userId: creator.id, data: { msgId, price: 64 } });
    expect(await storedByMsgId(fan.id, msgId)).toHaveLength(0);
    // No price at all means the fan expects a free message.
    const unpriced = await attempt(sf, { receiverId: creator.id });
    expect(unpriced).toMatchObject({ type: 'eventMessage', event: 'notAcceptedPrice', data: { price: 64 } });

    const resent = await say(sf, { msgId, receiverId: creator.id, price: 64 });
    expect(resent.price).toBe(64);
    expect(await walletOf(app, fan.id)).toBe(1_000 - fanPriceCents(16, salt()) - fanPriceCents(64, salt()));
    const [side] = await app.fanstage.db
      .select({ agreedPrice: chatConversations.agreedPrice })
      .from(chatConversations)
      .where(and(eq(chatConversations.userId, fan.id), eq(chatConversations.partnerId, creator.id)));
    expect(side!.agreedPrice).toBe(64);
    // Accepting more than the price charges the price.
    await setMessagePrice(app, creator.id, 13);
    const cheaper = await say(sf, { receiverId: creator.id, price: 128 });
    expect(cheaper.price).toBe(13);
    await expectLedgerBalanced(app);
  });

  it('resent with the same msgId is echoed as stored and charged once, even when the resends race', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await setMessagePrice(app, creator.id, 24);
    await fundWallet(app, fan.id, 500);
    const first = await connect(fan);
    const second = await connect(fan);
    const sc = await connect(creator);
    const msgId = newMsgId();
    const body = { type: 'chatMessage', msgId, receiverId: creator.id, text: 'once', price: 24 };
    first.send(body);
    second.send(body);
    second.send(body);
    await first.sync();
    await second.sync();
    const echoes = [...first.received, ...second.received].filter(answers(msgId));
    expect(echoes.length).toBeGreaterThanOrEqual(2);
    const ids = new Set(echoes.map((m) => (m.type === 'chatMessage' ? m.message.id : -1)));
    expect(ids.size).toBe(1);
    expect(await storedByMsgId(fan.id, msgId)).toHaveLength(1);
    expect(await walletOf(app, fan.id)).toBe(500 - fanPriceCents(24, salt()));
    expect(await earningsOf(app, creator.id)).toBe(24);
    await sc.sync();
    expect(sc.all('chatMessage').filter((m) => m.message.msgId === msgId)).toHaveLength(1);

    // Later still, with other text: the stored message comes back unchanged.
    const later = await say(first, { msgId, receiverId: creator.id, text: 'changed', price: 24 });
    expect(later.text).toBe('once');
    expect(await walletOf(app, fan.id)).toBe(500 - fanPriceCents(24, salt()));
    await expectLedgerBalanced(app);
  });

  it('sent together by many fans, shares one transaction yet keeps each its own refusal, msgId and payment', async () => {
    const creator = await createAccount(app, { seller: true });
    await setMessagePrice(app, creator.id, 40);
    const paid = fanPriceCents(40, salt());
    const fans = await Promise.all(Array.from({ length: 6 }, () => createAccount(app)));
    const [rich, rich2, rich3, poor, blocked, twice] = fans as [TestAccount, TestAccount, TestAccount, TestAccount, TestAccount, TestAccount];
    for (const fan of [rich, rich2, rich3, blocked, twice]) await fundWallet(app, fan.id, paid * 3);
    await fundWallet(app, poor.id, paid - 1);
    expect((await call('POST', '/api/users/block', creator, { id: blocked.id })).json).toEqual({ statusCode: 1 });
    const chat = createChatService(app.fanstage);
    const message = (fan: TestAccount, msgId = newMsgId(), price = 40) => chat.send(fan.id, { msgId, receiverId: creator.id, text: 'together', mediaId: null, giftId: null, price, confirmation: null });
    const twiceId = newMsgId();
    const [friend, other] = [await createAccount(app), await createAccount(app)];
    const freeId = newMsgId();
    // All in one turn of the event loop: one batch, but for the pair written twice (`twice`), whose second message waits for the next.
    const outcomes = await Promise.allSettled([
      message(rich),
      message(rich2),
      message(rich3, newMsgId(), 10),
      message(poor),
      message(blocked),
      message(twice, twiceId),
      message(twice, twiceId),
      message(twice),
      // A free message, and its msgId again to someone else in the same batch: a resend of the first, not a second message.
      chat.send(poor.id, { msgId: freeId, receiverId: friend.id, text: 'free', mediaId: null, giftId: null, price: 0, confirmation: null }),
      chat.send(poor.id, { msgId: freeId, receiverId: other.id, text: 'free', mediaId: null, giftId: null, price: 0, confirmation: null }),
    ]);
    const [a, b, cheap, broke, refusedBlocked, first, resend, second, free, sameId] = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason)) as [
      SendOutcome,
      SendOutcome,
      SendOutcome,
      SendOutcome,
      unknown,
      SendOutcome,
      SendOutcome,
      SendOutcome,
      SendOutcome,
      SendOutcome,
    ];
    expect(a).toHaveProperty('stored');
    expect((sameId as { stored: { id: number } }).stored.id).toBe((free as { stored: { id: number; receiverId: number } }).stored.id);
    expect((sameId as { stored: { receiverId: number } }).stored.receiverId).toBe(friend.id);
    expect(sameId).toMatchObject({ replayed: true });
    const otherSides = await app.fanstage.db.select({ lastMessageId: chatConversations.lastMessageId }).from(chatConversations).where(eq(chatConversations.userId, other.id));
    expect(otherSides.every((side) => side.lastMessageId === null)).toBe(true);
    expect(b).toHaveProperty('stored');
    expect(cheap).toEqual({ refused: 'notAcceptedPrice', receiverId: creator.id, data: { msgId: expect.any(String), price: 40 } });
    expect(broke).toEqual({ refused: 'noCredit', receiverId: creator.id, data: { msgId: expect.any(String) } });
    expect(refusedBlocked).toMatchObject({ key: 'user-not-found' });
    // The resend of a msgId is the same message, paid once; the pair's next message comes after it.
    expect(first).toHaveProperty('stored');
    expect(resend).toHaveProperty('stored');
    expect((resend as { stored: { id: number } }).stored.id).toBe((first as { stored: { id: number } }).stored.id);
    expect((second as { stored: { sendDt: number } }).stored.sendDt).toBeGreaterThan((first as { stored: { sendDt: number } }).stored.sendDt);
    for (const fan of [rich, rich2]) expect(await walletOf(app, fan.id)).toBe(paid * 2);
    expect(await walletOf(app, rich3.id)).toBe(paid * 3);
    expect(await walletOf(app, poor.id)).toBe(paid - 1);
    expect(await walletOf(app, blocked.id)).toBe(paid * 3);
    expect(await walletOf(app, twice.id)).toBe(paid);
    expect(await earningsOf(app, creator.id)).toBe(40 * 4);
    const transfers = await app.fanstage.db.select().from(ledgerTransfers).where(and(eq(ledgerTransfers.counterpartyId, creator.id), eq(ledgerTransfers.kind, 'chat-message')));
    expect(transfers).toHaveLength(4);
    // The creator's stream: one position each, 1 to 4 without a gap, in the order the messages were stored.
    const stream = await app.fanstage.db.select({ seq: chatStream.seq, messageId: chatStream.messageId }).from(chatStream).where(eq(chatStream.userId, creator.id)).orderBy(chatStream.seq);
    expect(stream.map((row) => row.seq)).toEqual([1, 2, 3, 4]);
    expect(stream.map((row) => row.messageId)).toEqual([...stream.map((row) => row.messageId)].sort((x, y) => x - y));
    const [side] = await app.fanstage.db.select().from(chatConversations).where(and(eq(chatConversations.userId, creator.id), eq(chatConversations.partnerId, twice.id)));
    expect(side).toMatchObject({ sumPrice: 80, lastMessageId: (second as { stored: { id: number } }).stored.id });
    await expectLedgerBalanced(app);
  });

  it('from someone whose e-mail is not verified is refused with emailNotVerified', async () => {
    const unverified = await createAccount(app, { verified: false });
    const other = await createAccount(app);
    const socket = await connect(unverified);
    const msgId = newMsgId();
    expect(await attempt(socket, { msgId, receiverId: other.id })).toEqual({ type: 'eventMessage', event: 'emailNotVerified', userId: other.id, data: { msgId } });
    expect(await storedByMsgId(unverified.id, msgId)).toHaveLength(0);
  });

  it('to oneself answers cannot-target-self, and to someone in a block either way user-not-found', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const c = await createAccount(app);
    expect((await call('POST', '/api/users/block', b, { id: a.id })).json).toEqual({ statusCode: 1 });
    expect((await call('POST', '/api/users/block', a, { id: c.id })).json).toEqual({ statusCode: 1 });
    const sa = await connect(a);
    const self = newMsgId();
    expect(await attempt(sa, { msgId: self, receiverId: a.id })).toEqual({ type: 'error', statusText: 'cannot-target-self', ref: 'chatMessage', msgId: self });
    expect(await attempt(sa, { receiverId: b.id })).toMatchObject({ type: 'error', statusText: 'user-not-found' });
    expect(await attempt(sa, { receiverId: c.id })).toMatchObject({ type: 'error', statusText: 'user-not-found' });
    expect(await attempt(sa, { receiverId: 2_000_000_000 })).toMatchObject({ type: 'error', statusText: 'user-not-found' });
    const sb = await connect(b);
    expect(await attempt(sb, { receiverId: a.id })).toMatchObject({ type: 'error', statusText: 'user-not-found' });
  });

  it('with bad fields answers an error naming the key and the msgId, and the socket stays', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const seller = await createAccount(app, { seller: true });
    const socket = await connect(a);
    const cases: [Record<string, unknown>, string][] = [
      [{ msgId: 'has spaces in it', receiverId: b.id }, 'invalid-request'],
      [{ receiverId: 'b' }, 'invalid-request'],
      [{ receiverId: b.id, text: '   ' }, 'invalid-request'],
      [{ receiverId: b.id, text: 42 }, 'invalid-request'],
      [{ receiverId: b.id, text: 'x'.repeat(ChatLimits.maxTextLength + 1) }, 'message-too-long'],
      [{ receiverId: b.id, price: -5 }, 'invalid-request'],
      [{ receiverId: b.id, mediaId: 2_000_000_000 }, 'upload-not-found'],
      [{ receiverId: b.id, mediaId: await chatPicture(app, b.id) }, 'upload-not-found'],
      [{ receiverId: b.id, mediaId: await chatPicture(app, a.id, 0, { kind: 'post' }) }, 'upload-not-found'],
      [{ receiverId: b.id, mediaId: await chatPicture(app, a.id, 0, { status: 5 }) }, 'media-not-ready'],
      [{ receiverId: seller.id, giftId: 999_999 }, 'gift-not-found'],
    ];
    for (const [fields, key] of cases) {
      const msgId = typeof fields.msgId === 'string' ? undefined : newMsgId();
      const from = socket.mark;
      socket.send({ type: 'chatMessage', text: 'hello', ...fields, ...(msgId === undefined ? {} : { msgId }) });
      const answer = await socket.nextOf('error', from);
      expect(answer.statusText, JSON.stringify(fields).slice(0, 80)).toBe(key);
      expect(answer.ref).toBe('chatMessage');
      if (msgId !== undefined) expect(answer.msgId).toBe(msgId);
    }
    const from = socket.mark;
    socket.send({ type: 'chatReaction', messageId: 'one' });
    expect(await socket.nextOf('error', from)).toMatchObject({ statusText: 'invalid-request', ref: 'chatReaction' });
    await socket.sync();
    expect(socket.socket.readyState).toBe(socket.socket.OPEN);
  });

  it('is free between support and a creator, and a creator’s price for one fan replaces the usual one', async () => {
    const creator = await createAccount(app, { seller: true });
    const support = await createAccount(app, { level: 100 });
    const fan = await createAccount(app);
    await setMessagePrice(app, creator.id, 95);
    await fundWallet(app, fan.id, 1_000);
    const ss = await connect(support);
    expect((await say(ss, { receiverId: creator.id })).price).toBe(0);
    const sc = await connect(creator);
    expect((await say(sc, { receiverId: support.id })).price).toBe(0);
    expect((await call('GET', `/api/chat/conversations?senderId=${creator.id}`, support)).json.body.conversations[0]).toMatchObject({ isSupport: true, price: 0 });

    expect((await call('PUT', '/api/chat/conversations/', creator, { senderId: fan.id, customPrice: 13 })).json).toEqual({ statusCode: 1 });
    const sf = await connect(fan);
    expect(await attempt(sf, { receiverId: creator.id, price: 0 })).toMatchObject({ event: 'notAcceptedPrice', data: { price: 13 } });
    expect((await say(sf, { receiverId: creator.id, price: 13 })).price).toBe(13);
    expect(await walletOf(app, fan.id)).toBe(1_000 - fanPriceCents(13, salt()));
    expect((await call('GET', `/api/chat/conversations?senderId=${creator.id}`, fan)).json.body.conversations[0]).toMatchObject({ price: 13, customPrice: 13 });
    expect((await call('GET', `/api/chat/conversations?senderId=${fan.id}`, creator)).json.body.conversations[0]).toMatchObject({ price: 0, customPrice: 13 });
  });

  it('holding an e-mail, a phone number or a link to a creator is marked suspected for 24 hours', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const other = await createAccount(app);
    const sf = await connect(fan);
    const plain = await say(sf, { receiverId: creator.id, text: 'see you at 8' });
    expect(plain.suspectedState).toBe(0);
    const mail = await say(sf, { receiverId: creator.id, text: 'write me at me@example.com' });
    expect(mail.suspectedState).toBe(1);
    expect((await say(sf, { receiverId: creator.id, text: 'call +420 777 123 456' })).suspectedState).toBe(1);
    expect((await say(sf, { receiverId: creator.id, text: 'www.elsewhere.example' })).suspectedState).toBe(1);
    // Between two fans nothing is at stake.
    expect((await say(sf, { receiverId: other.id, text: 'me@example.com' })).suspectedState).toBe(0);
    const conversation = (await call('GET', `/api/chat/conversations?senderId=${fan.id}`, creator)).json.body.conversations[0];
    expect(conversation.lastSuspectedMessageDate).toBeGreaterThanOrEqual(mail.sendDt);
  });
});

describe('messages racing', () => {
  it('both ways in one pair, from several sockets, with an unlock in between: all stored, each paid once, sendDt strictly rising', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await setMessagePrice(app, creator.id, 16);
    const mediaId = await chatPicture(app, creator.id, 32);
    await app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));
    const each = fanPriceCents(16, salt());
    await fundWallet(app, fan.id, each * 20 + fanPriceCents(32, salt()));
    const fans = [await connect(fan), await connect(fan)];
    const creators = [await connect(creator), await connect(creator)];
    await say(creators[0]!, { receiverId: fan.id, text: '', mediaId });
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      for (const socket of fans) sends.push(say(socket, { receiverId: creator.id, text: `fan ${i}`, price: 16 }));
      for (const socket of creators) sends.push(say(socket, { receiverId: fan.id, text: `creator ${i}` }));
      if (i === 5) sends.push(call('POST', '/api/media/unlock', fan, { id: mediaId, price: 32 }).then((answer) => expect(answer.json.statusCode).toBe(2)));
    }
    await Promise.all(sends);
    const history = (await call('GET', `/api/chat/conversations/${creator.id}?limit=100`, fan)).json.body.messages as { sendDt: number }[];
    expect(history).toHaveLength(41);
    for (let i = 1; i < history.length; i++) expect(history[i]!.sendDt).toBeGreaterThan(history[i - 1]!.sendDt);
    expect(await walletOf(app, fan.id)).toBe(0);
    expect(await earningsOf(app, creator.id)).toBe(16 * 20 + 32);
    expect((await call('GET', `/api/chat/conversations?senderId=${fan.id}`, creator)).json.body.conversations[0].sumPrice).toBe(16 * 20 + 32);
    await expectLedgerBalanced(app);
  });
});

describe('the rate limit', () => {
  it('names the msgId of a draft it refuses, so the client can mark that one failed', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const socket = await connect(a);
    const ids = Array.from({ length: 60 }, () => newMsgId());
    for (const msgId of ids) socket.send({ type: 'chatMessage', msgId, receiverId: b.id, text: 'flood' });
    const refused = await socket.nextOf('error', 0, (m) => m.statusText === 'too-many-requests');
    expect(refused.ref).toBe('chatMessage');
    expect(ids).toContain(refused.msgId);
    for (const msgId of ids) await socket.next(answers(msgId));
  });
});

describe('resume', () => {
  it('sends the messages of the user’s stream after a position, in order, then resumed with the last position', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const c = await createAccount(app);
    const sa = await connect(a);
    expect(sa.received[0]).toMatchObject({ type: 'hello', userId: a.id, chatSeq: 0 });
    const first = await say(sa, { receiverId: b.id, text: 'one' });
    // Each person's stream counts their own messages, sent and received, from 1.
    expect(first.seq).toBe(1);
    // b and c write while a is away.
    sa.close();
    const sb = await connect(b);
    const sc = await connect(c);
    const two = await say(sb, { receiverId: a.id, text: 'two' });
    const three = await say(sc, { receiverId: a.id, text: 'three' });
    expect([two.seq, three.seq]).toEqual([2, 1]);
    await say(sb, { receiverId: c.id, text: 'not for a' });
    const back = await connect(a);
    expect(back.received[0]).toMatchObject({ type: 'hello', userId: a.id, chatSeq: 3 });
    const from = back.mark;
    back.send({ type: 'resume', after: first.seq });
    const resumed = await back.nextOf('resumed', from);
    const got = back.all('chatMessage', from).map((m) => m.message);
    expect(got.map((m) => m.text)).toEqual(['two', 'three']);
    expect(got.map((m) => m.id)).toEqual([two.id, three.id]);
    // As a sees them: positions 2 and 3 of a's stream.
    expect(got.map((m) => m.seq)).toEqual([2, 3]);
    expect(resumed).toEqual({ type: 'resumed', last: 3, more: false });
    // Nothing missed: resumed names the position itself.
    const again = back.mark;
    back.send({ type: 'resume', after: 3 });
    expect(await back.nextOf('resumed', again)).toEqual({ type: 'resumed', last: 3, more: false });
    expect(back.all('chatMessage', again)).toHaveLength(0);
    // A position beyond the stream's end (kept from another database) is brought back to it.
    back.send({ type: 'resume', after: 50 });
    expect(await back.nextOf('resumed', again)).toEqual({ type: 'resumed', last: 3, more: false });
    // The older protocol's message id cursor is refused, not taken as "from the start".
    back.send({ type: 'resume', afterId: 1 });
    expect(await back.nextOf('error', again)).toEqual({ type: 'error', statusText: 'invalid-request', ref: 'resume' });
    // The history over HTTP names the viewer's positions too.
    const history = (await call('GET', `/api/chat/conversations/${b.id}`, a)).json.body as { messages: { text: string; seq?: number }[] };
    expect(history.messages.map((m) => [m.text, m.seq])).toEqual([
      ['one', 1],
      ['two', 2],
    ]);
  });
});

describe('reactions and read receipts', () => {
  it('reach both people; a reaction counts for the author until they read the conversation', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const outsider = await createAccount(app);
    const sa = await connect(a);
    const sb = await connect(b);
    const message = await say(sa, { receiverId: b.id, text: 'react to me' });
    await sb.nextOf('chatMessage');

    let fromA = sa.mark;
    const fromB = sb.mark;
    sb.send({ type: 'chatReaction', messageId: message.id, reactionId: 3 });
    const expected = { type: 'chatReaction', msgId: message.msgId, messageId: message.id, userId: b.id, reactionId: 3 };
    expect(await sa.nextOf('chatReaction', fromA)).toEqual(expected);
    expect(await sb.nextOf('chatReaction', fromB)).toEqual(expected);
    expect(await sa.nextOf('updateCount', fromA)).toMatchObject({ reactions: 1 });
    const [row] = await storedByMsgId(a.id, message.msgId);
    expect(row).toMatchObject({ receiverReactionId: 3, senderReactionId: null });
    const listed = (await call('GET', `/api/chat/conversations?senderId=${b.id}`, a)).json.body.conversations[0];
    expect(listed.lastReactionMessage).toMatchObject({ id: message.id, receiverReactionId: 3 });
    expect((await call('GET', '/api/count/', a)).json.body).toMatchObject({ reactions: 1 });

    // Only the two of them may react.
    const so = await connect(outsider);
    const refused = so.mark;
    so.send({ type: 'chatReaction', messageId: message.id, reactionId: 1 });
    expect(await so.nextOf('error', refused)).toMatchObject({ statusText: 'message-not-found', ref: 'chatReaction' });

    // a reads: b sees double checks, a's reactions count clears.
    fromA = sa.mark;
    const readFrom = sb.mark;
    sa.send({ type: 'chatConvRead', userId: b.id });
    const read = await sb.nextOf('readMessages', readFrom);
    expect(read.userId).toBe(a.id);
    expect(read.readDate).toBeGreaterThanOrEqual(message.sendDt);
    expect(await sa.nextOf('updateCount', fromA)).toMatchObject({ reactions: 0 });
    expect((await call('GET', `/api/chat/conversations?senderId=${a.id}`, b)).json.body.conversations[0].lastReadDate).toBe(read.readDate);

    // b reads: the unread conversation stops counting; removing a reaction reaches both.
    const counted = sb.mark;
    sb.send({ type: 'chatConvRead', userId: a.id });
    expect(await sb.nextOf('updateCount', counted)).toMatchObject({ chats: 0 });
    const removed = sa.mark;
    sb.send({ type: 'chatReaction', messageId: message.id, reactionId: null });
    expect(await sa.nextOf('chatReaction', removed)).toMatchObject({ reactionId: null, userId: b.id });
  });
});

describe('gifts and media in chat', () => {
  it('a gift pays its gValue and earns its cValue, and notifies the creator with chatGift', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const gift = ((await call('GET', '/papi/gifts')).json.body as { id: number; gValue: number; cValue: number }[])[0]!;
    await fundWallet(app, fan.id, gift.gValue);
    const sf = await connect(fan);
    const message = await say(sf, { receiverId: creator.id, text: '', giftId: gift.id });
    expect(message.giftId).toBe(gift.id);
    expect(await walletOf(app, fan.id)).toBe(0);
    expect(await earningsOf(app, creator.id)).toBe(gift.cValue);
    const notes = await app.fanstage.db.select().from(notifications).where(and(eq(notifications.userId, creator.id), eq(notifications.type, 'chatGift')));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ fromUserId: fan.id, giftId: gift.id });
    // The wallet is empty now: the next gift is refused with noCredit.
    expect(await attempt(sf, { receiverId: creator.id, giftId: gift.id })).toMatchObject({ event: 'noCredit' });
    await expectLedgerBalanced(app);
  });

  it('a priced media stays locked for the receiver until unlocked through /api/media/unlock, which pays the sender', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const stranger = await createAccount(app);
    const mediaId = await chatPicture(app, creator.id, 160);
    const sc = await connect(creator);
    const sf = await connect(fan);
    const sent = await say(sc, { receiverId: fan.id, text: 'for you', mediaId });
    expect(sent.media).toMatchObject({ mediaId, mediaPrice: 160, mediaUnlocked: true, mediaIsOwner: true });
    const received = (await sf.nextOf('chatMessage')).message;
    expect(received.media).toMatchObject({ mediaId, mediaPrice: 160, mediaUnlocked: false, mediaUnlockHash: null });

    const price = fanPriceCents(160, salt());
    await fundWallet(app, fan.id, price);
    await app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));
    await app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, stranger.id));
    expect((await call('POST', '/api/media/unlock', stranger, { id: mediaId, price: 160 })).json.statusText).toBe('post-doesnt-exists');
    const fromC = sc.mark;
    const fromF = sf.mark;
    const unlocked = await call('POST', '/api/media/unlock', fan, { id: mediaId, price: 160 });
    expect(unlocked.json.statusCode).toBe(2);
    expect(unlocked.json.body.mediaUnlockHash).toEqual(expect.any(String));
    expect(await walletOf(app, fan.id)).toBe(0);
    expect(await earningsOf(app, creator.id)).toBe(160);
    const data = { mediaId, messageId: sent.id };
    expect(await sc.nextOf('eventMessage', fromC, (m) => m.event === 'mediaUnlock')).toEqual({ type: 'eventMessage', event: 'mediaUnlock', userId: fan.id, data });
    // The fan's own tabs get her key too, so each of them shows the media open.
    expect(await sf.nextOf('eventMessage', fromF, (m) => m.event === 'mediaUnlock')).toEqual({ type: 'eventMessage', event: 'mediaUnlock', userId: creator.id, data: { ...data, mediaUnlockHash: unlocked.json.body.mediaUnlockHash } });
    const notes = await app.fanstage.db.select().from(notifications).where(and(eq(notifications.userId, creator.id), eq(notifications.type, 'chatMediaUnlock')));
    expect(notes).toMatchObject([{ fromUserId: fan.id, mediaId }]);
    // Unlocking again is free, and the history shows it open.
    expect((await call('POST', '/api/media/unlock', fan, { id: mediaId, price: 160 })).json.statusCode).toBe(2);
    const history = (await call('GET', `/api/chat/conversations/${creator.id}`, fan)).json.body;
    expect(history.messages.at(-1).media).toMatchObject({ mediaUnlocked: true, mediaUnlockHash: expect.any(String) });
    expect(history.conversation.sumPrice).toBe(0);
    expect((await call('GET', `/api/chat/conversations?senderId=${fan.id}`, creator)).json.body.conversations[0].sumPrice).toBe(160);
    expect((await call('GET', `/api/media/${mediaId}`, creator)).json.body.earnedCents).toBe(160);
    await expectLedgerBalanced(app);
  });
});

describe('other client messages', () => {
  it('relays no call message blindly: without a call the server knows, signalling is refused (tests/server/calls.test.ts has the calls)', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const sa = await connect(a);
    const sb = await connect(b);
    const from = sa.mark;
    sa.send({ type: 'callMessage', callId: 'c'.repeat(22), callMessageType: 'rtcOffer', receiverId: b.id, callMessageBody: { signal: 'x' } });
    sa.send({ type: 'callMessage', callId: 'call-3', callMessageType: 'dance', receiverId: b.id });
    await sa.sync();
    expect(sa.all('error', from).map((m) => [m.statusText, m.ref])).toEqual([
      ['call-not-found', 'callMessage'],
      ['invalid-request', 'callMessage'],
    ]);
    await sb.sync();
    expect(sb.all('callMessage')).toEqual([]);
  });

  it('records a profile visit once, never one’s own', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const sf = await connect(fan);
    sf.send({ type: 'profileVisit', userId: fan.id, profileUserId: creator.id });
    sf.send({ type: 'profileVisit', profileUserId: creator.id });
    sf.send({ type: 'profileVisit', profileUserId: fan.id });
    await sf.sync();
    const visits = await app.fanstage.db.select().from(notifications).where(and(eq(notifications.userId, creator.id), eq(notifications.type, 'profileVisit')));
    expect(visits).toHaveLength(1);
    const own = await app.fanstage.db.select().from(notifications).where(and(eq(notifications.userId, fan.id), eq(notifications.type, 'profileVisit')));
    expect(own).toHaveLength(0);
  });

  it('tells only creators of profile visits: a fan is not told who opened his profile', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const sc = await connect(creator);
    sc.send({ type: 'profileVisit', profileUserId: fan.id });
    await sc.sync();
    expect(sc.all('error')).toEqual([]);
    const told = await app.fanstage.db.select().from(notifications).where(and(eq(notifications.userId, fan.id), eq(notifications.type, 'profileVisit')));
    expect(told).toHaveLength(0);
  });

  it('lets an author announce a published post of theirs to followers, and nobody else', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    expect((await call('POST', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
    const post = (await call('POST', '/api/posts', creator, { text: 'hello followers' })).json.body.id as number;
    const sf = await connect(fan);
    const sc = await connect(creator);
    const from = sf.mark;
    sc.send({ type: 'newPost', postId: post });
    expect(await sf.nextOf('newPost', from)).toEqual({ type: 'newPost', postId: post, userId: creator.id });
    const refused = sf.mark;
    sf.send({ type: 'newPost', postId: post });
    expect(await sf.nextOf('error', refused)).toMatchObject({ statusText: 'forbidden', ref: 'newPost' });
  });
});

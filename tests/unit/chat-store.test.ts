import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, fanPriceCents, type ChatDraftStorage, type ChatItem, type ChatThread, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import type { ClientMessage } from '../../lib/contract/realtime';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { fundWallet, walletOf } from '../support/money';

let server: TestServer;
let salt = 10_000;
const made: Fanstage[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  salt = server.app.fanstage.config.priceSalt;
}, 60_000);

afterEach(() => {
  for (const fanstage of made.splice(0)) {
    fanstage.socket.disconnect();
    fanstage.session.dispose();
  }
});

afterAll(async () => {
  await server?.close();
});

/**
 * Node's `ws` as the browser's WebSocket, remembering every connection it opens, so a test can
 * cut one the way a network does (no close handshake) and watch the client reconnect, and
 * every message the client sends on them.
 */
function trackedWebSocket() {
  const opened: NodeWebSocket[] = [];
  const frames: ClientMessage[] = [];
  class Tracked extends NodeWebSocket {
    constructor(url: string, protocols: string[]) {
      super(url, protocols);
      opened.push(this);
    }

    override send(data: string): void {
      frames.push(JSON.parse(data) as ClientMessage);
      super.send(data);
    }
  }
  return { Impl: Tracked as unknown as WebSocketConstructor, cut: () => opened.at(-1)?.terminate(), frames };
}

interface Person {
  account: TestAccount;
  fanstage: Fanstage;
  cut: () => void;
  /** Everything the page sent on its sockets. */
  frames: ClientMessage[];
}

interface PageOptions {
  connect?: boolean;
  loadAccount?: boolean;
  reconnectMs?: number;
  /** Where the chat keeps unsent drafts (a page's sessionStorage); none by default here. */
  draftStorage?: ChatDraftStorage | null;
}

async function person(options: AccountOptions = {}, page: PageOptions = {}): Promise<Person> {
  const account = await createAccount(server.app, options);
  return openPage(account, page);
}

/** A page of `account`'s: a fresh Fanstage object, as after a reload. */
async function openPage(account: TestAccount, { connect = true, loadAccount = true, reconnectMs = 50, draftStorage = null }: PageOptions = {}): Promise<Person> {
  const socket = trackedWebSocket();
  const fanstage = createFanstage({
    baseUrl: server.baseUrl,
    socket: { WebSocketImpl: socket.Impl, reconnectMs },
    chat: { ackTimeoutMs: 10_000, resumeTimeoutMs: 3_000, draftStorage },
  });
  made.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  if (loadAccount) await fanstage.session.loadAccount();
  if (connect) await online(fanstage);
  return { account, fanstage, cut: socket.cut, frames: socket.frames };
}

/** A tab's sessionStorage: what one page leaves behind, the next finds. */
interface TabStorage extends ChatDraftStorage {
  map: Map<string, string>;
  /** What the tab holds at this moment, as a reload right now would find it. */
  snapshot(): TabStorage;
}

function tabStorage(): TabStorage {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
    snapshot() {
      const copy = tabStorage();
      for (const [k, v] of map) copy.map.set(k, v);
      return copy;
    },
  };
}

/** The messages the server stored between two people, as the second one's history shows them. */
async function storedMsgIds(viewer: TestAccount, partnerId: number): Promise<string[]> {
  const page = await server.app.inject({ method: 'GET', url: `/api/chat/conversations/${partnerId}`, headers: { authorization: `Bearer ${viewer.accessToken}` } });
  return (page.json() as { body: { messages: { msgId: string }[] } }).body.messages.map((m) => m.msgId);
}

async function online(fanstage: Fanstage): Promise<void> {
  fanstage.socket.connect();
  await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'), { timeout: 5000 });
}

/** A creator whose messages cost `cents` (a chat-message price step), set as they would set it. */
async function creator(cents = 16): Promise<Person> {
  const seller = await person({ seller: true });
  await seller.fanstage.chat.setMessagePrice(cents);
  return seller;
}

async function openThread(who: Person, partnerId: number): Promise<ChatThread> {
  const thread = who.fanstage.chat.thread(partnerId);
  await thread.load();
  expect(thread.loaded.value).toBe(true);
  return thread;
}

function item(thread: ChatThread, msgId: string): ChatItem | undefined {
  return thread.items.value.find((i) => i.msgId === msgId);
}

function sent(thread: ChatThread, text: string): string {
  const result = thread.send({ text });
  if (!result.ok) throw new Error(`not sent: ${result.problem}`);
  return result.msgId;
}

const wait = { timeout: 5000 };

describe('the chat store on the real server', { timeout: 30_000 }, () => {
  it('sends at the price shown: a clock, then one check, then two once the creator read it; the list and badge follow', async () => {
    const lucy = await creator(16);
    const fan = await person();
    await fundWallet(server.app, fan.account.id, 1000);
    await lucy.fanstage.chat.loadConversations();

    const thread = await openThread(fan, lucy.account.id);
    expect(thread.conversation.value).toMatchObject({ id: lucy.account.id, price: 16, isSupport: false, sender: { username: lucy.account.username } });
    const msgId = sent(thread, '  Hello Lucy  ');
    expect(item(thread, msgId)).toMatchObject({ state: 'sending', id: null, text: 'Hello Lucy', mine: true });

    await vi.waitFor(() => expect(item(thread, msgId)).toMatchObject({ state: 'sent', price: 16 }), wait);
    expect(item(thread, msgId)?.id).toBeGreaterThan(0);
    expect(thread.items.value.filter((i) => i.msgId === msgId)).toHaveLength(1);
    expect(await walletOf(server.app, fan.account.id)).toBe(1000 - fanPriceCents(16, salt));

    // The creator's list learns of the new conversation; the Chat badge counts it.
    await vi.waitFor(() => expect(lucy.fanstage.chat.conversations.value).toMatchObject([{ id: fan.account.id, unreadCount: 1, lastMessage: { msgId } }]), wait);
    await vi.waitFor(() => expect(lucy.fanstage.chat.badgeCount.value).toBe(1), wait);

    // She opens it and looks: a read receipt, two checks on the fan's side, her badge clears.
    const hers = await openThread(lucy, fan.account.id);
    hers.setVisible(true);
    await vi.waitFor(() => expect(item(thread, msgId)?.state).toBe('read'), wait);
    await vi.waitFor(() => expect(lucy.fanstage.chat.badgeCount.value).toBe(0), wait);
    expect(lucy.fanstage.chat.conversations.value[0]?.unreadCount).toBe(0);

    // Her answer reaches the fan's open thread; the fan's list (loaded) shows it on top.
    await fan.fanstage.chat.loadConversations();
    const answer = sent(hers, 'Hi there');
    await vi.waitFor(() => expect(item(thread, answer)).toMatchObject({ mine: false, text: 'Hi there', state: 'sent' }), wait);
    expect(fan.fanstage.chat.conversations.value[0]).toMatchObject({ id: lucy.account.id, lastMessage: { msgId: answer } });
  });

  it('fails a message whose price rose after the fan saw it, and accepting the new price sends it once with the same msgId', async () => {
    const lucy = await creator(16);
    const fan = await person();
    await fundWallet(server.app, fan.account.id, 1000);
    const thread = await openThread(fan, lucy.account.id);
    expect(thread.conversation.value?.price).toBe(16);

    await lucy.fanstage.chat.setCustomPrice(fan.account.id, 32);
    const msgId = sent(thread, 'Still 16?');
    await vi.waitFor(() => expect(item(thread, msgId)).toMatchObject({ state: 'failed', failure: 'not_delivered', newPrice: 32 }), wait);
    expect(fan.fanstage.chat.lastFailure.value).toMatchObject({ userId: lucy.account.id, msgId, failure: 'not_delivered' });
    expect(thread.conversation.value?.price).toBe(32);
    expect(await walletOf(server.app, fan.account.id)).toBe(1000);

    expect(thread.acceptPrice(msgId)).toBe(true);
    await vi.waitFor(() => expect(item(thread, msgId)).toMatchObject({ state: 'sent', price: 32, failure: null }), wait);
    expect(thread.items.value.filter((i) => i.msgId === msgId)).toHaveLength(1);
    expect(await walletOf(server.app, fan.account.id)).toBe(1000 - fanPriceCents(32, salt));
  });

  it('fails a message the wallet cannot pay as no_credit and asks for a top-up; once credits are in, a resend is stored', async () => {
    const lucy = await creator(24);
    const fan = await person();
    const thread = await openThread(fan, lucy.account.id);
    const msgId = sent(thread, 'No money yet');
    await vi.waitFor(() => expect(item(thread, msgId)).toMatchObject({ state: 'failed', failure: 'no_credit' }), wait);
    expect(fan.fanstage.chat.prompt.value).toEqual({ kind: 'topUp', userId: lucy.account.id, msgId });
    fan.fanstage.chat.clearPrompt();

    await fundWallet(server.app, fan.account.id, 500);
    expect(thread.resend(msgId)).toBe(true);
    expect(item(thread, msgId)?.state).toBe('sending');
    await vi.waitFor(() => expect(item(thread, msgId)).toMatchObject({ state: 'sent', price: 24 }), wait);
    expect(await walletOf(server.app, fan.account.id)).toBe(500 - fanPriceCents(24, salt));
  });

  it('holds back a message from an unverified e-mail: at once when the account says so, by the server otherwise', async () => {
    const lucy = await creator(0);
    const known = await person({ verified: false });
    const thread = await openThread(known, lucy.account.id);
    const msgId = sent(thread, 'Waiting');
    expect(item(thread, msgId)).toMatchObject({ state: 'failed', failure: 'waiting_for_email' });
    expect(known.fanstage.chat.prompt.value).toMatchObject({ kind: 'verifyEmail', msgId });

    // A page that has not loaded the account yet: the server refuses, with the same outcome.
    const unknown = await person({ verified: false }, { loadAccount: false });
    const other = await openThread(unknown, lucy.account.id);
    const second = sent(other, 'Waiting too');
    await vi.waitFor(() => expect(item(other, second)).toMatchObject({ state: 'failed', failure: 'waiting_for_email' }), wait);
    expect(unknown.fanstage.chat.prompt.value).toMatchObject({ kind: 'verifyEmail', msgId: second });
    await lucy.fanstage.chat.reloadConversations();
    expect(lucy.fanstage.chat.conversations.value).toEqual([]);
  });

  it('refuses at once while offline and queues nothing; sent again once connected, it goes', async () => {
    const lucy = await creator(0);
    const fan = await person();
    const thread = await openThread(fan, lucy.account.id);
    fan.fanstage.socket.disconnect();
    const msgId = sent(thread, 'Anyone there?');
    expect(item(thread, msgId)).toMatchObject({ state: 'failed', failure: 'not_delivered-general', reason: 'message_not_send-offline' });

    await online(fan.fanstage);
    // Reconnecting sent nothing by itself.
    await lucy.fanstage.chat.reloadConversations();
    expect(lucy.fanstage.chat.conversations.value).toEqual([]);
    expect(item(thread, msgId)?.state).toBe('failed');

    thread.resend(msgId);
    await vi.waitFor(() => expect(item(thread, msgId)?.state).toBe('sent'), wait);
    // A stored message is no draft: there is nothing to delete.
    thread.discard(msgId);
    expect(item(thread, msgId)?.state).toBe('sent');
  });

  it('deletes a failed draft on request', async () => {
    const lucy = await creator(0);
    const fan = await person({}, { connect: false });
    const thread = await openThread(fan, lucy.account.id);
    const msgId = sent(thread, 'draft');
    expect(item(thread, msgId)?.state).toBe('failed');
    thread.discard(msgId);
    expect(item(thread, msgId)).toBeUndefined();
  });

  it('keeps a message once when the server echoes it again', async () => {
    const lucy = await creator(0);
    const fan = await person();
    const thread = await openThread(fan, lucy.account.id);
    const msgId = sent(thread, 'Once');
    await vi.waitFor(() => expect(item(thread, msgId)?.state).toBe('sent'), wait);
    const echoes: string[] = [];
    const stop = fan.fanstage.socket.on('chatMessage', (m) => echoes.push(m.message.msgId));
    // The same msgId again, as a resend after a lost answer would be: the server echoes the stored one.
    expect(fan.fanstage.socket.send({ type: 'chatMessage', msgId, receiverId: lucy.account.id, text: 'Once' })).toBe(true);
    await vi.waitFor(() => expect(echoes).toEqual([msgId]), wait);
    stop();
    expect(thread.items.value.filter((i) => i.msgId === msgId)).toHaveLength(1);
  });

  it('carries reactions and typing to the partner; a reaction counts on the badge until the conversation is read', async () => {
    const lucy = await creator(0);
    const fan = await person();
    const thread = await openThread(fan, lucy.account.id);
    const msgId = sent(thread, 'React to this');
    await vi.waitFor(() => expect(item(thread, msgId)?.id).toEqual(expect.any(Number)), wait);
    const hers = await openThread(lucy, fan.account.id);
    await vi.waitFor(() => expect(item(hers, msgId)?.text).toBe('React to this'), wait);

    expect(hers.react(item(hers, msgId)!.id as number, 1)).toBe(true);
    expect(item(hers, msgId)?.receiverReactionId).toBe(1);
    await vi.waitFor(() => expect(item(thread, msgId)?.receiverReactionId).toBe(1), wait);
    await vi.waitFor(() => expect(fan.fanstage.chat.counts.value.reactions).toBe(1), wait);
    thread.setVisible(true);
    await vi.waitFor(() => expect(fan.fanstage.chat.counts.value.reactions).toBe(0), wait);

    thread.typing();
    await vi.waitFor(() => expect(lucy.fanstage.chat.activity.value.get(fan.account.id)).toBe('typing'), wait);
    expect(hers.partnerActivity.value).toBe('typing');
    thread.stopTyping();
    await vi.waitFor(() => expect(hers.partnerActivity.value).toBeNull(), wait);
  });

  it('lets a message a moderator deleted go from both open threads, the preview falling back to the one before, and the badge following', async () => {
    const lucy = await creator(0);
    const fan = await person();
    const admin = await createAccount(server.app, { level: 500 });
    const thread = await openThread(fan, lucy.account.id);
    const hello = sent(thread, 'Hello Lucy');
    const hers = await openThread(lucy, fan.account.id);
    await vi.waitFor(() => expect(item(hers, hello)?.id).toEqual(expect.any(Number)), wait);
    const spam = sent(hers, 'Write to me somewhere else');
    await vi.waitFor(() => expect(item(thread, spam)?.id).toEqual(expect.any(Number)), wait);
    await fan.fanstage.chat.loadConversations();
    await vi.waitFor(() => expect(fan.fanstage.chat.conversation(lucy.account.id).value).toMatchObject({ unreadCount: 1, lastMessage: { msgId: spam } }), wait);
    await vi.waitFor(() => expect(fan.fanstage.chat.counts.value.chats).toBe(1), wait);

    // The fan reports it and an administrator deletes it.
    const as = (account: TestAccount) => ({ authorization: `Bearer ${account.accessToken}` });
    const reported = await server.app.inject({ method: 'POST', url: '/api/abuse', headers: as(fan.account), payload: { type: 'message', id: item(thread, spam)!.id, reason: 'spam' } });
    const reportId = (reported.json() as { body: { id: number } }).body.id;
    const deleted = await server.app.inject({ method: 'POST', url: `/api/admin/abuse/${reportId}/delete-message`, headers: as(admin) });
    expect(deleted.json()).toMatchObject({ statusCode: 2, body: { action: 'delete-message' } });

    await vi.waitFor(() => expect(item(thread, spam)).toBeUndefined(), wait);
    await vi.waitFor(() => expect(item(hers, spam)).toBeUndefined(), wait);
    expect(item(thread, hello)?.text).toBe('Hello Lucy');
    expect(item(hers, hello)?.text).toBe('Hello Lucy');
    await vi.waitFor(() => expect(fan.fanstage.chat.conversation(lucy.account.id).value).toMatchObject({ unreadCount: 0, lastMessage: { msgId: hello } }), wait);
    await vi.waitFor(() => expect(fan.fanstage.chat.counts.value.chats).toBe(0), wait);
  });

  it('pages the history back by sendDt, newest at the bottom', async () => {
    const lucy = await creator(0);
    const fan = await person();
    const writer = await openThread(fan, lucy.account.id);
    const ids: string[] = [];
    for (let i = 0; i < 33; i++) ids.push(sent(writer, `message ${i}`));
    await vi.waitFor(() => expect(writer.items.value.filter((i) => i.state === 'sent')).toHaveLength(33), wait);

    const reader = lucy.fanstage.chat.thread(fan.account.id);
    await reader.load();
    expect(reader.items.value).toHaveLength(30);
    expect(reader.items.value.at(-1)?.text).toBe('message 32');
    expect(reader.status.value).toBe('ready');
    await reader.loadOlder();
    expect(reader.items.value.map((i) => i.msgId)).toEqual(ids);
    expect(reader.status.value).toBe('ended');
    // Time markers: the first message is dated; the rest came within minutes.
    expect(reader.rows.value.filter((row) => row.kind === 'gap')).toHaveLength(1);
  });

  it('after a dropped connection, resumes what was missed once, and sends a draft that got no answer again with its msgId', async () => {
    const lucy = await creator(0);
    const fan = await person({}, { reconnectMs: 400 });
    const thread = await openThread(fan, lucy.account.id);
    await fan.fanstage.chat.loadConversations();
    const first = sent(thread, 'before the drop');
    await vi.waitFor(() => expect(item(thread, first)?.state).toBe('sent'), wait);
    const hers = await openThread(lucy, fan.account.id);

    // Cut right after sending: the message may or may not have reached the server.
    const pending = sent(thread, 'in flight');
    fan.cut();
    const missed = [sent(hers, 'while you were away 1'), sent(hers, 'while you were away 2')];
    await vi.waitFor(() => expect(missed.map((m) => item(hers, m)?.state)).toEqual(['sent', 'sent']), wait);

    await vi.waitFor(() => expect(fan.fanstage.socket.connectedState.value).toBe('open'), wait);
    await vi.waitFor(() => expect(missed.map((m) => item(thread, m)?.text)).toEqual(['while you were away 1', 'while you were away 2']), wait);
    await vi.waitFor(() => expect(item(thread, pending)?.state).toBe('sent'), wait);
    const all = thread.items.value.map((i) => i.msgId);
    expect(new Set(all).size).toBe(all.length);
    // Stored exactly once on the server, whichever way it went.
    await vi.waitFor(async () => {
      const page = await server.app.inject({ method: 'GET', url: `/api/chat/conversations/${fan.account.id}`, headers: { authorization: `Bearer ${lucy.account.accessToken}` } });
      const messages = (page.json() as { body: { messages: { msgId: string }[] } }).body.messages;
      expect(messages.filter((m) => m.msgId === pending)).toHaveLength(1);
    }, wait);
    // The list was read again after the resume: two unread, counted once.
    await vi.waitFor(() => expect(fan.fanstage.chat.conversations.value[0]).toMatchObject({ id: lucy.account.id, unreadCount: 2 }), wait);
  });

  it('catches up when the server says its link to the other nodes is back: what passed the socket by arrives once, and the list is read again', async () => {
    const lucy = await creator(0);
    const fan = await person();
    const thread = await openThread(fan, lucy.account.id);
    await fan.fanstage.chat.loadConversations();
    const hers = await openThread(lucy, fan.account.id);
    const first = sent(hers, 'live');
    await vi.waitFor(() => expect(item(thread, first)?.state).toBe('sent'), wait);

    // What a node misses while Redis is away, made here on one node: the fan's deliveries are
    // lost (a fault the one-node server cannot produce), the messages stored as ever.
    const realtime = server.app.fanstage.realtime;
    const publish = realtime.publish.bind(realtime);
    realtime.publish = (userIds, message, options) => {
      const kept = (Array.isArray(userIds) ? userIds : [userIds]).filter((id) => id !== fan.account.id);
      if (kept.length > 0) publish(kept, message, options);
    };
    let missed: string[];
    try {
      missed = [sent(hers, 'passed by 1'), sent(hers, 'passed by 2')];
      await vi.waitFor(() => expect(missed.map((m) => item(hers, m)?.state)).toEqual(['sent', 'sent']), wait);
      expect(missed.map((m) => item(thread, m))).toEqual([undefined, undefined]);
    } finally {
      realtime.publish = publish;
    }
    expect(fan.fanstage.socket.connectedState.value).toBe('open');
    realtime.publish(fan.account.id, { type: 'catchUp' });
    await vi.waitFor(() => expect(missed.map((m) => item(thread, m)?.text)).toEqual(['passed by 1', 'passed by 2']), wait);
    const all = thread.items.value.map((i) => i.msgId);
    expect(new Set(all).size).toBe(all.length);
    await vi.waitFor(() => expect(fan.fanstage.chat.conversations.value[0]).toMatchObject({ id: lucy.account.id, lastMessage: { msgId: missed[1] } }), wait);
  });

  it('resumes after the last position of its stream, for conversations it never opened: previews and unread counts follow, each message once', async () => {
    const lucy = await creator(0);
    const anna = await person();
    const bob = await person();
    const chat = lucy.fanstage.chat;
    await chat.loadConversations();
    const toLucy = await openThread(anna, lucy.account.id);
    const first = sent(toLucy, 'one');
    await vi.waitFor(() => expect(chat.conversations.value).toMatchObject([{ id: anna.account.id, unreadCount: 1, lastMessage: { msgId: first } }]), wait);

    // Away: nothing reaches her page, and the list is not read again when she is back — what
    // she learns of it, she learns by resuming.
    lucy.fanstage.socket.disconnect();
    const away = [sent(toLucy, 'two'), sent(toLucy, 'three')];
    const fromBob = await openThread(bob, lucy.account.id);
    away.push(sent(fromBob, 'hi, I am new'));
    await vi.waitFor(() => expect([...away.slice(0, 2).map((m) => item(toLucy, m)?.state), item(fromBob, away[2]!)?.state]).toEqual(['sent', 'sent', 'sent']), wait);
    const arrived: string[] = [];
    lucy.fanstage.socket.on('chatMessage', ({ message }) => arrived.push(message.msgId));
    await online(lucy.fanstage);

    // Her stream held one message (position 1): she asks for what came after it.
    expect(lucy.frames.filter((f) => f.type === 'resume').at(-1)).toEqual({ type: 'resume', after: 1 });
    await vi.waitFor(
      () =>
        expect(chat.conversations.value).toMatchObject([
          { id: bob.account.id, unreadCount: 1, lastMessage: { msgId: away[2] } },
          { id: anna.account.id, unreadCount: 3, lastMessage: { msgId: away[1] } },
        ]),
      wait,
    );
    expect(arrived).toEqual(away);
    // Back again: nothing new, nothing sent twice.
    lucy.fanstage.socket.disconnect();
    const resumed = new Promise((resolve) => lucy.fanstage.socket.on('resumed', resolve));
    await online(lucy.fanstage);
    expect(lucy.frames.filter((f) => f.type === 'resume').at(-1)).toEqual({ type: 'resume', after: 4 });
    expect(await resumed).toEqual({ type: 'resumed', last: 4, more: false });
    expect(arrived).toEqual(away);
  });

  it('a page that loaded its list before connecting resumes after the highest position it holds; holding nothing, it starts where hello says', async () => {
    const lucy = await creator(0);
    const anna = await person();
    const toLucy = await openThread(anna, lucy.account.id);
    const before = sent(toLucy, 'before the page');
    await vi.waitFor(() => expect(item(toLucy, before)?.state).toBe('sent'), wait);

    const page = await openPage(lucy.account, { connect: false });
    await page.fanstage.chat.loadConversations();
    expect(page.fanstage.chat.conversations.value[0]?.lastMessage).toMatchObject({ msgId: before, seq: 1 });
    const between = sent(toLucy, 'before the socket');
    await vi.waitFor(() => expect(item(toLucy, between)?.state).toBe('sent'), wait);
    await online(page.fanstage);
    expect(page.frames.find((f) => f.type === 'resume')).toEqual({ type: 'resume', after: 1 });
    await vi.waitFor(() => expect(page.fanstage.chat.conversations.value[0]).toMatchObject({ lastMessage: { msgId: between }, unreadCount: 2 }), wait);

    // A page holding nothing does not ask for the whole history: it takes hello's position.
    const bare = await openPage(lucy.account);
    expect(bare.fanstage.socket.hello.value?.chatSeq).toBe(2);
    expect(bare.frames.filter((f) => f.type === 'resume')).toEqual([]);
    bare.fanstage.socket.disconnect();
    const later = sent(toLucy, 'while the bare page was away');
    await vi.waitFor(() => expect(item(toLucy, later)?.state).toBe('sent'), wait);
    await online(bare.fanstage);
    expect(bare.frames.filter((f) => f.type === 'resume')).toEqual([{ type: 'resume', after: 2 }]);
    await vi.waitFor(() => expect(bare.fanstage.chat.conversation(anna.account.id).value?.lastMessage).toMatchObject({ msgId: later, seq: 3 }), wait);
  });

  it('after its mass message, the sender resumes past the positions of its copies: they are not sent back one by one', async () => {
    const lucy = await creator(0);
    const fans = [await person(), await person()];
    for (const fan of fans) await fan.fanstage.relations.follow(lucy.account.id);
    await lucy.fanstage.chat.mass.send('followers', { text: 'hello both' });
    lucy.fanstage.socket.disconnect();
    const arrived: number[] = [];
    lucy.fanstage.socket.on('chatMessage', ({ message }) => arrived.push(message.id));
    const resumed = new Promise((resolve) => lucy.fanstage.socket.on('resumed', resolve));
    await online(lucy.fanstage);
    expect(lucy.frames.filter((f) => f.type === 'resume').at(-1)).toEqual({ type: 'resume', after: 2 });
    expect(await resumed).toEqual({ type: 'resumed', last: 2, more: false });
    expect(arrived).toEqual([]);
  });

  it('searches conversations, archives one until the next message, and sends a mass message to followers', async () => {
    const lucy = await creator(0);
    const anna = await person({ username: `anna_${Date.now().toString(36)}` });
    const bob = await person({ username: `bob_${Date.now().toString(36)}` });
    for (const fan of [anna, bob]) {
      const thread = await openThread(fan, lucy.account.id);
      const msgId = sent(thread, `hi from ${fan.account.username}`);
      await vi.waitFor(() => expect(item(thread, msgId)?.state).toBe('sent'), wait);
    }
    const chat = lucy.fanstage.chat;
    await chat.loadConversations();
    expect(chat.conversations.value.map((c) => c.id)).toEqual([bob.account.id, anna.account.id]);

    await chat.search(anna.account.username.slice(0, 8));
    expect(chat.conversations.value.map((c) => c.id)).toEqual([anna.account.id]);
    await chat.search('');

    await chat.archive(bob.account.id);
    expect(chat.conversations.value.map((c) => c.id)).toEqual([anna.account.id]);
    await chat.reloadConversations();
    expect(chat.conversations.value.map((c) => c.id)).toEqual([anna.account.id]);
    sent(bob.fanstage.chat.thread(lucy.account.id), 'me again');
    await vi.waitFor(() => expect(chat.conversations.value.map((c) => c.id)).toEqual([bob.account.id, anna.account.id]), wait);

    // A fan who follows her gets her mass message as a chat message.
    await anna.fanstage.relations.follow(lucy.account.id);
    await anna.fanstage.chat.loadConversations();
    const mass = await chat.mass.send('followers', { text: 'News for my followers' });
    expect(mass).toMatchObject({ recGroup: 'followers', text: 'News for my followers', recipientsCount: 1 });
    await vi.waitFor(() => expect(anna.fanstage.chat.conversations.value[0]?.lastMessage).toMatchObject({ text: 'News for my followers', massId: mass.id }), wait);

    // Only sellers price conversations or send to groups.
    await expect(anna.fanstage.chat.setCustomPrice(lucy.account.id, 16)).rejects.toMatchObject({ code: 'verify-required' });
    await expect(anna.fanstage.chat.mass.send('followers', { text: 'nope' })).rejects.toMatchObject({ code: 'verify-required' });
  });

  it('takes the Chat badge from GET /api/count/ and forgets everything at logout', async () => {
    const lucy = await creator(0);
    const fan = await person();
    const thread = await openThread(fan, lucy.account.id);
    sent(thread, 'count me');
    // One notification of Lucy's, so the shared answer visibly sets the notifications badge too.
    await fan.fanstage.relations.follow(lucy.account.id);
    lucy.fanstage.socket.disconnect();
    await vi.waitFor(async () => {
      await lucy.fanstage.chat.refreshCounts();
      expect(lucy.fanstage.chat.counts.value).toEqual({ chats: 1, reactions: 0 });
    }, wait);
    expect(lucy.fanstage.notifications.unreadCount.value).toBe(1);
    await lucy.fanstage.chat.loadConversations();
    expect(lucy.fanstage.chat.conversations.value).toHaveLength(1);

    await lucy.fanstage.session.logout();
    expect(lucy.fanstage.chat.conversations.value).toEqual([]);
    expect(lucy.fanstage.chat.badgeCount.value).toBe(0);
  });
  it('keeps a draft refused offline across a reload: the next page shows it failed, and sending it again stores it once', async () => {
    const lucy = await creator(0);
    const tab = tabStorage();
    const fan = await person({}, { draftStorage: tab });
    const thread = await openThread(fan, lucy.account.id);
    const delivered = sent(thread, 'before going offline');
    await vi.waitFor(() => expect(item(thread, delivered)?.state).toBe('sent'), wait);

    fan.fanstage.socket.disconnect();
    const msgId = sent(thread, 'written offline');
    expect(item(thread, msgId)).toMatchObject({ state: 'failed', reason: 'message_not_send-offline' });
    // The page goes away (a reload) with the draft unsent.
    fan.fanstage.chat.dispose();

    const again = await openPage(fan.account, { draftStorage: tab });
    const next = again.fanstage.chat.thread(lucy.account.id);
    // Shown at once, before the history arrives.
    expect(item(next, msgId)).toMatchObject({ id: null, text: 'written offline', state: 'failed', failure: 'not_delivered-general', reason: 'message_not_send-offline', mine: true });
    await next.load();
    expect(next.items.value.map((i) => i.msgId)).toEqual([delivered, msgId]);

    expect(next.resend(msgId)).toBe(true);
    await vi.waitFor(() => expect(item(next, msgId)).toMatchObject({ state: 'sent', failure: null }), wait);
    expect(next.items.value.filter((i) => i.msgId === msgId)).toHaveLength(1);
    expect((await storedMsgIds(lucy.account, fan.account.id)).filter((m) => m === msgId)).toHaveLength(1);
    // Stored: nothing is kept for it any more, so a third page does not bring it back.
    expect([...tab.map.keys()].filter((k) => k.startsWith('fanstage.chatDrafts.'))).toEqual([]);
    const third = await openPage(fan.account, { draftStorage: tab });
    const last = await openThread(third, lucy.account.id);
    expect(last.items.value.filter((i) => i.msgId === msgId)).toMatchObject([{ state: 'sent' }]);
  });

  it('a reload while a message was on its way: stored ones show once from the history, the others come back failed and go once', async () => {
    const lucy = await creator(0);
    const tab = tabStorage();
    const fan = await person({}, { draftStorage: tab });
    const thread = await openThread(fan, lucy.account.id);

    // The page is reloaded right after sending: the draft was kept while on its way.
    const stored = sent(thread, 'made it before the reload');
    const left = tab.snapshot();
    await vi.waitFor(() => expect(item(thread, stored)?.state).toBe('sent'), wait);
    // A second one that never left this page (the reload came first).
    const lost = 'never-left-0001';
    const kept = JSON.parse(left.getItem(`fanstage.chatDrafts.${fan.account.id}.${lucy.account.id}`) as string) as object[];
    left.setItem(
      `fanstage.chatDrafts.${fan.account.id}.${lucy.account.id}`,
      JSON.stringify([...kept, { ...kept[0], msgId: lost, text: 'lost in the reload', sendDt: Date.now() }]),
    );
    fan.fanstage.chat.dispose();

    const again = await openPage(fan.account, { draftStorage: left });
    const next = again.fanstage.chat.thread(lucy.account.id);
    expect(item(next, lost)).toMatchObject({ state: 'failed', failure: 'not_delivered-general', reason: null });
    await next.load();
    // The stored one once, from the history; the kept copy of it is dropped.
    expect(next.items.value.filter((i) => i.msgId === stored)).toMatchObject([{ state: 'sent' }]);
    expect(next.items.value.map((i) => i.msgId)).toEqual([stored, lost]);
    expect(JSON.parse(left.getItem(`fanstage.chatDrafts.${fan.account.id}.${lucy.account.id}`) as string)).toMatchObject([{ msgId: lost }]);

    // Sending it again (twice, as an impatient person might) stores it once.
    expect(next.resend(lost)).toBe(true);
    await vi.waitFor(() => expect(item(next, lost)?.state).toBe('sent'), wait);
    expect(next.resend(lost)).toBe(false);
    const onServer = await storedMsgIds(lucy.account, fan.account.id);
    expect(onServer.filter((m) => m === stored)).toHaveLength(1);
    expect(onServer.filter((m) => m === lost)).toHaveLength(1);
  });

  it('forgets kept drafts when discarded and at logout, and never shows one person\'s drafts to another', async () => {
    const lucy = await creator(0);
    const tab = tabStorage();
    const fan = await person({}, { draftStorage: tab });
    const thread = await openThread(fan, lucy.account.id);
    fan.fanstage.socket.disconnect();
    const dropped = sent(thread, 'thrown away');
    const kept = sent(thread, 'kept until logout');
    const key = `fanstage.chatDrafts.${fan.account.id}.${lucy.account.id}`;
    expect(JSON.parse(tab.getItem(key) as string)).toMatchObject([{ msgId: dropped }, { msgId: kept }]);
    thread.discard(dropped);
    expect(JSON.parse(tab.getItem(key) as string)).toMatchObject([{ msgId: kept }]);

    // Someone else on the same tab sees none of them.
    const other = await person({}, { draftStorage: tab });
    expect(other.fanstage.chat.thread(lucy.account.id).items.value).toEqual([]);

    await fan.fanstage.session.logout();
    expect([...tab.map.keys()].filter((k) => k.startsWith(`fanstage.chatDrafts.${fan.account.id}`))).toEqual([]);
  });
});

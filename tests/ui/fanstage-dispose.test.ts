import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, type CallMediaDevices, type CallPeerConstructor, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import type { TestServer } from '../support/server';
import { createAccount, type AccountOptions } from '../support/accounts';
import { fundWallet } from '../support/money';
import { startRealServer } from './support/realServer';

/**
 * `fanstage.dispose()` on the real server: two pages ring each other, chat and read their
 * notifications, then are thrown away. What they put on the window, the document and the
 * socket is counted as it comes and goes; after `dispose()` nothing of theirs remains.
 */

let server: TestServer;
const wait = { timeout: 5000 };

beforeAll(async () => {
  server = await startRealServer({ seed: false });
}, 60_000);

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

type Listening = { target: EventTarget; type: string; listener: unknown; capture: boolean };

/** Every listener added to the window and the document from now on and not yet removed. */
function countListeners() {
  const held: Listening[] = [];
  const capture = (options: unknown) => (typeof options === 'boolean' ? options : !!(options as { capture?: boolean } | undefined)?.capture);
  const spies = [window, document].flatMap((target) => {
    const add = target.addEventListener.bind(target);
    const remove = target.removeEventListener.bind(target);
    return [
      vi.spyOn(target, 'addEventListener').mockImplementation((type, listener, options) => {
        const entry = { target, type, listener, capture: capture(options) };
        if (!held.some((h) => h.target === target && h.type === type && h.listener === listener && h.capture === entry.capture)) held.push(entry);
        add(type, listener, options);
      }),
      vi.spyOn(target, 'removeEventListener').mockImplementation((type, listener, options) => {
        const index = held.findIndex((h) => h.target === target && h.type === type && h.listener === listener && h.capture === capture(options));
        if (index >= 0) held.splice(index, 1);
        remove(type, listener, options);
      }),
    ];
  });
  return {
    held: () => held.map((h) => `${h.target === window ? 'window' : 'document'}:${h.type}`),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

const camera: CallMediaDevices = {
  getUserMedia() {
    const tracks = (['audio', 'video'] as const).map((kind) => ({ kind, enabled: true, stop() {} }));
    return Promise.resolve({
      getTracks: () => tracks,
      getAudioTracks: () => tracks.filter((t) => t.kind === 'audio'),
      getVideoTracks: () => tracks.filter((t) => t.kind === 'video'),
    } as unknown as MediaStream);
  },
};

/** These pages end their call before media flow: no peer is ever made. */
const NoPeer = class {
  constructor() {
    throw new Error('no WebRTC in jsdom');
  }
} as unknown as CallPeerConstructor;

async function page(options: AccountOptions = {}) {
  const account = await createAccount(server.app, options);
  // The network's `online` comes from the window, as on a real page.
  const fanstage = createFanstage({
    baseUrl: server.baseUrl,
    socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 50 },
    calls: { Peer: NoPeer, mediaDevices: camera },
    chat: { draftStorage: null },
  });
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  fanstage.socket.connect();
  await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'), wait);
  return { account, fanstage };
}

let counter: ReturnType<typeof countListeners> | null = null;
afterEach(() => {
  counter?.restore();
  counter = null;
});

describe('fanstage.dispose()', { timeout: 30_000 }, () => {
  it('leaves no listener on the window, the document or the socket once calls, chat and notifications were used', async () => {
    counter = countListeners();
    const lucy = await page({ seller: true });
    lucy.fanstage.session.setAccount(await lucy.fanstage.account.updateMe({ callPrice: 128, displayName: 'Lucy' }));
    const marek = await page();
    await fundWallet(server.app, marek.account.id, 10_000);
    const pages: Fanstage[] = [lucy.fanstage, marek.fanstage];

    // A call rings and is hung up.
    const started = await marek.fanstage.calls.start({ id: lucy.account.id, username: lucy.account.username, callPrice: 128 });
    expect(started.ok).toBe(true);
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('ringing'), wait);
    marek.fanstage.calls.hangUp();
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('idle'), wait);

    // A chat message goes both ways' lists.
    const hers = lucy.fanstage.chat.thread(marek.account.id);
    await hers.load();
    const his = marek.fanstage.chat.thread(lucy.account.id);
    await his.load();
    expect(his.send({ text: 'Hello Lucy' })).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(hers.items.value.length).toBe(1), wait);
    await marek.fanstage.chat.loadConversations();

    // Notifications and their badge.
    await lucy.fanstage.notifications.refreshCount();
    await lucy.fanstage.notifications.list('all').start();

    // While they live, they listen: the calls store to the window's `online`, every store to the socket.
    expect(counter.held()).toContain('window:online');
    for (const fanstage of pages) expect(fanstage.socket.listenerCount()).toBeGreaterThan(10);

    for (const fanstage of pages) fanstage.dispose();
    expect(counter.held()).toEqual([]);
    for (const fanstage of pages) {
      expect(fanstage.socket.listenerCount()).toBe(0);
      expect(fanstage.socket.connectedState.value).toBe('closed');
    }
    // Twice is harmless.
    marek.fanstage.dispose();
    expect(marek.fanstage.socket.listenerCount()).toBe(0);
  });
});

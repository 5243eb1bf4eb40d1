import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, fanPriceCents, SPEND_ANSWER_MESSAGE, type Fanstage, type MessageSource, type PopupHandle, type SpendConfirmer, type WebSocketConstructor } from '../../lib/sdk';
import type { ClientMessage } from '../../lib/contract/realtime';
import type { SpendRequest } from '../../lib/contract';
import type { AccessTokenBody, Gift } from '../../lib/contract';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { fundWallet, walletOf } from '../support/money';

/**
 * The SDK's side of a widget's spend that needs the fan's word (docs/spending.md), against the
 * real server: the client meets `confirmation-required`, the popup confirmer opens the platform's
 * page, the fan answers there (here: the API with his platform session, as the page does), and
 * the spend goes once — or not at all.
 */
const platformOrigin = 'https://fanstage.example';
const partnerOrigin = 'https://lucy.example';

let server: TestServer;
let fan: TestAccount;
let creator: TestAccount;
let gift: Gift;
const made: Fanstage[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  fan = await createAccount(server.app);
  creator = await createAccount(server.app, { seller: true });
  gift = ((await server.app.inject({ url: '/papi/gifts' })).json() as { body: Gift[] }).body[0]!;
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

/** A popup and the window's message events, without a browser: the test posts what the popup would. */
function fakeWindow(blocked = false) {
  const listeners = new Set<(event: MessageEvent) => void>();
  const messages: MessageSource = {
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener),
  };
  const popup: PopupHandle & { closed: boolean; url?: string } = {
    closed: false,
    close() {
      this.closed = true;
    },
  };
  const opened: string[] = [];
  const open = (url: string) => {
    opened.push(url);
    popup.url = url;
    return blocked ? null : popup;
  };
  const post = (data: unknown, origin = platformOrigin, source: unknown = popup) => {
    for (const listener of [...listeners]) listener({ data, origin, source } as MessageEvent);
  };
  return { messages, popup, open, opened, post, listeners };
}

/** A widget's Fanstage on the partner's page, signed in through the site's consent (no allowance). */
async function widget(win: ReturnType<typeof fakeWindow>, extra: { confirmer?: SpendConfirmer; WebSocketImpl?: WebSocketConstructor } = {}): Promise<Fanstage> {
  const issued = await server.app.inject({ method: 'POST', url: '/api/embed/code', headers: { authorization: `Bearer ${fan.accessToken}` }, payload: { origin: partnerOrigin, allow: true } });
  const code = (issued.json() as { body: { code: string } }).body.code;
  const exchanged = await server.app.inject({ method: 'POST', url: '/papi/embed/exchange', headers: { origin: partnerOrigin }, payload: { code, origin: partnerOrigin } });
  const fanstage = createFanstage({
    baseUrl: server.baseUrl,
    session: { mode: 'body' },
    spendConfirmation: extra.confirmer ?? { platformOrigin, open: win.open, messages: win.messages, pollMs: 10 },
    ...(extra.WebSocketImpl ? { socket: { WebSocketImpl: extra.WebSocketImpl } } : {}),
  });
  made.push(fanstage);
  fanstage.session.adopt((exchanged.json() as { body: AccessTokenBody }).body);
  await fanstage.loadStores();
  return fanstage;
}

/** What the platform's page does for the fan: his own session answers the request. */
async function answer(id: string, what: 'confirm' | 'cancel') {
  const response = await server.app.inject({ method: 'POST', url: `/api/spend-requests/${id}/${what}`, headers: { authorization: `Bearer ${fan.accessToken}` } });
  return response.json() as { statusCode: number; body: { status: string } };
}

const requestIdOf = (url: string | undefined) => new URL(url ?? 'about:blank').searchParams.get('request') ?? '';
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('a widget spend that needs the fan’s word', () => {
  it('opens the platform’s popup for the request, and once he confirmed there sends the tip again and pays it once', async () => {
    await fundWallet(server.app, fan.id, 5_000);
    const before = await walletOf(server.app, fan.id);
    const win = fakeWindow();
    const fanstage = await widget(win);

    const tipped = fanstage.wallet.tip(creator.id, gift.id);
    await until(() => win.opened.length > 0);
    expect(win.opened).toHaveLength(1);
    expect(win.popup.url).toMatch(new RegExp(`^${platformOrigin}/embed/confirm\\?request=[A-Za-z0-9_-]{16,32}$`));
    const id = requestIdOf(win.popup.url);
    // A message from anywhere else, or before the fan answered, changes nothing.
    win.post({ type: SPEND_ANSWER_MESSAGE, id, status: 'confirmed' }, 'https://evil.example');
    expect(await walletOf(server.app, fan.id)).toBe(before);

    expect((await answer(id, 'confirm')).body.status).toBe('confirmed');
    win.post({ type: SPEND_ANSWER_MESSAGE, id, status: 'confirmed' });
    const result = await tipped;
    expect(result.gBalance).toBe(before - gift.gValue);
    expect(await walletOf(server.app, fan.id)).toBe(before - gift.gValue);
    expect(win.popup.closed).toBe(true);
    expect(win.listeners.size).toBe(0);
  });

  it('rejects with spend-cancelled, and moves nothing, when the fan cancels or closes the popup', async () => {
    await fundWallet(server.app, fan.id, 5_000);
    const before = await walletOf(server.app, fan.id);
    const win = fakeWindow();
    const fanstage = await widget(win);

    const cancelled = fanstage.wallet.tip(creator.id, gift.id);
    await until(() => win.opened.length > 0);
    await answer(requestIdOf(win.popup.url), 'cancel');
    win.post({ type: SPEND_ANSWER_MESSAGE, id: requestIdOf(win.popup.url), status: 'cancelled' });
    await expect(cancelled).rejects.toMatchObject({ code: 'spend-cancelled' });

    win.popup.closed = false;
    const walkedAway = fanstage.wallet.tip(creator.id, gift.id);
    await until(() => win.opened.length > 1);
    win.popup.close();
    await expect(walkedAway).rejects.toMatchObject({ code: 'spend-cancelled' });
    expect(await walletOf(server.app, fan.id)).toBe(before);
  });

  it('rejects with popup-blocked when the browser refuses the window', async () => {
    await fundWallet(server.app, fan.id, 5_000);
    const win = fakeWindow(true);
    const fanstage = await widget(win);
    await expect(fanstage.wallet.tip(creator.id, gift.id)).rejects.toMatchObject({ code: 'popup-blocked' });
  });
});

describe('a widget’s paid chat message', () => {
  it('waits for the fan’s confirmation and then goes once, with it', async () => {
    await fundWallet(server.app, fan.id, 5_000);
    const before = await walletOf(server.app, fan.id);
    const frames: ClientMessage[] = [];
    class Tracked extends NodeWebSocket {
      override send(data: string): void {
        frames.push(JSON.parse(data) as ClientMessage);
        super.send(data);
      }
    }
    const asked: string[] = [];
    // The fan confirms in the platform's page: here his own session does it, as that page does.
    const confirmer: SpendConfirmer = {
      async confirm(ref) {
        asked.push(ref.kind);
        await answer(ref.id, 'confirm');
        const shown = await server.app.inject({ url: `/api/spend-requests/${ref.id}`, headers: { authorization: `Bearer ${fan.accessToken}` } });
        return (shown.json() as { body: SpendRequest }).body;
      },
    };
    const seller = await createAccount(server.app, { seller: true });
    await server.app.inject({ method: 'PUT', url: '/api/users/me', headers: { authorization: `Bearer ${seller.accessToken}` }, payload: { messagePrice: 16 } });
    const fanstage = await widget(fakeWindow(), { confirmer, WebSocketImpl: Tracked as unknown as WebSocketConstructor });
    await fanstage.session.loadAccount();
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'), { timeout: 5000 });
    const thread = fanstage.chat.thread(seller.id);
    await thread.load();
    const sent = thread.send({ text: 'Worth every cent' });
    expect(sent.ok).toBe(true);
    const msgId = sent.ok ? sent.msgId : '';
    await vi.waitFor(() => expect(thread.items.value.find((i) => i.msgId === msgId)).toMatchObject({ state: 'sent' }), { timeout: 5000 });
    expect(asked).toEqual(['chat-message']);
    const ofMessage = frames.filter((f) => f.type === 'chatMessage' && f.msgId === msgId);
    expect(ofMessage).toHaveLength(2);
    expect(ofMessage[0]).not.toHaveProperty('confirmation');
    expect(ofMessage[1]).toMatchObject({ confirmation: expect.any(String) });
    expect(await walletOf(server.app, fan.id)).toBe(before - fanPriceCents(16, server.app.fanstage.config.priceSalt));
  });
});

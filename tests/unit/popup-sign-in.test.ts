import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFanstage, EMBED_CODE_MESSAGE, SdkError, signInWithPopup, type Fanstage, type MessageSource, type PopupHandle, type TokenStorage } from '../../lib/sdk';
import { sendEnvelope, startApiServer, type ApiServer } from './support/api-server';
import { makeAccessToken } from './support/session-server';

const platformOrigin = 'https://fanstage.example';
const partnerOrigin = 'https://lucy.example';

let server: ApiServer;
const exchanged: Array<{ code: string; origin: string }> = [];
const made: Fanstage[] = [];

beforeAll(async () => {
  server = await startApiServer();
  server.on('/papi/embed/exchange', (req, res) => {
    const body = JSON.parse(req.body) as { code: string; origin: string };
    exchanged.push(body);
    if (body.code !== 'good-code' || body.origin !== partnerOrigin) return sendEnvelope(res, { statusCode: -1, statusText: 'invalid-code' }, 400);
    sendEnvelope(res, { statusCode: 2, body: { accessToken: makeAccessToken(7, Math.floor(Date.now() / 1000) + 300), refreshToken: 'refresh-7' } });
  });
  server.on('/api/users/me', (_req, res) => sendEnvelope(res, { statusCode: 2, body: { id: 7, username: 'fan' } }));
});

afterEach(() => {
  exchanged.length = 0;
  for (const fanstage of made.splice(0)) fanstage.session.dispose();
});

afterAll(() => server.close());

/** A window's message events without a browser: the test posts what a page, frame or popup would. */
function fakeWindow() {
  const listeners = new Set<(event: MessageEvent) => void>();
  const messages: MessageSource = {
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener),
  };
  const popup: PopupHandle & { closed: boolean; url?: string; features?: string } = {
    closed: false,
    close() {
      this.closed = true;
    },
  };
  const open = (url: string, _target: string, features: string) => {
    popup.url = url;
    popup.features = features;
    return popup;
  };
  const post = (data: unknown, origin: string, source: unknown) => {
    for (const listener of [...listeners]) listener({ data, origin, source } as MessageEvent);
  };
  return { messages, popup, open, post, listeners };
}

function widget(storage?: TokenStorage): Fanstage {
  const fanstage = createFanstage({ baseUrl: server.baseUrl, session: { mode: 'body', ...(storage ? { storage } : {}) } });
  made.push(fanstage);
  return fanstage;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('signInWithPopup', () => {
  it('opens the platform popup for this origin, exchanges the code it posts and starts the session', async () => {
    const win = fakeWindow();
    const items = new Map<string, string>();
    const fanstage = widget({ getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) });
    const signedIn = signInWithPopup(fanstage, { platformOrigin: `${platformOrigin}/`, origin: partnerOrigin, open: win.open, messages: win.messages, pollMs: 10 });

    expect(win.popup.url).toBe(`${platformOrigin}/embed/login?origin=${encodeURIComponent(partnerOrigin)}`);
    expect(win.popup.features).toContain('width=480');
    win.post({ type: EMBED_CODE_MESSAGE, code: 'good-code' }, platformOrigin, win.popup);

    await expect(signedIn).resolves.toBe(true);
    expect(exchanged).toEqual([{ code: 'good-code', origin: partnerOrigin }]);
    expect(fanstage.session.userId.value).toBe(7);
    expect(items.get('fanstage.refreshToken')).toBe('refresh-7');
    expect(win.listeners.size).toBe(0);
  });

  it('ignores a code from another origin, from another window, or in another shape', async () => {
    const win = fakeWindow();
    const fanstage = widget();
    const signedIn = signInWithPopup(fanstage, { platformOrigin, origin: partnerOrigin, open: win.open, messages: win.messages, pollMs: 10 });

    // The right popup object, but a page on another origin (the popup navigated away).
    win.post({ type: EMBED_CODE_MESSAGE, code: 'good-code' }, 'https://evil.example', win.popup);
    // The platform's origin, but another window (a frame of the platform in the page).
    win.post({ type: EMBED_CODE_MESSAGE, code: 'good-code' }, platformOrigin, {});
    win.post({ type: 'something-else', code: 'good-code' }, platformOrigin, win.popup);
    win.post('good-code', platformOrigin, win.popup);
    await tick();
    expect(exchanged).toEqual([]);
    expect(fanstage.session.isLoggedIn.value).toBe(false);

    win.popup.close();
    await expect(signedIn).resolves.toBe(false);
    expect(win.listeners.size).toBe(0);
  });

  it('resolves false and stops listening when the fan closes the popup', async () => {
    const win = fakeWindow();
    const signedIn = signInWithPopup(widget(), { platformOrigin, origin: partnerOrigin, open: win.open, messages: win.messages, pollMs: 10 });
    expect(win.listeners.size).toBe(1);
    win.popup.close();
    await expect(signedIn).resolves.toBe(false);
    expect(win.listeners.size).toBe(0);
    // A late message from the closed popup changes nothing.
    win.post({ type: EMBED_CODE_MESSAGE, code: 'good-code' }, platformOrigin, win.popup);
    await tick();
    expect(exchanged).toEqual([]);
  });

  it('rejects when the browser blocks the popup, and on timeout closes it', async () => {
    const win = fakeWindow();
    const blocked = signInWithPopup(widget(), { platformOrigin, origin: partnerOrigin, open: () => null, messages: win.messages });
    await expect(blocked).rejects.toMatchObject({ code: 'popup-blocked' });
    expect(win.listeners.size).toBe(0);

    const timedOut = signInWithPopup(widget(), { platformOrigin, origin: partnerOrigin, open: win.open, messages: win.messages, pollMs: 1000, timeoutMs: 30 });
    await expect(timedOut).rejects.toMatchObject({ code: 'popup-timeout' });
    await expect(timedOut).rejects.toBeInstanceOf(SdkError);
    expect(win.popup.closed).toBe(true);
    expect(win.listeners.size).toBe(0);
  });

  it('passes on a refused exchange and stays logged out', async () => {
    const win = fakeWindow();
    const fanstage = widget();
    const signedIn = signInWithPopup(fanstage, { platformOrigin, origin: partnerOrigin, open: win.open, messages: win.messages, pollMs: 10 });
    win.post({ type: EMBED_CODE_MESSAGE, code: 'used-code' }, platformOrigin, win.popup);
    await expect(signedIn).rejects.toMatchObject({ code: 'invalid-code' });
    expect(fanstage.session.isLoggedIn.value).toBe(false);
    expect(win.listeners.size).toBe(0);
  });
});

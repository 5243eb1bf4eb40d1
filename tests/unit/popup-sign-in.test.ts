import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFanstage, EMBED_CODE_MESSAGE, SdkError, signInWithPopup, type Fanstage, type MessageSource, type PopupHandle, type TokenStorage } from '../../lib/sdk';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';

const platformOrigin = 'https://fanstage.example';
const partnerOrigin = 'https://lucy.example';

let server: TestServer;
let fan: TestAccount;
/** The exchanges the widgets of this file asked the server for. */
const exchanged: Array<{ code: string; origin: string }> = [];
const made: Fanstage[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  fan = await createAccount(server.app);
}, 60_000);

afterEach(() => {
  exchanged.length = 0;
  for (const fanstage of made.splice(0)) fanstage.session.dispose();
});

afterAll(async () => {
  await server?.close();
});

/**
 * What the platform's /embed/login popup gets for the fan once they allowed the site: a
 * one-time code the real server issued for `origin`.
 */
async function codeFor(origin = partnerOrigin): Promise<string> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/embed/code',
    headers: { authorization: `Bearer ${fan.accessToken}` },
    payload: { origin, allow: true },
  });
  return (response.json() as { body: { code: string } }).body.code;
}

/** The server's answer to an exchange of `code` by `origin`'s widget, as the widget's page sends it. */
async function exchange(code: string, origin = partnerOrigin) {
  const response = await server.app.inject({ method: 'POST', url: '/papi/embed/exchange', headers: { origin }, payload: { code, origin } });
  return response.json() as { statusCode: number; statusText?: string };
}

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

/** A widget's Fanstage on the partner's page, in body mode; it logs the exchanges it sends. */
function widget(storage?: TokenStorage): Fanstage {
  const recording: typeof fetch = (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.pathname === '/papi/embed/exchange' && typeof init?.body === 'string') exchanged.push(JSON.parse(init.body) as { code: string; origin: string });
    return fetch(input, init);
  };
  const fanstage = createFanstage({ baseUrl: server.baseUrl, fetch: recording, session: { mode: 'body', ...(storage ? { storage } : {}) } });
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
    const code = await codeFor();
    win.post({ type: EMBED_CODE_MESSAGE, code }, platformOrigin, win.popup);

    await expect(signedIn).resolves.toBe(true);
    expect(exchanged).toEqual([{ code, origin: partnerOrigin }]);
    expect(fanstage.session.userId.value).toBe(fan.id);
    expect(fanstage.session.account.value?.id).toBe(fan.id);
    expect(win.listeners.size).toBe(0);
    // The refresh token kept is the server's, bound to the partner's site: it refreshes there only.
    const refreshToken = items.get('fanstage.refreshToken');
    expect(refreshToken).toEqual(expect.any(String));
    const elsewhere = await server.app.inject({ method: 'POST', url: '/papi/login/refresh', headers: { origin: 'https://evil.example' }, payload: { refreshToken } });
    expect(elsewhere.json()).toMatchObject({ statusCode: -1 });
    const there = await server.app.inject({ method: 'POST', url: '/papi/login/refresh', headers: { origin: partnerOrigin }, payload: { refreshToken } });
    expect(there.json()).toMatchObject({ statusCode: 2 });
    // The code was used up by the exchange.
    expect(await exchange(code)).toEqual({ statusCode: -1, statusText: 'invalid-code' });
  });

  it('ignores a code from another origin, from another window, or in another shape', async () => {
    const win = fakeWindow();
    const fanstage = widget();
    const signedIn = signInWithPopup(fanstage, { platformOrigin, origin: partnerOrigin, open: win.open, messages: win.messages, pollMs: 10 });
    const code = await codeFor();

    // The right popup object, but a page on another origin (the popup navigated away).
    win.post({ type: EMBED_CODE_MESSAGE, code }, 'https://evil.example', win.popup);
    // The platform's origin, but another window (a frame of the platform in the page).
    win.post({ type: EMBED_CODE_MESSAGE, code }, platformOrigin, {});
    win.post({ type: 'something-else', code }, platformOrigin, win.popup);
    win.post(code, platformOrigin, win.popup);
    await tick();
    expect(exchanged).toEqual([]);
    expect(fanstage.session.isLoggedIn.value).toBe(false);

    win.popup.close();
    await expect(signedIn).resolves.toBe(false);
    expect(win.listeners.size).toBe(0);
    // None of them reached the server: the code is still unused.
    expect((await exchange(code)).statusCode).toBe(2);
  });

  it('resolves false and stops listening when the fan closes the popup', async () => {
    const win = fakeWindow();
    const signedIn = signInWithPopup(widget(), { platformOrigin, origin: partnerOrigin, open: win.open, messages: win.messages, pollMs: 10 });
    expect(win.listeners.size).toBe(1);
    win.popup.close();
    await expect(signedIn).resolves.toBe(false);
    expect(win.listeners.size).toBe(0);
    // A late message from the closed popup changes nothing.
    win.post({ type: EMBED_CODE_MESSAGE, code: await codeFor() }, platformOrigin, win.popup);
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

  it('passes on the server\'s refusal of a used code and stays logged out', async () => {
    const win = fakeWindow();
    const fanstage = widget();
    const signedIn = signInWithPopup(fanstage, { platformOrigin, origin: partnerOrigin, open: win.open, messages: win.messages, pollMs: 10 });
    const used = await codeFor();
    expect((await exchange(used)).statusCode).toBe(2);
    win.post({ type: EMBED_CODE_MESSAGE, code: used }, platformOrigin, win.popup);
    await expect(signedIn).rejects.toMatchObject({ code: 'invalid-code' });
    expect(fanstage.session.isLoggedIn.value).toBe(false);
    expect(win.listeners.size).toBe(0);
  });

  it('passes on the server\'s refusal of a code issued for another site', async () => {
    const win = fakeWindow();
    const fanstage = widget();
    const signedIn = signInWithPopup(fanstage, { platformOrigin, origin: partnerOrigin, open: win.open, messages: win.messages, pollMs: 10 });
    const othersCode = await codeFor('https://marek.example');
    win.post({ type: EMBED_CODE_MESSAGE, code: othersCode }, platformOrigin, win.popup);
    await expect(signedIn).rejects.toMatchObject({ code: 'invalid-code' });
    expect(fanstage.session.isLoggedIn.value).toBe(false);
  });
});

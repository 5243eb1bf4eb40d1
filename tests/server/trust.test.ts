import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketProtocols } from '../../lib/contract/realtime';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { fundWallet } from '../support/money';
import type { Answer } from '../support/inject';
import { SocketClient, closeSockets } from '../support/sockets';
import { widgetRoutes } from '../../server/src/features/auth/scope';

/**
 * Who is trusted by origin, tried as an attacker would: a site a creator listed, a site nobody
 * listed, a page on a sibling host, a fan's widget session used outside its site and outside
 * its scope, and a consent taken back (docs/embedding.md, "Who is trusted").
 */
let server: TestServer;
const app = () => server.app;
const site = 'https://fan-club.example';
const elsewhere = 'https://evil.example';

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  closeSockets();
  await server.close();
});

interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  token?: string;
  origin?: string;
  headers?: Record<string, string>;
  payload?: unknown;
}

async function call({ method = 'GET', url, token, origin, headers = {}, payload }: Call): Promise<{ status: number; json: Answer; headers: Record<string, unknown> }> {
  const response = await app().inject({
    method,
    url,
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(origin ? { origin } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, json: response.json() as Answer, headers: response.headers };
}

interface WidgetSession {
  accessToken: string;
  refreshToken: string;
}

/** What the popup and the widget do: the fan allows `origin`, the popup gets a code, the widget exchanges it. */
async function widgetSession(fan: TestAccount, origin: string): Promise<WidgetSession> {
  const issued = await call({ method: 'POST', url: '/api/embed/code', token: fan.accessToken, payload: { origin, allow: true } });
  expect(issued.json.statusCode).toBe(2);
  const exchanged = await call({ method: 'POST', url: '/papi/embed/exchange', origin, payload: { code: issued.json.body.code, origin } });
  expect(exchanged.json.statusCode).toBe(2);
  return exchanged.json.body as WidgetSession;
}

function socketOf(token: string, origin: string): Promise<{ client: SocketClient } | { status: number }> {
  const socket = new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(token), { origin });
  return new Promise((resolve) => {
    socket.on('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0 }));
    const client = new SocketClient(socket);
    client.next((m) => m.type === 'hello').then(
      () => resolve({ client }),
      () => undefined,
    );
  });
}

describe('who may list an origin', () => {
  it('refuses a new account and an unapproved one, and lets an approved creator and an administrator list', async () => {
    const fresh = await createAccount(app(), { verified: false });
    const fan = await createAccount(app());
    for (const account of [fresh, fan]) {
      const refused = await call({ method: 'PUT', url: '/api/users/me', token: account.accessToken, payload: { embedOrigins: [elsewhere] } });
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ statusCode: -1, statusText: 'embed-origins-not-allowed' });
    }
    // Clearing a list is no privilege.
    expect((await call({ method: 'PUT', url: '/api/users/me', token: fan.accessToken, payload: { embedOrigins: [] } })).json.statusCode).toBe(2);

    const creator = await createAccount(app(), { seller: true });
    const listed = await call({ method: 'PUT', url: '/api/users/me', token: creator.accessToken, payload: { embedOrigins: [site] } });
    expect(listed.json.statusCode).toBe(2);
    expect(listed.json.body.embedOrigins).toEqual([site]);
    const admin = await createAccount(app(), { level: 500 });
    expect((await call({ method: 'PUT', url: '/api/users/me', token: admin.accessToken, payload: { embedOrigins: ['https://ops.example'] } })).json.statusCode).toBe(2);
  });

  it('lets an administrator see and remove any listed origin, and nobody else', async () => {
    const creator = await createAccount(app(), { seller: true });
    await call({ method: 'PUT', url: '/api/users/me', token: creator.accessToken, payload: { embedOrigins: ['https://doubtful.example'] } });
    const fan = await createAccount(app());
    expect((await call({ url: '/api/admin/embed-origins', token: fan.accessToken })).json.statusText).toBe('forbidden');
    expect((await call({ method: 'DELETE', url: '/api/admin/embed-origins?origin=https%3A%2F%2Fdoubtful.example', token: creator.accessToken })).json.statusText).toBe(
      'forbidden',
    );

    const admin = await createAccount(app(), { level: 500 });
    const listed = await call({ url: '/api/admin/embed-origins', token: admin.accessToken });
    expect(listed.json.body).toContainEqual({ origin: 'https://doubtful.example', userId: creator.id, username: creator.username });
    const removed = await call({ method: 'DELETE', url: '/api/admin/embed-origins?origin=https%3A%2F%2Fdoubtful.example', token: admin.accessToken });
    expect(removed.json.statusCode).toBe(1);
    const account = await call({ url: '/api/users/me', token: creator.accessToken });
    expect(account.json.body.embedOrigins).toEqual([]);
    expect((await call({ method: 'DELETE', url: '/api/admin/embed-origins?origin=https%3A%2F%2Fdoubtful.example', token: admin.accessToken })).json.statusText).toBe(
      'not-found',
    );
  });
});

describe('the fan consents', () => {
  it('never issues a code for an origin the fan has not allowed, listed by a creator or not', async () => {
    const creator = await createAccount(app(), { seller: true });
    await call({ method: 'PUT', url: '/api/users/me', token: creator.accessToken, payload: { embedOrigins: ['https://listed.example'] } });
    const fan = await createAccount(app());
    for (const origin of ['https://listed.example', 'https://unlisted.example']) {
      const state = await call({ url: `/api/embed/consent?origin=${encodeURIComponent(origin)}`, token: fan.accessToken });
      expect(state.json.body).toMatchObject({ origin, platform: false, allowed: false });
      const refused = await call({ method: 'POST', url: '/api/embed/code', token: fan.accessToken, payload: { origin } });
      expect(refused.json).toEqual({ statusCode: -1, statusText: 'consent-required' });
    }
    // Listed but not proven hers: only a claim, which the popup does not repeat (site-proof.test.ts proves one).
    const listed = await call({ url: '/api/embed/consent?origin=https%3A%2F%2Flisted.example', token: fan.accessToken });
    expect(listed.json.body.listedBy).toEqual([]);
    expect((await call({ url: '/api/embed/consents', token: fan.accessToken })).json.body).toEqual([]);
    // Not an origin exactly: no consent can be asked for it.
    expect((await call({ method: 'POST', url: '/api/embed/code', token: fan.accessToken, payload: { origin: 'https://x.example/path', allow: true } })).json.statusText).toBe(
      'invalid-request',
    );
  });

  it('remembers the consent per fan and origin, and lists it', async () => {
    const fan = await createAccount(app());
    await widgetSession(fan, site);
    const state = await call({ url: `/api/embed/consent?origin=${encodeURIComponent(site)}`, token: fan.accessToken });
    expect(state.json.body.allowed).toBe(true);
    const listed = await call({ url: '/api/embed/consents', token: fan.accessToken });
    expect(listed.json.body.map((c: { origin: string }) => c.origin)).toEqual([site]);
    // Another fan's consent is theirs alone.
    const other = await createAccount(app());
    expect((await call({ method: 'POST', url: '/api/embed/code', token: other.accessToken, payload: { origin: site } })).json.statusText).toBe('consent-required');
  });
});

describe('a widget session has least privilege', () => {
  it('is refused for a password change, embed origins, payouts, card removal, deletion and new codes, while a follow and a tip work', async () => {
    const fan = await createAccount(app());
    await fundWallet(app(), fan.id, 1_000);
    const widget = await widgetSession(fan, site);
    const asWidget = (method: Call['method'], url: string, payload?: unknown) => call({ method, url, payload, token: widget.accessToken, origin: site });

    const refusals: [Call['method'], string, unknown][] = [
      ['PUT', '/api/users/me', { currentPassword: fan.password, newPassword: 'a new long password' }],
      ['PUT', '/api/users/me', { displayName: 'Taken over' }],
      ['PUT', '/api/users/me', { embedOrigins: [elsewhere] }],
      ['POST', '/api/earnings/payout', { cPayout: 5000 }],
      ['DELETE', '/api/payments/cards/1', undefined],
      ['DELETE', '/api/users/me', { deleteReason: 1, password: fan.password }],
      ['PUT', '/api/users/me', { email: 'taken.over@example.com', currentPassword: fan.password }],
      ['GET', '/api/users/me/export', undefined],
      ['GET', '/api/sms/send-verification-code?phone=%2B420601234567', undefined],
      ['POST', '/api/users/verify-phone', { code: '123456' }],
      ['POST', '/api/embed/code', { origin: elsewhere, allow: true }],
      ['GET', '/api/embed/consents', undefined],
      ['POST', '/api/admin/users/1/block', undefined],
    ];
    for (const [method, url, payload] of refusals) {
      const refused = await asWidget(method, url, payload);
      expect({ url, status: refused.status, json: refused.json }).toEqual({ url, status: 403, json: { statusCode: -1, statusText: 'widget-scope' } });
    }

    const lucy = await call({ url: '/papi/users/lucy.rivers' });
    expect((await asWidget('POST', '/api/users/follow', { id: lucy.json.body.id })).json.statusCode).toBe(1);
    const gifts = await call({ url: '/papi/gifts' });
    // A spend is the fan's to confirm on the platform (docs/spending.md): the widget gets a request to confirm.
    const tip = await asWidget('POST', '/api/users/tip', { userId: lucy.json.body.id, giftId: gifts.json.body[0].id });
    expect(tip.json).toMatchObject({ statusCode: -1, statusText: 'confirmation-required', body: { kind: 'gift' } });
    // Accepting adult content before an unlock is the one account field a widget may set.
    expect((await asWidget('PUT', '/api/users/me', { nsfwAgreement: 1 })).json.body).toMatchObject({ nsfwAgreement: 1, email: '' });
    expect((await asWidget('PUT', '/api/users/me', { nsfwAgreement: 1, bio: 'sneaked in' })).json.statusText).toBe('widget-scope');
    // The site reads the account its widgets need, without the fan's e-mail address.
    const seen = await asWidget('GET', '/api/users/me');
    expect(seen.json.body).toMatchObject({ id: fan.id, username: fan.username, email: '', embedOrigins: [] });
    // The fan's own full session is untouched by all this.
    expect((await call({ url: '/api/users/me', token: fan.accessToken })).json.body.email).toBe(fan.email);
  });

  it('works only on its own origin, and the platform session only on the platform', async () => {
    const fan = await createAccount(app());
    const widget = await widgetSession(fan, site);
    expect((await call({ url: '/api/count/', token: widget.accessToken, origin: site })).json.statusCode).toBe(2);
    // A token copied to another page is refused there.
    const copied = await call({ url: '/api/count/', token: widget.accessToken, origin: elsewhere });
    expect(copied.json).toEqual({ statusCode: -1, statusText: 'origin-not-allowed' });
    // A full session's token leaked to a foreign page is refused there too.
    const leaked = await call({ url: '/api/count/', token: fan.accessToken, origin: site });
    expect(leaked.json).toEqual({ statusCode: -1, statusText: 'origin-not-allowed' });
    const platform = new URL(app().fanstage.config.publicUrl).origin;
    expect((await call({ url: '/api/count/', token: fan.accessToken, origin: platform })).json.statusCode).toBe(2);
    // The widget's refresh token refreshes on its site, not elsewhere, and stays a widget session.
    const wrongSite = await call({ method: 'POST', url: '/papi/login/refresh', origin: elsewhere, payload: { refreshToken: widget.refreshToken } });
    expect(wrongSite.json.statusText).toBe('origin-not-allowed');
    const refreshed = await call({ method: 'POST', url: '/papi/login/refresh', origin: site, payload: { refreshToken: widget.refreshToken } });
    expect(refreshed.json.statusCode).toBe(2);
    expect((await call({ method: 'PUT', url: '/api/users/me', token: refreshed.json.body.accessToken, origin: site, payload: { bio: 'x' } })).json.statusText).toBe('widget-scope');
  });

  it('opens a websocket only on its own origin', async () => {
    const fan = await createAccount(app());
    const widget = await widgetSession(fan, site);
    const own = await socketOf(widget.accessToken, site);
    expect('client' in own).toBe(true);
    expect(await socketOf(widget.accessToken, elsewhere)).toEqual({ status: 403 });
    expect(await socketOf(fan.accessToken, site)).toEqual({ status: 403 });
    if ('client' in own) own.client.close();
  });

  it('lists only routes that exist, and none that moves money out or changes the account', () => {
    const routes = new Set(app().fanstage.routes.map((r) => `${r.method} ${r.url}`));
    for (const route of widgetRoutes) expect(routes, route).toContain(route);
    for (const forbidden of ['PUT /api/users/me', 'DELETE /api/users/me', 'POST /api/earnings/payout', 'DELETE /api/payments/cards/:id', 'POST /api/embed/code']) {
      expect(widgetRoutes.has(forbidden)).toBe(false);
    }
  });
});

describe('revoking a consent', () => {
  it('ends the widget sessions of that site at once: requests, refreshes and sockets', async () => {
    const fan = await createAccount(app());
    const widget = await widgetSession(fan, site);
    const other = await widgetSession(fan, 'https://other-club.example');
    const opened = await socketOf(widget.accessToken, site);
    if (!('client' in opened)) throw new Error(`socket refused: ${JSON.stringify(opened)}`);

    const revoked = await call({ method: 'DELETE', url: `/api/embed/consents?origin=${encodeURIComponent(site)}`, token: fan.accessToken });
    expect(revoked.json.statusCode).toBe(1);
    expect(await opened.client.closed).toBe(4401);
    expect(opened.client.all('beforeLogout')).toEqual([{ type: 'beforeLogout', reason: 'widget-consent-revoked' }]);
    expect((await call({ url: '/api/count/', token: widget.accessToken, origin: site })).status).toBe(401);
    expect((await call({ method: 'POST', url: '/papi/login/refresh', origin: site, payload: { refreshToken: widget.refreshToken } })).json.statusText).toBe(
      'refresh-token-failed',
    );
    // The other site and the fan's own session carry on.
    expect((await call({ url: '/api/count/', token: other.accessToken, origin: 'https://other-club.example' })).json.statusCode).toBe(2);
    expect((await call({ url: '/api/count/', token: fan.accessToken })).json.statusCode).toBe(2);
    // Asked again, the site needs a new consent.
    expect((await call({ method: 'POST', url: '/api/embed/code', token: fan.accessToken, payload: { origin: site } })).json.statusText).toBe('consent-required');
    expect((await call({ method: 'DELETE', url: `/api/embed/consents?origin=${encodeURIComponent(site)}`, token: fan.accessToken })).json.statusText).toBe('not-found');
  });
});

describe('no open redirect', () => {
  it('returns a payment only to the platform or to the site of the widget session that started it', async () => {
    const fan = await createAccount(app());
    const packages = await call({ url: '/api/payments/packages', token: fan.accessToken });
    const packageId = packages.json.body[0].id as number;
    const pay = (token: string, returnUrl: string, origin?: string) =>
      call({ method: 'POST', url: '/api/payments/pay-new-card', token, origin, payload: { packageId, processor: 'sandbox', returnUrl } });

    expect((await pay(fan.accessToken, `${app().fanstage.config.publicUrl}/settings/wallet`)).json.statusCode).toBe(2);
    expect((await pay(fan.accessToken, `${site}/thanks`)).json.statusText).toBe('invalid-request');
    // A widget never starts a card payment: it opens a request the fan pays in the platform's card window.
    const widget = await widgetSession(fan, site);
    expect((await pay(widget.accessToken, `${site}/thanks`, site)).json.statusText).toBe('confirmation-required');
    expect((await pay(widget.accessToken, `${elsewhere}/thanks`, site)).json.statusText).toBe('confirmation-required');
    // A site a creator listed is no exception.
    const creator = await createAccount(app(), { seller: true });
    await call({ method: 'PUT', url: '/api/users/me', token: creator.accessToken, payload: { embedOrigins: ['https://listed-shop.example'] } });
    expect((await pay(fan.accessToken, 'https://listed-shop.example/return')).json.statusText).toBe('invalid-request');
  });
});

describe('cookie routes answer the platform only', () => {
  it('refuses login, refresh, logout and reset from another page, even a sibling host the cookie is sent to', async () => {
    const fan = await createAccount(app());
    const login = await call({ method: 'POST', url: '/papi/login', payload: { email: fan.email, password: fan.password } });
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    const attempts: Call[] = [
      { url: '/papi/login/refresh', origin: elsewhere, headers: { cookie } },
      { url: '/papi/login/refresh', headers: { cookie, 'sec-fetch-site': 'same-site' } },
      { url: '/papi/login/logout', origin: elsewhere, headers: { cookie } },
      { url: '/papi/login/logout', headers: { cookie, 'sec-fetch-site': 'cross-site' } },
      { method: 'POST', url: '/papi/login', origin: elsewhere, payload: { email: fan.email, password: fan.password, tokenInBody: true } },
      { method: 'POST', url: '/papi/login/reset', origin: elsewhere, payload: { email: fan.email } },
    ];
    for (const attempt of attempts) {
      const refused = await call(attempt);
      expect({ url: attempt.url, status: refused.status, json: refused.json, cookie: refused.headers['set-cookie'] }).toEqual({
        url: attempt.url,
        status: 403,
        json: { statusCode: -1, statusText: 'origin-not-allowed' },
        cookie: undefined,
      });
    }
    // The session survived every one of them: the platform's page refreshes it.
    const own = await call({ url: '/papi/login/refresh', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(own.json.statusCode).toBe(2);
  });
});

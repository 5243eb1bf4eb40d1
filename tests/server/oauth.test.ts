import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { eq } from '../support/db';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { oauthAccounts, users } from '../../server/src/db/schema';
import { safeReturnPath } from '../../server/src/features/oauth/domain';
import { ConfigError, loadConfig } from '../../server/src/config';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const cookieOf = (response: LightMyRequestResponse, name: string) => response.cookies.find((cookie) => cookie.name === name);
const pathOf = (location: string) => {
  const url = new URL(location, server.baseUrl);
  return `${url.pathname}${url.search}`;
};
const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

/** GET /api/oauth/authorize: the request token the consent page got, and the browser's state cookie. */
async function start(returnTo = '/lucy.rivers?tab=posts') {
  const response = await app.inject({ method: 'GET', url: `/api/oauth/authorize?provider=sandbox&returnTo=${encodeURIComponent(returnTo)}` });
  expect(response.statusCode).toBe(303);
  const consent = new URL(String(response.headers.location));
  expect(consent.pathname).toBe('/papi/oauth/sandbox/authorize');
  const state = cookieOf(response, 'fs_oauth');
  expect(state).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/oauth' });
  return { token: consent.searchParams.get('oauth_token')!, state: state!.value, consentPath: `${consent.pathname}${consent.search}` };
}

/** The person's answer on the sandbox consent page: the callback address it sends them to. */
async function decide(token: string, decision: 'approve' | 'deny', identity: { id: string; name?: string; email?: string } = { id: 'x' }) {
  const response = await app.inject({
    method: 'POST',
    url: '/papi/oauth/sandbox/authorize',
    ...form({ oauth_token: token, decision, id: identity.id, name: identity.name ?? '', email: identity.email ?? '' }),
  });
  expect(response.statusCode).toBe(303);
  const location = String(response.headers.location);
  expect(new URL(location).pathname).toBe('/api/oauth/callback');
  return pathOf(location);
}

function callback(path: string, state: string | null) {
  return app.inject({ method: 'GET', url: path, headers: state === null ? {} : { cookie: `fs_oauth=${state}` } });
}

/** The user id of the session a response's refresh cookie holds. */
async function sessionUser(response: LightMyRequestResponse): Promise<number> {
  const refresh = cookieOf(response, 'fs_refresh');
  expect(refresh?.value, 'a session cookie').toBeTruthy();
  expect(cookieOf(response, 'fs_session')?.value).toBe('1');
  const refreshed = await app.inject({ method: 'GET', url: '/papi/login/refresh', headers: { cookie: `fs_refresh=${refresh!.value}` } });
  const token = (refreshed.json() as { body: { accessToken: string } }).body.accessToken;
  return (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { userId: number }).userId;
}

/** A new person's whole way in: consent, callback, the username step. */
async function signUp(identity: { id: string; name?: string; email?: string }, username: string, returnTo = '/discover') {
  const flow = await start(returnTo);
  const back = await callback(await decide(flow.token, 'approve', identity), flow.state);
  expect(back.statusCode).toBe(303);
  expect(back.headers.location).toBe('/api/oauth/signup');
  expect(cookieOf(back, 'fs_refresh')).toBeUndefined();
  const done = await app.inject({ method: 'POST', url: '/api/oauth/signup', ...form({ username, agree: 'yes' }), headers: { ...form({}).headers, cookie: `fs_oauth=${flow.state}` } });
  expect(done.statusCode).toBe(303);
  return { flow, done, userId: await sessionUser(done) };
}

describe('signing in with an external account (sandbox provider)', () => {
  it('is offered in the settings, and the consent page lets the person enter an identity and approve or deny', async () => {
    const settings = (await app.inject({ method: 'GET', url: '/papi/settings' })).json() as { body: { oauthProviders?: { name: string; title: string }[] } };
    expect(settings.body.oauthProviders).toEqual([{ name: 'sandbox', title: 'Sandbox' }]);
    const flow = await start();
    const page = await app.inject({ method: 'GET', url: flow.consentPath });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('name="id"');
    expect(page.body).toContain('value="approve"');
    expect(page.body).toContain('value="deny"');
    const bad = await app.inject({ method: 'POST', url: '/papi/oauth/sandbox/authorize', ...form({ oauth_token: flow.token, decision: 'approve', id: 'no spaces allowed' }) });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('aria-invalid="true"');
  });

  it('creates a new account for a new person: asks for a username and the 18+ agreement, then signs in and returns where it started', async () => {
    const flow = await start('/lucy.rivers?tab=posts');
    const back = await callback(await decide(flow.token, 'approve', { id: 'new-person-1', name: 'Nora Nováková', email: 'nora.oauth@example.com' }), flow.state);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/api/oauth/signup');
    const cookie = { cookie: `fs_oauth=${flow.state}` };

    const page = await app.inject({ method: 'GET', url: '/api/oauth/signup', headers: cookie });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="username"');
    expect(page.body).toContain('value="nora.novakova"');
    expect(page.body).toContain('name="agree"');
    // Its form must carry the site's Origin (a no-referrer page posts `Origin: null`).
    expect(page.headers['referrer-policy']).toBe('same-origin');

    // Without the agreement, and with a username that cannot be one, nothing is created.
    const headers = { ...form({}).headers, ...cookie };
    const noAgreement = await app.inject({ method: 'POST', url: '/api/oauth/signup', ...form({ username: 'nora_fan' }), headers });
    expect(noAgreement.statusCode).toBe(422);
    expect(cookieOf(noAgreement, 'fs_refresh')).toBeUndefined();
    const reserved = await app.inject({ method: 'POST', url: '/api/oauth/signup', ...form({ username: 'admin', agree: 'yes' }), headers });
    expect(reserved.statusCode).toBe(422);
    const taken = await createAccount(app, { username: 'taken_name' });
    const takenAnswer = await app.inject({ method: 'POST', url: '/api/oauth/signup', ...form({ username: taken.username.toUpperCase(), agree: 'yes' }), headers });
    expect(takenAnswer.statusCode).toBe(422);
    expect(takenAnswer.body).toContain('username-error');

    const done = await app.inject({ method: 'POST', url: '/api/oauth/signup', ...form({ username: 'nora_fan', agree: 'yes' }), headers });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/lucy.rivers?tab=posts');
    const userId = await sessionUser(done);
    const [user] = await app.fanstage.db.select().from(users).where(eq(users.id, userId));
    expect(user).toMatchObject({ username: 'nora_fan', displayName: 'Nora Nováková', email: 'nora.oauth@example.com', emailVerified: false, passwordHash: null });
    const links = await app.fanstage.db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, userId));
    expect(links).toMatchObject([{ provider: 'sandbox', externalId: 'new-person-1' }]);

    // The step is done: the same browser cannot make a second account with it.
    const again = await app.inject({ method: 'POST', url: '/api/oauth/signup', ...form({ username: 'nora_twice', agree: 'yes' }), headers });
    expect(again.statusCode).toBe(410);
    expect(cookieOf(again, 'fs_refresh')).toBeUndefined();
  });

  it('signs the linked account in again, straight back to the page it started from', async () => {
    const first = await signUp({ id: 'returning-1', name: 'Rita' }, 'rita_returns');
    const flow = await start('/timeline');
    const back = await callback(await decide(flow.token, 'approve', { id: 'returning-1' }), flow.state);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/timeline');
    expect(await sessionUser(back)).toBe(first.userId);
    // The state cookie has done its work.
    expect(cookieOf(back, 'fs_oauth')?.value).toBe('');
  });

  it('never links an account by an e-mail the provider names: the existing account keeps its address, the new one goes without', async () => {
    const owner = await createAccount(app, { email: 'owner.oauth@example.com' });
    const { userId } = await signUp({ id: 'claims-owner-mail', email: 'Owner.OAuth@example.com' }, 'not_the_owner');
    expect(userId).not.toBe(owner.id);
    const [user] = await app.fanstage.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    expect(user?.email).toBeNull();
  });

  it('refuses a callback in a browser that did not start the sign-in (state mismatch), without spending the sign-in', async () => {
    await signUp({ id: 'victim-target' }, 'attacker_acct');
    const attacker = await start('/timeline');
    const planted = await decide(attacker.token, 'approve', { id: 'victim-target' });

    const victim = await start('/discover');
    for (const state of [victim.state, null, 'forged-state-value-forged-state-value']) {
      const refused = await callback(planted, state);
      expect(refused.statusCode).toBe(303);
      expect(refused.headers.location).toBe('/?oauth=state-mismatch');
      expect(cookieOf(refused, 'fs_refresh')).toBeUndefined();
    }
    // The browser that started it still finishes it.
    const own = await callback(planted, attacker.state);
    expect(own.headers.location).toBe('/timeline');
    expect(cookieOf(own, 'fs_refresh')?.value).toBeTruthy();
  });

  it('refuses a replayed callback: each request token signs in once', async () => {
    await signUp({ id: 'replayed-1' }, 'replay_fan');
    const flow = await start('/timeline');
    const path = await decide(flow.token, 'approve', { id: 'replayed-1' });
    const first = await callback(path, flow.state);
    expect(cookieOf(first, 'fs_refresh')?.value).toBeTruthy();
    const replay = await callback(path, flow.state);
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe('/timeline?oauth=expired');
    expect(cookieOf(replay, 'fs_refresh')).toBeUndefined();
  });

  it('refuses a verifier that was tampered with, or made for another request token', async () => {
    const flow = await start('/timeline');
    const path = await decide(flow.token, 'approve', { id: 'tamper-1' });
    const url = new URL(path, server.baseUrl);
    const verifier = url.searchParams.get('oauth_verifier')!;
    const [payload, mac] = verifier.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { i: { id: string } };
    claims.i.id = 'someone-else';
    url.searchParams.set('oauth_verifier', `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${mac}`);
    const tampered = await callback(`${url.pathname}${url.search}`, flow.state);
    expect(tampered.headers.location).toBe('/timeline?oauth=failed');
    expect(cookieOf(tampered, 'fs_refresh')).toBeUndefined();

    const other = await start('/discover');
    const otherPath = new URL(await decide(other.token, 'approve', { id: 'tamper-2' }), server.baseUrl);
    const mine = await start('/discover');
    otherPath.searchParams.set('oauth_token', mine.token);
    const swapped = await callback(`${otherPath.pathname}${otherPath.search}`, mine.state);
    expect(swapped.headers.location).toBe('/discover?oauth=failed');
  });

  it('refuses return paths outside this site (no open redirect)', async () => {
    for (const returnTo of ['https://evil.example/phish', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'evil.example', '/api/oauth/callback', '/papi/settings', '/x\r\nLocation: https://evil.example']) {
      const response = await app.inject({ method: 'GET', url: `/api/oauth/authorize?returnTo=${encodeURIComponent(returnTo)}` });
      expect(response.json(), returnTo).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
      expect(response.headers.location, returnTo).toBeUndefined();
      expect(cookieOf(response, 'fs_oauth'), returnTo).toBeUndefined();
    }
    // An address of the site itself is fine, and becomes its path.
    const own = await app.inject({ method: 'GET', url: `/api/oauth/authorize?returnTo=${encodeURIComponent(`${server.baseUrl}/discover?q=x`)}` });
    expect(own.statusCode).toBe(303);
    expect(safeReturnPath(`${server.baseUrl}/discover?q=x#top`, server.baseUrl)).toBe('/discover?q=x#top');
    expect(safeReturnPath(undefined, server.baseUrl)).toBe('/');
    expect(safeReturnPath('https://evil.example', 'https://fanstage.example')).toBeNull();
    expect(safeReturnPath('https://fanstage.example.evil.example/', 'https://fanstage.example')).toBeNull();
  });

  it('returns with ?oauth=denied when the person denies, and creates nothing', async () => {
    const before = await app.fanstage.db.select({ id: users.id }).from(users);
    const flow = await start('/lucy.rivers');
    const denied = await callback(await decide(flow.token, 'deny'), flow.state);
    expect(denied.statusCode).toBe(303);
    expect(denied.headers.location).toBe('/lucy.rivers?oauth=denied');
    expect(cookieOf(denied, 'fs_refresh')).toBeUndefined();
    expect(await app.fanstage.db.select({ id: users.id }).from(users)).toHaveLength(before.length);
    const page = await app.inject({ method: 'GET', url: '/api/oauth/signup', headers: { cookie: `fs_oauth=${flow.state}` } });
    expect(page.statusCode).toBe(410);
  });

  it('does not sign in a blocked account, and an unknown provider or a stranger’s form post gets nothing', async () => {
    const { userId } = await signUp({ id: 'to-be-banned' }, 'banned_later');
    const admin = await createAccount(app, { level: 500 });
    await app.inject({ method: 'POST', url: `/api/admin/users/${userId}/block`, headers: { authorization: `Bearer ${admin.accessToken}` } });
    const flow = await start('/timeline');
    const back = await callback(await decide(flow.token, 'approve', { id: 'to-be-banned' }), flow.state);
    expect(back.headers.location).toBe('/timeline?oauth=banned');
    expect(cookieOf(back, 'fs_refresh')).toBeUndefined();

    const unknown = await app.inject({ method: 'GET', url: '/api/oauth/authorize?provider=facebook' });
    expect(unknown.json()).toMatchObject({ statusCode: -1, statusText: 'not-found' });

    // Another site cannot submit the username step for a browser that is mid sign-up.
    const pending = await start('/discover');
    await callback(await decide(pending.token, 'approve', { id: 'cross-site-1' }), pending.state);
    const crossSite = await app.inject({
      method: 'POST',
      url: '/api/oauth/signup',
      ...form({ username: 'forged_name', agree: 'yes' }),
      headers: { ...form({}).headers, cookie: `fs_oauth=${pending.state}`, origin: 'https://evil.example' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(cookieOf(crossSite, 'fs_refresh')).toBeUndefined();
  });
});

describe('which providers are offered (OAUTH_PROVIDERS)', () => {
  it('offers the sandbox outside production by default, none in production unless configured', () => {
    expect(loadConfig({}).oauthProviders).toEqual(['sandbox']);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) }).oauthProviders).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), OAUTH_PROVIDERS: 'sandbox' }).oauthProviders).toEqual(['sandbox']);
    expect(loadConfig({ OAUTH_PROVIDERS: 'none' }).oauthProviders).toEqual([]);
    expect(() => loadConfig({ OAUTH_PROVIDERS: 'Not A Name' })).toThrow(ConfigError);
  });

  it('without providers, neither the sign-in nor the sandbox page exists, and the settings offer none', async () => {
    const off = await startTestServer({ seed: false, env: { OAUTH_PROVIDERS: 'none' } });
    try {
      const settings = (await off.app.inject({ method: 'GET', url: '/papi/settings' })).json() as { body: { oauthProviders?: unknown[] } };
      expect(settings.body.oauthProviders).toEqual([]);
      expect((await off.app.inject({ method: 'GET', url: '/api/oauth/authorize' })).json()).toMatchObject({ statusCode: -1, statusText: 'not-found' });
      expect((await off.app.inject({ method: 'GET', url: '/papi/oauth/sandbox/authorize?oauth_token=abcdefghijklmnopqrstuvwxyz' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('refuses to start when it names a provider the server does not have', async () => {
    await expect(startTestServer({ seed: false, env: { OAUTH_PROVIDERS: 'facebook' } })).rejects.toThrow(/OAUTH_PROVIDERS names "facebook"/);
  });
});

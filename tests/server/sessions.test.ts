import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { eq } from '../support/db';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { closeSockets, connectSocket } from '../support/sockets';
import { embedConsents, refreshTokens, throttleEvents } from '../../server/src/db/schema';
import { refreshGraceMs } from '../../server/src/features/auth/domain';
import { pruneExpired, refreshSession, startSession } from '../../server/src/features/auth/service';
import { throttles } from '../../server/src/http/throttle';
import { mailerOf, setMailer, type Mailer } from '../../server/src/mail';
import { ErrorKeys } from '../../lib/contract/errors';

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { statusCode: number; statusText?: string; body?: any };

interface Call {
  method?: 'GET' | 'POST' | 'DELETE';
  url: string;
  payload?: unknown;
  token?: string;
  cookie?: string;
  address?: string;
}

async function call({ method = 'POST', url, payload, token, cookie, address }: Call) {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (cookie !== undefined) headers.cookie = `fs_refresh=${cookie}`;
  const response = await app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
    ...(address === undefined ? {} : { remoteAddress: address }),
  });
  const json = response.json() as Answer;
  expect(response.statusCode).toBeLessThan(500);
  if (json.statusCode < 0) expect(ErrorKeys).toContain(json.statusText);
  return { response, json };
}

function refreshCookieOf(response: LightMyRequestResponse): string | undefined {
  return response.cookies.find((c) => c.name === 'fs_refresh')?.value;
}

async function cookieLogin() {
  const account = await createAccount(app);
  const { response } = await call({ url: '/papi/login', payload: { email: account.email, password: account.password } });
  return { account, cookie: refreshCookieOf(response) as string };
}

/** The user behind an access token may call the API with it. */
async function works(accessToken: string): Promise<boolean> {
  const { response } = await call({ method: 'GET', url: '/api/users/me', token: accessToken });
  return response.statusCode === 200;
}

/** Requesters are told apart by their address; each test takes its own. */
let nextRequester = 1;
const newRequester = () => `10.77.${Math.floor(nextRequester / 250)}.${(nextRequester++ % 250) + 1}`;

describe('refreshing from two tabs at once', () => {
  it('answers both refreshes of one cookie with the same successor and keeps the session', async () => {
    const { account, cookie } = await cookieLogin();
    const [a, b] = await Promise.all([
      call({ method: 'GET', url: '/papi/login/refresh', cookie }),
      call({ method: 'GET', url: '/papi/login/refresh', cookie }),
    ]);
    expect(a.json.statusCode).toBe(2);
    expect(b.json.statusCode).toBe(2);
    const successor = refreshCookieOf(a.response);
    expect(successor).toBeTruthy();
    expect(successor).not.toBe(cookie);
    expect(refreshCookieOf(b.response)).toBe(successor);
    expect(await works(a.json.body.accessToken as string)).toBe(true);
    expect(await works(b.json.body.accessToken as string)).toBe(true);
    const rows = await app.fanstage.db.select().from(refreshTokens).where(eq(refreshTokens.userId, account.id));
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.revokedAt !== null)).toEqual([]);
    // The successor goes on as usual.
    const next = await call({ method: 'GET', url: '/papi/login/refresh', cookie: successor });
    expect(next.json.statusCode).toBe(2);
  });

  it('answers a body token presented twice with the same successor', async () => {
    const account = await createAccount(app);
    const login = await call({ url: '/papi/login', payload: { email: account.email, password: account.password, tokenInBody: true } });
    const token = login.json.body.refreshToken as string;
    const first = await call({ url: '/papi/login/refresh', payload: { refreshToken: token } });
    const second = await call({ url: '/papi/login/refresh', payload: { refreshToken: token } });
    expect(first.json.statusCode).toBe(2);
    expect(second.json.body.refreshToken).toBe(first.json.body.refreshToken);
    expect(await works(second.json.body.accessToken as string)).toBe(true);
  });

  it('still revokes the whole family when a used token comes back after the grace period', async () => {
    const { cookie } = await cookieLogin();
    const [a] = await Promise.all([
      call({ method: 'GET', url: '/papi/login/refresh', cookie }),
      call({ method: 'GET', url: '/papi/login/refresh', cookie }),
    ]);
    const successor = refreshCookieOf(a.response) as string;
    app.fanstage.clock.advance(refreshGraceMs + 1_000);
    const replay = await call({ method: 'GET', url: '/papi/login/refresh', cookie });
    expect(replay.response.statusCode).toBe(401);
    expect(replay.json).toEqual({ statusCode: -1, statusText: 'refresh-token-failed' });
    // The rightful holder's successor is gone with the family.
    expect((await call({ method: 'GET', url: '/papi/login/refresh', cookie: successor })).json.statusText).toBe('refresh-token-failed');
  });

  it('keeps a widget session bound to its origin and consent through refreshes', async () => {
    const fan = await createAccount(app);
    const origin = 'https://lucy.example';
    const [consent] = await app.fanstage.db.insert(embedConsents).values({ userId: fan.id, origin }).returning({ id: embedConsents.id });
    const started = await startSession(app.fanstage, fan.id, 'widget', { origin, consentId: consent!.id });
    const [a, b] = await Promise.all([refreshSession(app.fanstage, started.refreshToken), refreshSession(app.fanstage, started.refreshToken)]);
    expect(b.refreshToken).toBe(a.refreshToken);
    for (const session of [a, b]) {
      expect(session.origin).toBe(origin);
      expect(decodeJwt(session.accessToken)).toMatchObject({ userId: fan.id, sid: started.familyId, scp: 'widget', org: origin, cid: consent!.id });
    }
    const rows = await app.fanstage.db.select().from(refreshTokens).where(eq(refreshTokens.userId, fan.id));
    expect(rows.map((r) => [r.origin, r.consentId])).toEqual([
      [origin, consent!.id],
      [origin, consent!.id],
    ]);
  });

  it('gives no successor within the grace period once the session was logged out', async () => {
    const { cookie } = await cookieLogin();
    const rotated = await call({ method: 'GET', url: '/papi/login/refresh', cookie });
    await call({ method: 'GET', url: '/papi/login/logout', cookie: refreshCookieOf(rotated.response) as string });
    expect((await call({ method: 'GET', url: '/papi/login/refresh', cookie })).json.statusText).toBe('refresh-token-failed');
  });
});

/** Waits for the newest mail of a template to an address in the development outbox. */
async function mailTo(to: string, template: string) {
  for (let i = 0; i < 100; i++) {
    const response = await app.inject({ method: 'GET', url: `/dev/mail.json?to=${encodeURIComponent(to)}` });
    const { mails } = response.json() as { mails: { template: string; links: string[] }[] };
    const found = mails.find((mail) => mail.template === template);
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

describe('password-reset mails', () => {
  it('answers a known and an unknown address alike, without waiting for the mail', async () => {
    const account = await createAccount(app);
    const real = mailerOf(app.fanstage);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    // A mail server that does not answer: the reset answers anyway, as fast as for nobody.
    const slow: Mailer = {
      async send(mail) {
        started += 1;
        await held;
        await real.send(mail);
      },
    };
    setMailer(app.fanstage, slow);
    try {
      const known = await call({ url: '/papi/login/reset', payload: { email: account.email }, address: newRequester() });
      const unknown = await call({ url: '/papi/login/reset', payload: { email: `nobody.${account.id}@example.com` }, address: newRequester() });
      expect(known.response.statusCode).toBe(unknown.response.statusCode);
      expect(known.response.body).toBe(unknown.response.body);
      expect(known.json).toEqual({ statusCode: 1 });
      expect(Object.keys(known.response.headers).sort()).toEqual(Object.keys(unknown.response.headers).sort());
      for (let i = 0; i < 100 && started === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(started).toBe(1);
    } finally {
      release();
      setMailer(app.fanstage, real);
    }
    expect((await mailTo(account.email, 'reset-password'))?.links[0]).toContain('/reset-password/');
  });

  it('mails one address at most five times an hour, from anywhere', async () => {
    const account = await createAccount(app);
    const limit = throttles['reset-mail-address'].limit;
    for (let i = 0; i < limit; i++) expect((await call({ url: '/papi/login/reset', payload: { email: account.email }, address: newRequester() })).json).toEqual({ statusCode: 1 });
    const refused = await call({ url: '/papi/login/reset', payload: { email: account.email.toUpperCase() }, address: newRequester() });
    expect(refused.response.statusCode).toBe(429);
    expect(refused.json).toEqual({ statusCode: -1, statusText: 'too-many-requests' });
    // Unknown addresses count the same, so the limit tells nothing about the account.
    const ghost = `ghost.${account.id}@example.com`;
    for (let i = 0; i < limit; i++) await call({ url: '/papi/login/reset', payload: { email: ghost }, address: newRequester() });
    expect((await call({ url: '/papi/login/reset', payload: { email: ghost }, address: newRequester() })).response.statusCode).toBe(429);
    // Setting the password with a mailed link is no mail, and is not held back.
    expect((await call({ url: '/papi/login/reset', payload: { hash: 'x'.repeat(43), password: 'a new password' }, address: newRequester() })).json.statusText).toBe('link-expired');
  });

  it('lets one requester ask for twenty mails an hour, then again once the hour has passed', async () => {
    const requester = newRequester();
    const limit = throttles['reset-mail-requester'].limit;
    for (let i = 0; i < limit; i++) {
      expect((await call({ url: '/papi/login/reset', payload: { email: `walk.${i}.${requester}@example.com` }, address: requester })).json.statusCode).toBe(1);
    }
    const refused = await call({ url: '/papi/login/reset', payload: { email: `walk.last.${requester}@example.com` }, address: requester });
    expect(refused.response.statusCode).toBe(429);
    expect(refused.json.statusText).toBe('too-many-requests');
    expect((await call({ url: '/papi/login/reset', payload: { email: `walk.last.${requester}@example.com` }, address: newRequester() })).json.statusCode).toBe(1);
    app.fanstage.clock.advance(throttles['reset-mail-requester'].windowMs);
    expect((await call({ url: '/papi/login/reset', payload: { email: `walk.later.${requester}@example.com` }, address: requester })).json.statusCode).toBe(1);
  });
});

describe('e-mail checks', () => {
  it('answer thirty checks per requester in ten minutes, and ten per address', async () => {
    const requester = newRequester();
    const taken = await createAccount(app);
    const perRequester = throttles['check-email-requester'].limit;
    for (let i = 0; i < perRequester - 1; i++) {
      expect((await call({ url: '/papi/check/email', payload: { email: `free.${i}.${requester}@example.com` }, address: requester })).json).toEqual({ statusCode: 1 });
    }
    expect((await call({ url: '/papi/check/email', payload: { email: taken.email }, address: requester })).json).toEqual({ statusCode: -1, statusText: 'email-taken' });
    const refused = await call({ url: '/papi/check/email', payload: { email: `free.more.${requester}@example.com` }, address: requester });
    expect(refused.response.statusCode).toBe(429);
    expect(refused.json).toEqual({ statusCode: -1, statusText: 'too-many-requests' });

    const probed = await createAccount(app);
    const perAddress = throttles['check-email-address'].limit;
    for (let i = 0; i < perAddress; i++) expect((await call({ url: '/papi/check/email', payload: { email: probed.email }, address: newRequester() })).json.statusText).toBe('email-taken');
    expect((await call({ url: '/papi/check/email', payload: { email: probed.email }, address: newRequester() })).response.statusCode).toBe(429);
  });

  it('are pruned once no window looks at them', async () => {
    await call({ url: '/papi/check/email', payload: { email: 'pruned@example.com' }, address: newRequester() });
    const rows = () => app.fanstage.db.select().from(throttleEvents).where(eq(throttleEvents.key, 'pruned@example.com'));
    expect(await rows()).toHaveLength(1);
    await pruneExpired(app.fanstage, app.fanstage.clock.now().getTime());
    expect(await rows()).toHaveLength(1);
    await pruneExpired(app.fanstage, app.fanstage.clock.now().getTime() + 2 * 60 * 60_000);
    expect(await rows()).toHaveLength(0);
  });
});

describe('sockets of accounts that end', () => {
  it('are logged out and closed when the account is deleted', async () => {
    const fan = await createAccount(app);
    const socket = await connectSocket(server, fan);
    const deleted = await call({ method: 'DELETE', url: '/api/users/me', token: fan.accessToken, payload: { deleteReason: 1, password: fan.password } });
    expect(deleted.json).toEqual({ statusCode: 1 });
    expect(await socket.next((m) => m.type === 'beforeLogout')).toEqual({ type: 'beforeLogout', reason: 'account-deleted' });
    expect(await socket.closed).toBe(4401);
  });

  it('are logged out and closed when an admin blocks the account', async () => {
    const admin = await createAccount(app, { level: 500 });
    const fan = await createAccount(app);
    const socket = await connectSocket(server, fan);
    expect((await call({ url: `/api/admin/users/${fan.id}/block`, token: admin.accessToken })).json).toEqual({ statusCode: 1 });
    expect(await socket.next((m) => m.type === 'beforeLogout')).toEqual({ type: 'beforeLogout', reason: 'admin-blocked' });
    expect(await socket.closed).toBe(4401);
  });
});

describe('the affiliate lookup', () => {
  it('answers user-not-found to someone the affiliate blocked, and the profile to everyone else', async () => {
    const affiliate = await createAccount(app, { seller: true });
    const blocked = await createAccount(app);
    const other = await createAccount(app);
    expect((await call({ url: '/api/users/block', token: affiliate.accessToken, payload: { id: blocked.id } })).json.statusCode).toBeGreaterThan(0);
    const codeOf = async (token: string) => (await call({ method: 'GET', url: '/api/users/invite', token })).json.body.code as string;
    const url = `/papi/users/aff-code/${(await codeOf(affiliate.accessToken)).toLowerCase()}`;
    const refused = await call({ method: 'GET', url, token: blocked.accessToken });
    expect(refused.response.statusCode).toBe(404);
    expect(refused.json).toEqual({ statusCode: -1, statusText: 'user-not-found' });
    expect((await call({ method: 'GET', url, token: other.accessToken })).json.body.username).toBe(affiliate.username);
    expect((await call({ method: 'GET', url })).json.body.username).toBe(affiliate.username);
    // The one who blocked still sees whom they blocked, as on a profile.
    expect((await call({ method: 'GET', url: `/papi/users/aff-code/${await codeOf(blocked.accessToken)}`, token: affiliate.accessToken })).json.body.username).toBe(blocked.username);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { eq } from '../support/db';
import { startTestServer, type TestServer } from '../support/server';
import { pruneExpired } from '../../server/src/features/auth/service';
import { createAccount } from '../support/accounts';
import { actionTokens, loginAttempts, refreshTokens, users } from '../../server/src/db/schema';
import { ErrorKeys } from '../../lib/contract/errors';
import { refreshGraceMs } from '../../server/src/features/auth/domain';
import { heldAccountMs } from '../../server/src/features/auth/guard';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { statusCode: number; statusText?: string; body?: any };

interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
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
  // Every answer is an envelope; every failure names a key of the catalogue, never a 500.
  expect(response.statusCode).toBeLessThan(500);
  if (json.statusCode < 0) expect(ErrorKeys).toContain(json.statusText);
  return { response, json };
}

function refreshCookieOf(response: LightMyRequestResponse) {
  return response.cookies.find((c) => c.name === 'fs_refresh');
}

async function newestMail(to: string) {
  const response = await app.inject({ method: 'GET', url: `/dev/mail.json?to=${encodeURIComponent(to)}` });
  const { mails } = response.json() as { mails: { subject: string; text: string; html: string; links: string[]; template: string; language: string }[] };
  return mails[0];
}

function hashFromLink(link: string | undefined, prefix: string): string {
  expect(link).toBeDefined();
  const url = new URL(link as string);
  expect(url.origin).toBe(app.fanstage.config.publicUrl);
  expect(url.pathname.startsWith(prefix)).toBe(true);
  return url.pathname.slice(prefix.length);
}

async function me(token: string) {
  return call({ url: '/api/users/resend-verification', token });
}

describe('signup', () => {
  it('creates an account with a username derived from the e-mail and mails a verification link', async () => {
    const email = 'Jana.Nova+fans@example.com';
    const { response, json } = await call({ url: '/papi/signup', payload: { email, password: 'correct horse battery', language: 'cs' } });
    expect(response.statusCode).toBe(200);
    expect(json).toEqual({ statusCode: 1 });
    const [row] = await app.fanstage.db.select().from(users).where(eq(users.email, email));
    expect(row?.username).toBe('jana.nova_fans');
    expect(row?.emailVerified).toBe(false);
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const mail = await newestMail(email);
    expect(mail?.template).toBe('verify-email');
    expect(mail?.language).toBe('cs');
    expect(mail?.subject).toBe('Potvrďte svou e-mailovou adresu');
    expect(mail?.html).toContain('<html lang="cs">');
  });

  it('numbers the username when the derived one is taken', async () => {
    await call({ url: '/papi/signup', payload: { email: 'twin@one.example', password: 'long enough 1' } });
    const { json } = await call({ url: '/papi/signup', payload: { email: 'twin@two.example', password: 'long enough 2' } });
    expect(json.statusCode).toBe(1);
    const [row] = await app.fanstage.db.select().from(users).where(eq(users.email, 'twin@two.example'));
    expect(row?.username).toBe('twin1');
  });

  it('never derives a reserved or all-digit username', async () => {
    await call({ url: '/papi/signup', payload: { email: 'admin@site.example', password: 'long enough 3' } });
    await call({ url: '/papi/signup', payload: { email: '12345@site.example', password: 'long enough 4' } });
    const rows = await app.fanstage.db.select({ email: users.email, username: users.username }).from(users);
    expect(rows.find((r) => r.email === 'admin@site.example')?.username).toBe('admin1');
    expect(rows.find((r) => r.email === '12345@site.example')?.username).toBe('fan12345');
  });

  it('answers -2 email-taken for a registered e-mail in any case', async () => {
    const { response, json } = await call({ url: '/papi/signup', payload: { email: 'JANA.NOVA+fans@example.com', password: 'another password' } });
    expect(response.statusCode).toBe(409);
    expect(json).toEqual({ statusCode: -2, statusText: 'email-taken' });
  });

  it('refuses a short password and an invalid e-mail with -1', async () => {
    const weak = await call({ url: '/papi/signup', payload: { email: 'weak@example.com', password: 'short' } });
    expect(weak.response.statusCode).toBe(400);
    expect(weak.json.statusCode).toBe(-1);
    expect(weak.json.body.field).toBe('password');
    const invalid = await call({ url: '/papi/signup', payload: { email: 'not an e-mail', password: 'long enough pw' } });
    expect(invalid.json).toEqual({ statusCode: -1, statusText: 'invalid-email' });
  });
});

describe('e-mail verification', () => {
  it('confirms the e-mail through the mailed link, once', async () => {
    const email = 'verify.me@example.com';
    await call({ url: '/papi/signup', payload: { email, password: 'verify password' } });
    const hash = hashFromLink((await newestMail(email))?.links[0], '/action/');
    const first = await call({ url: '/papi/action/jwt', payload: { hash } });
    expect(first.json).toEqual({ statusCode: 2, body: { action: 'verify-email' } });
    const [row] = await app.fanstage.db.select().from(users).where(eq(users.email, email));
    expect(row?.emailVerified).toBe(true);
    const again = await call({ url: '/papi/action/jwt', payload: { hash } });
    expect(again.json).toEqual({ statusCode: -1, statusText: 'link-expired' });
  });

  it('refuses an expired link', async () => {
    const account = await createAccount(app, { verified: false });
    await me(account.accessToken);
    const hash = hashFromLink((await newestMail(account.email))?.links[0], '/action/');
    await app.fanstage.db.update(actionTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(actionTokens.userId, account.id));
    const { json } = await call({ url: '/papi/action/jwt', payload: { hash } });
    expect(json.statusText).toBe('link-expired');
  });

  it('offers one resend a day, and none once verified', async () => {
    const email = 'resend@example.com';
    await call({ url: '/papi/signup', payload: { email, password: 'resend password' } });
    const login = await call({ url: '/papi/login', payload: { email, password: 'resend password' } });
    const token = login.json.body.accessToken as string;
    expect((await me(token)).json).toEqual({ statusCode: 1 });
    const second = await me(token);
    expect(second.response.statusCode).toBe(429);
    expect(second.json).toEqual({ statusCode: -1, statusText: 'too-many-requests' });
    // A day later one more resend is offered, and again only one.
    const [row] = await app.fanstage.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await app.fanstage.db.update(actionTokens).set({ createdAt: new Date(Date.now() - 25 * 60 * 60_000) }).where(eq(actionTokens.userId, row?.id ?? 0));
    expect((await me(token)).json).toEqual({ statusCode: 1 });
    expect((await me(token)).json.statusText).toBe('too-many-requests');
    const verified = await createAccount(app, { verified: true });
    expect((await me(verified.accessToken)).json).toEqual({ statusCode: -1, statusText: 'already-verified' });
    expect((await call({ url: '/api/users/resend-verification' })).response.statusCode).toBe(401);
  });
});

describe('login', () => {
  it('answers an access token and sets the refresh cookie HttpOnly, SameSite=Lax, on /papi/login', async () => {
    const account = await createAccount(app);
    const { response, json } = await call({ url: '/papi/login', payload: { email: account.email.toUpperCase(), password: account.password } });
    expect(json.statusCode).toBe(2);
    expect(Object.keys(json.body)).toEqual(['accessToken']);
    const [, payload] = (json.body.accessToken as string).split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString()) as { userId: number; exp: number; iat: number };
    expect(claims.userId).toBe(account.id);
    expect(claims.exp - claims.iat).toBeGreaterThan(14 * 60);
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(15 * 60);
    const cookie = refreshCookieOf(response);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/papi/login', maxAge: 30 * 24 * 3600 });
    // The test server is plain http; Secure would keep the browser from sending it back.
    expect(cookie?.secure).toBeFalsy();
    const [stored] = await app.fanstage.db.select().from(refreshTokens).where(eq(refreshTokens.userId, account.id));
    expect(stored?.tokenHash).not.toBe(cookie?.value);
    expect(stored?.tokenHash).toHaveLength(43);
  });

  it('answers the refresh token in the body with tokenInBody, and sets no cookie', async () => {
    const account = await createAccount(app);
    const { response, json } = await call({ url: '/papi/login', payload: { email: account.email, password: account.password, tokenInBody: true } });
    expect(typeof json.body.refreshToken).toBe('string');
    expect(refreshCookieOf(response)).toBeUndefined();
  });

  it('answers -1 invalid-credentials for a wrong password and an unknown e-mail alike', async () => {
    const account = await createAccount(app);
    const wrong = await call({ url: '/papi/login', payload: { email: account.email, password: 'not the password' } });
    const unknown = await call({ url: '/papi/login', payload: { email: 'nobody@example.com', password: 'not the password' } });
    for (const { response, json } of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(json).toEqual({ statusCode: -1, statusText: 'invalid-credentials' });
    }
    const attempts = await app.fanstage.db.select().from(loginAttempts).where(eq(loginAttempts.userId, account.id));
    expect(attempts.map((a) => a.succeeded)).toEqual([false]);
  });

  // How repeated failures are held back (never the owner): tests/server/signin-throttle.test.ts.
});

describe('refresh and logout', () => {
  async function cookieLogin() {
    const account = await createAccount(app);
    const { response } = await call({ url: '/papi/login', payload: { email: account.email, password: account.password } });
    return { account, cookie: refreshCookieOf(response)?.value as string };
  }

  it('rotates the cookie on every refresh', async () => {
    const { account, cookie } = await cookieLogin();
    const { response, json } = await call({ method: 'GET', url: '/papi/login/refresh', cookie });
    expect(json.statusCode).toBe(2);
    const next = refreshCookieOf(response)?.value;
    expect(next).toBeDefined();
    expect(next).not.toBe(cookie);
    expect((await me(json.body.accessToken as string)).response.statusCode).not.toBe(401);
    const rows = await app.fanstage.db.select().from(refreshTokens).where(eq(refreshTokens.userId, account.id));
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.familyId)).size).toBe(1);
    expect(rows.filter((r) => r.usedAt !== null)).toHaveLength(1);
  });

  it('revokes the whole family when a used token comes back', async () => {
    const { cookie: first } = await cookieLogin();
    const rotated = await call({ method: 'GET', url: '/papi/login/refresh', cookie: first });
    const second = refreshCookieOf(rotated.response)?.value as string;
    // Past the grace period that covers tabs refreshing together, a thief replays the first
    // token: refused, and the family is gone …
    app.fanstage.clock.advance(refreshGraceMs + 1_000);
    const replay = await call({ method: 'GET', url: '/papi/login/refresh', cookie: first });
    expect(replay.response.statusCode).toBe(401);
    expect(replay.json).toEqual({ statusCode: -1, statusText: 'refresh-token-failed' });
    expect(refreshCookieOf(replay.response)?.value).toBe('');
    // … so the rightful holder's newer token stops working too.
    const victim = await call({ method: 'GET', url: '/papi/login/refresh', cookie: second });
    expect(victim.json.statusText).toBe('refresh-token-failed');
  });

  it('rotates body tokens the same way', async () => {
    const account = await createAccount(app);
    const login = await call({ url: '/papi/login', payload: { email: account.email, password: account.password, tokenInBody: true } });
    const token = login.json.body.refreshToken as string;
    const next = await call({ url: '/papi/login/refresh', payload: { refreshToken: token } });
    expect(next.json.statusCode).toBe(2);
    expect(next.json.body.refreshToken).not.toBe(token);
    app.fanstage.clock.advance(refreshGraceMs + 1_000);
    expect((await call({ url: '/papi/login/refresh', payload: { refreshToken: token } })).json.statusText).toBe('refresh-token-failed');
    expect((await call({ url: '/papi/login/refresh', payload: { refreshToken: next.json.body.refreshToken } })).json.statusText).toBe('refresh-token-failed');
  });

  it('refuses expired, unknown and missing refresh tokens', async () => {
    const { account, cookie } = await cookieLogin();
    await app.fanstage.db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(refreshTokens.userId, account.id));
    expect((await call({ method: 'GET', url: '/papi/login/refresh', cookie })).response.statusCode).toBe(401);
    expect((await call({ method: 'GET', url: '/papi/login/refresh', cookie: 'x'.repeat(43) })).json.statusText).toBe('refresh-token-failed');
    expect((await call({ method: 'GET', url: '/papi/login/refresh' })).json.statusText).toBe('refresh-token-failed');
  });

  it('logs out: the family is revoked and the cookie cleared', async () => {
    const { cookie } = await cookieLogin();
    const out = await call({ method: 'GET', url: '/papi/login/logout', cookie });
    expect(out.json).toEqual({ statusCode: 1 });
    const cleared = refreshCookieOf(out.response);
    expect(cleared?.value).toBe('');
    expect(cleared?.path).toBe('/papi/login');
    expect((await call({ method: 'GET', url: '/papi/login/refresh', cookie })).json.statusText).toBe('refresh-token-failed');
    const account = await createAccount(app);
    const login = await call({ url: '/papi/login', payload: { email: account.email, password: account.password, tokenInBody: true } });
    const refreshToken = login.json.body.refreshToken as string;
    expect((await call({ url: '/papi/login/logout', payload: { refreshToken } })).json).toEqual({ statusCode: 1 });
    expect((await call({ url: '/papi/login/refresh', payload: { refreshToken } })).json.statusText).toBe('refresh-token-failed');
  });
});

describe('access tokens', () => {
  const sign = (claims: Record<string, unknown>, key: string, exp: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(key));

  it('refuses alg none, another key, an expired token and a malformed header with 401 unauthorized', async () => {
    const account = await createAccount(app, { verified: false });
    const now = Math.floor(Date.now() / 1000);
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ userId: account.id, iat: now, exp: now + 600 })}.`;
    const otherKey = await sign({ userId: account.id }, 'another key of at least thirty-two characters', now + 600);
    const expired = await sign({ userId: account.id }, app.fanstage.config.jwtSecret, now - 10);
    const good = await sign({ userId: account.id }, app.fanstage.config.jwtSecret, now + 600);
    for (const token of [none, otherKey, expired, 'not-a-jwt']) {
      const { response, json } = await me(token);
      expect(response.statusCode).toBe(401);
      expect(json).toEqual({ statusCode: -1, statusText: 'unauthorized' });
    }
    const malformed = await app.inject({ method: 'POST', url: '/api/users/resend-verification', headers: { authorization: 'Basic abc' } });
    expect(malformed.statusCode).toBe(401);
    expect((await me(good)).json).toEqual({ statusCode: 1 });
  });

  it('holds a checked signature only for those very bytes, and only until the token expires', async () => {
    const account = await createAccount(app, { verified: false });
    const now = Math.floor(Date.now() / 1000);
    const good = await sign({ userId: account.id }, app.fanstage.config.jwtSecret, now + 2);
    expect((await me(good)).json).toEqual({ statusCode: 1 });
    // The same claims under a signature that is not the key's: refused though the good one was just checked.
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await me(`${header}.${payload}.${flipped}`)).response.statusCode).toBe(401);
    // Claims changed under the good signature (another account): refused.
    const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), userId: account.id + 1 })).toString('base64url');
    expect((await me(`${header}.${other}.${signature}`)).response.statusCode).toBe(401);
    expect((await me(good)).json).toEqual({ statusCode: 1 });
    // Past its expiry the held check no longer counts.
    await new Promise((r) => setTimeout(r, (now + 2) * 1000 - Date.now() + 50));
    expect((await me(good)).response.statusCode).toBe(401);
  });
});

describe('password reset', () => {
  it('always answers 1, and mails a link only to an existing account', async () => {
    const before = await newestMail('ghost@example.com');
    expect((await call({ url: '/papi/login/reset', payload: { email: 'ghost@example.com' } })).json).toEqual({ statusCode: 1 });
    expect(await newestMail('ghost@example.com')).toEqual(before);
  });

  it('sets the new password and ends every session', async () => {
    const account = await createAccount(app);
    const login = await call({ url: '/papi/login', payload: { email: account.email, password: account.password } });
    const cookie = refreshCookieOf(login.response)?.value as string;
    const accessToken = login.json.body.accessToken as string;
    expect((await call({ url: '/papi/login/reset', payload: { email: account.email } })).json).toEqual({ statusCode: 1 });
    // The mail goes out after the answer, so the answer cannot tell whether the account exists.
    let mail = await newestMail(account.email);
    for (let i = 0; i < 100 && mail?.template !== 'reset-password'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      mail = await newestMail(account.email);
    }
    expect(mail?.template).toBe('reset-password');
    const hash = hashFromLink(mail?.links[0], '/reset-password/');
    expect((await call({ url: '/papi/login/reset', payload: { hash, password: 'brand new password' } })).json).toEqual({ statusCode: 1 });
    expect((await me(accessToken)).response.statusCode).toBe(401);
    expect((await call({ method: 'GET', url: '/papi/login/refresh', cookie })).json.statusText).toBe('refresh-token-failed');
    expect((await call({ url: '/papi/login', payload: { email: account.email, password: account.password } })).json.statusText).toBe('invalid-credentials');
    const fresh = await call({ url: '/papi/login', payload: { email: account.email, password: 'brand new password' } });
    expect(fresh.json.statusCode).toBe(2);
    expect((await me(fresh.json.body.accessToken as string)).response.statusCode).not.toBe(401);
    // The link works once.
    expect((await call({ url: '/papi/login/reset', payload: { hash, password: 'yet another one' } })).json.statusText).toBe('link-expired');
  });
});

describe('admin block', () => {
  it('needs level 500', async () => {
    const support = await createAccount(app, { level: 100 });
    const target = await createAccount(app);
    const { response, json } = await call({ url: `/api/admin/users/${target.id}/block`, token: support.accessToken });
    expect(response.statusCode).toBe(403);
    expect(json).toEqual({ statusCode: -1, statusText: 'forbidden' });
    expect((await call({ url: '/api/admin/users/2147483000/block', token: (await createAccount(app, { level: 500 })).accessToken })).json.statusText).toBe('user-not-found');
  });

  it('logs the account out everywhere and keeps it from logging in', async () => {
    const admin = await createAccount(app, { level: 500 });
    const target = await createAccount(app);
    const login = await call({ url: '/papi/login', payload: { email: target.email, password: target.password, tokenInBody: true } });
    // The node holds the account behind a token for a moment; the block ends that at once.
    expect((await call({ method: 'GET', url: '/api/users/me', token: target.accessToken })).response.statusCode).toBe(200);
    expect((await call({ url: `/api/admin/users/${target.id}/block`, token: admin.accessToken })).json).toEqual({ statusCode: 1 });
    expect((await me(target.accessToken)).response.statusCode).toBe(401);
    expect((await me(login.json.body.accessToken as string)).response.statusCode).toBe(401);
    expect((await call({ url: '/papi/login/refresh', payload: { refreshToken: login.json.body.refreshToken } })).json.statusText).toBe('refresh-token-failed');
    const banned = await call({ url: '/papi/login', payload: { email: target.email, password: target.password } });
    expect(banned.json).toEqual({ statusCode: -1, statusText: 'banned' });
    // Without the password nobody learns that the account is blocked.
    expect((await call({ url: '/papi/login', payload: { email: target.email, password: 'a wrong guess' } })).json.statusText).toBe('invalid-credentials');
  });
});

describe('the account behind a token', () => {
  const account = (token: string) => call({ method: 'GET', url: '/api/users/me', token });

  it('is held a second at most, even when it changes behind the server’s back', async () => {
    const fan = await createAccount(app);
    expect((await account(fan.accessToken)).response.statusCode).toBe(200);
    // A change no request of this server made (another program on the database): no write and
    // no logout announces it, so only the hold's own limit ends it.
    await app.fanstage.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, fan.id));
    expect((await account(fan.accessToken)).response.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, heldAccountMs + 50));
    expect((await account(fan.accessToken)).response.statusCode).toBe(401);
  });

  it('is read afresh after any write the server answered', async () => {
    const fan = await createAccount(app);
    const creator = await createAccount(app, { seller: true });
    expect((await account(fan.accessToken)).response.statusCode).toBe(200);
    await app.fanstage.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, fan.id));
    // Someone else's write, answered by this server, ends everything it held.
    expect((await call({ url: '/api/users/follow', token: creator.accessToken, payload: { id: fan.id } })).json.statusCode).toBeGreaterThan(0);
    expect((await account(fan.accessToken)).response.statusCode).toBe(401);
  });
});

describe('embed sign-in', () => {
  it('exchanges a one-time code on the origin it was issued for, once the fan allowed that site', async () => {
    const fan = await createAccount(app);
    const notYet = await call({ url: '/api/embed/code', token: fan.accessToken, payload: { origin: 'https://lucy.example' } });
    expect(notYet.response.statusCode).toBe(403);
    expect(notYet.json).toEqual({ statusCode: -1, statusText: 'consent-required' });
    const issued = await call({ url: '/api/embed/code', token: fan.accessToken, payload: { origin: 'https://lucy.example', allow: true } });
    expect(issued.json.statusCode).toBe(2);
    expect(issued.json.body.expiresIn).toBe(60);
    const code = issued.json.body.code as string;
    const wrongOrigin = await call({ url: '/papi/embed/exchange', payload: { code, origin: 'https://evil.example' } });
    expect(wrongOrigin.json).toEqual({ statusCode: -1, statusText: 'invalid-code' });
    // The wrong origin spent the code: an attacker who intercepted it cannot keep trying.
    const afterWrong = await call({ url: '/papi/embed/exchange', payload: { code, origin: 'https://lucy.example' } });
    expect(afterWrong.json.statusText).toBe('invalid-code');

    // Allowed once, asked no more.
    const again = await call({ url: '/api/embed/code', token: fan.accessToken, payload: { origin: 'https://lucy.example' } });
    expect(again.json.statusCode).toBe(2);
    const exchanged = await call({ url: '/papi/embed/exchange', payload: { code: again.json.body.code, origin: 'https://lucy.example' } });
    expect(exchanged.json.statusCode).toBe(2);
    expect(refreshCookieOf(exchanged.response)).toBeUndefined();
    // A valid token (no 401), but a widget's: resending the verification mail is not a widget action.
    expect((await me(exchanged.json.body.accessToken as string)).json.statusText).toBe('widget-scope');
    const refreshed = await call({ url: '/papi/login/refresh', payload: { refreshToken: exchanged.json.body.refreshToken } });
    expect(refreshed.json.statusCode).toBe(2);
    expect((await call({ url: '/papi/embed/exchange', payload: { code: again.json.body.code, origin: 'https://lucy.example' } })).json.statusText).toBe('invalid-code');
  });

  it('issues codes for the platform itself without asking, and they expire', async () => {
    const fan = await createAccount(app);
    const own = new URL(app.fanstage.config.publicUrl).origin;
    const issued = await call({ url: '/api/embed/code', token: fan.accessToken, payload: { origin: own } });
    expect(issued.json.statusCode).toBe(2);
    await app.fanstage.db.update(actionTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(actionTokens.userId, fan.id));
    expect((await call({ url: '/papi/embed/exchange', payload: { code: issued.json.body.code, origin: own } })).json.statusText).toBe('invalid-code');
    expect((await call({ url: '/api/embed/code', payload: { origin: own } })).response.statusCode).toBe(401);
  });
});

describe('development outbox', () => {
  it('lists mails newest first as JSON, filtered by recipient, and as a page with clickable links', async () => {
    await call({ url: '/papi/signup', payload: { email: 'outbox.a@example.com', password: 'outbox password' } });
    await call({ url: '/papi/signup', payload: { email: 'outbox.b@example.com', password: 'outbox password' } });
    const all = (await app.inject({ method: 'GET', url: '/dev/mail.json' })).json() as { mails: { to: string }[] };
    expect(all.mails[0]?.to).toBe('outbox.b@example.com');
    expect(all.mails[1]?.to).toBe('outbox.a@example.com');
    const filtered = (await app.inject({ method: 'GET', url: '/dev/mail.json?to=outbox.a@example.com' })).json() as { mails: { to: string }[] };
    expect(filtered.mails.map((m) => m.to)).toEqual(['outbox.a@example.com']);
    const page = await app.inject({ method: 'GET', url: '/dev/mail' });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toMatch(new RegExp(`<a href="${app.fanstage.config.publicUrl}/action/[A-Za-z0-9_-]{43}">`));
  });
});

describe('housekeeping', () => {
  it('deletes old login attempts and long-expired tokens, and keeps the live ones', async () => {
    const account = await createAccount(app, { verified: false });
    const login = await call({ url: '/papi/login', payload: { email: account.email, password: account.password, tokenInBody: true } });
    await me(account.accessToken);
    const day = 24 * 60 * 60_000;
    await app.fanstage.db.insert(loginAttempts).values({ userId: account.id, address: '10.3.3.3', succeeded: false, createdAt: new Date(Date.now() - 3 * day) });
    await app.fanstage.db.insert(refreshTokens).values({ userId: account.id, familyId: 'old', tokenHash: 'old-hash', expiresAt: new Date(Date.now() - 2 * day) });
    await pruneExpired(app.fanstage);
    const attempts = await app.fanstage.db.select().from(loginAttempts).where(eq(loginAttempts.userId, account.id));
    expect(attempts.map((a) => a.address)).toEqual(['127.0.0.1']);
    const tokens = await app.fanstage.db.select().from(refreshTokens).where(eq(refreshTokens.userId, account.id));
    expect(tokens.map((t) => t.familyId)).not.toContain('old');
    expect(tokens).toHaveLength(1);
    expect(await app.fanstage.db.select().from(actionTokens).where(eq(actionTokens.userId, account.id))).toHaveLength(1);
    expect((await call({ url: '/papi/login/refresh', payload: { refreshToken: login.json.body.refreshToken } })).json.statusCode).toBe(2);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFanstage, decodeAccessToken, REFRESH_AHEAD_MS, REFRESH_RETRY_MS, SdkError, type Fanstage, type LogoutReason, type TokenStorage } from '../../lib/sdk';
import { refreshTokens, users } from '../../server/src/db/schema';
import { issueAccessToken } from '../../server/src/features/auth/guard';
import { tokenHash } from '../../server/src/features/auth/domain';
import { revokeSessions } from '../../server/src/features/auth/service';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { eq } from '../support/db';
import { person, type Person } from '../server/support-feeds';

let server: TestServer;
let fan: TestAccount;
let alice: Person;
const made: Fanstage[] = [];

interface SentRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

/** Every request the Fanstages of this file sent, oldest first. */
const sent: SentRequest[] = [];

/**
 * What the real server cannot be made to do on demand — answer a refresh late, or not at
 * all as when the line drops — is done here, on the client's side of the socket.
 */
const line = { refreshDelay: 0, dropRefreshes: 0 };

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  fan = await createAccount(server.app, { password: 'correct horse battery' });
  alice = await person(server.app, { username: 'alice', displayName: 'Alice Nováková', followersCount: 1500 });
}, 60_000);

afterEach(() => {
  vi.useRealTimers();
  line.refreshDelay = 0;
  line.dropRefreshes = 0;
  for (const fanstage of made.splice(0)) fanstage.session.dispose();
});

afterAll(async () => {
  await server?.close();
});

function memoryStorage(): TokenStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

function parsed(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

type BrowserFetch = typeof globalThis.fetch & { jar: Map<string, string> };

/** One browser: it keeps the server's cookies (Node's fetch keeps none) and logs what it sends. */
function browser(): BrowserFetch {
  const jar = new Map<string, string>();
  const fetching = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    sent.push({ method: (init?.method ?? 'GET').toUpperCase(), path: url.pathname, headers, body: parsed(init?.body) });
    const refreshing = url.pathname === '/papi/login/refresh';
    if (refreshing && line.dropRefreshes > 0) {
      line.dropRefreshes -= 1;
      throw new TypeError('fetch failed');
    }
    const response = await globalThis.fetch(input, { ...init, headers });
    if (refreshing && line.refreshDelay > 0) await new Promise((resolve) => setTimeout(resolve, line.refreshDelay));
    for (const cookie of response.headers.getSetCookie()) {
      const [name = '', value = ''] = (cookie.split(';')[0] ?? '').split('=');
      if (value === '' || /max-age=0/i.test(cookie)) jar.delete(name.trim());
      else jar.set(name.trim(), value.trim());
    }
    return response;
  };
  return Object.assign(fetching, { jar });
}

function count(path: string, method?: string): number {
  return sent.filter((r) => r.path === path && (method === undefined || r.method === method)).length;
}

function last(path: string): SentRequest | undefined {
  return sent.filter((r) => r.path === path).at(-1);
}

/** The server's record of a refresh token: live, used (rotated) or revoked. */
async function refreshTokenState(token: string | undefined): Promise<'live' | 'used' | 'revoked' | 'unknown'> {
  if (token === undefined) return 'unknown';
  const [row] = await server.app.fanstage.db
    .select({ usedAt: refreshTokens.usedAt, revokedAt: refreshTokens.revokedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash(token)));
  if (row === undefined) return 'unknown';
  return row.revokedAt !== null ? 'revoked' : row.usedAt !== null ? 'used' : 'live';
}

/** A fan of one's own, for tests that end or change the fan's sessions. */
function freshFan(options: AccountOptions = {}): Promise<TestAccount> {
  return createAccount(server.app, { password: 'correct horse battery', ...options });
}

function site(onLogout?: (reason: LogoutReason) => void, fetch: BrowserFetch = browser()): Fanstage {
  const fanstage = createFanstage({ baseUrl: server.baseUrl, fetch, session: { mode: 'cookie', ...(onLogout ? { onLogout } : {}) } });
  made.push(fanstage);
  return fanstage;
}

function widget(storage?: TokenStorage, onLogout?: (reason: LogoutReason) => void): Fanstage {
  const fanstage = createFanstage({
    baseUrl: server.baseUrl,
    fetch: browser(),
    session: { mode: 'body', ...(storage ? { storage } : {}), ...(onLogout ? { onLogout } : {}) },
  });
  made.push(fanstage);
  return fanstage;
}

/** The refresh family (`sid`) of an access token the server issued. */
function familyOf(accessToken: string | null): string {
  const payload = JSON.parse(Buffer.from((accessToken ?? '').split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid?: string };
  if (payload.sid === undefined) throw new Error('no session family in the token');
  return payload.sid;
}

/** A token the server signed for `userId` sixteen minutes ago: expired by now. */
async function expiredAccessToken(userId: number): Promise<string> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 16 * 60_000 });
  try {
    return await issueAccessToken(server.app.fanstage, userId);
  } finally {
    vi.useRealTimers();
  }
}

describe('decodeAccessToken', () => {
  it('reads userId and exp from a token the server signed and refuses what is not one', async () => {
    const issuedAt = Math.floor(Date.now() / 1000);
    const claims = decodeAccessToken(await issueAccessToken(server.app.fanstage, fan.id));
    expect(claims?.userId).toBe(fan.id);
    // The server's access tokens last 15 minutes.
    expect((claims?.exp ?? 0) - issuedAt).toBeGreaterThanOrEqual(15 * 60 - 1);
    expect((claims?.exp ?? 0) - issuedAt).toBeLessThanOrEqual(15 * 60 + 1);
    expect(decodeAccessToken('not-a-token')).toBeNull();
    expect(decodeAccessToken('a.b.c')).toBeNull();
  });
});

describe('the session on the site (cookie mode), against the real server', () => {
  it('logs in, loads the account and sends the token on /api calls only', async () => {
    const { session, client } = site();
    expect(session.status.value).toBe('anonymous');
    const pending = session.login(fan.email, 'correct horse battery');
    expect(session.status.value).toBe('authenticating');
    await pending;
    expect(session.status.value).toBe('authenticated');
    expect(session.isLoggedIn.value).toBe(true);
    expect(session.userId.value).toBe(fan.id);
    expect(session.account.value?.email).toBe(fan.email);

    expect(last('/api/users/me')?.headers.get('authorization')).toBe(`Bearer ${session.accessToken.value}`);
    await client.get(`/papi/users/${alice.id}`);
    expect(sent.at(-1)?.path).toBe(`/papi/users/${alice.id}`);
    expect(sent.at(-1)?.headers.get('authorization')).toBeNull();
  });

  it('rejects wrong credentials with the server’s key and stays anonymous', async () => {
    const { session } = site();
    const error = await session.login(fan.email, 'wrong').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe('invalid-credentials');
    expect((error as SdkError).statusCode).toBe(-1);
    expect(session.status.value).toBe('anonymous');
    expect(session.isLoggedIn.value).toBe(false);
  });

  it('refreshes through the cookie, with no token in the request body, and the server rotates it', async () => {
    const fetch = browser();
    const { session } = site(undefined, fetch);
    await session.login(fan.email, 'correct horse battery');
    const first = session.accessToken.value;
    const cookie = fetch.jar.get('fs_refresh');
    expect(await refreshTokenState(cookie)).toBe('live');
    await expect(session.refresh()).resolves.toBe(true);
    expect(session.accessToken.value).not.toBe(first);
    const call = last('/papi/login/refresh');
    expect(call?.method).toBe('GET');
    expect(call?.body).toBeUndefined();
    // The browser sends the refresh cookie it holds (beside the readable fs_session marker).
    expect(call?.headers.get('cookie')?.split('; ')).toContain(`fs_refresh=${cookie}`);
    expect(fetch.jar.get('fs_refresh')).not.toBe(cookie);
    expect(await refreshTokenState(cookie)).toBe('used');
    expect(await refreshTokenState(fetch.jar.get('fs_refresh'))).toBe('live');
  });

  it('answers a 401 from /api with one refresh and one retry of the call', async () => {
    const own = await freshFan();
    const { session, client } = site();
    await session.login(own.email, 'correct horse battery');
    // As after a password change made in this session: every access token issued until now
    // stops working, while this session's refresh family is kept.
    await revokeSessions(server.app.fanstage, own.id, familyOf(session.accessToken.value));
    const refreshes = count('/papi/login/refresh');
    const mes = count('/api/users/me');
    const me = await client.get<{ email: string }>('/api/users/me');
    expect(me.email).toBe(own.email);
    expect(count('/papi/login/refresh') - refreshes).toBe(1);
    expect(count('/api/users/me') - mes).toBe(2);
    expect(session.isLoggedIn.value).toBe(true);
  });

  it('shares one refresh among concurrent 401s', async () => {
    const own = await freshFan();
    const { session, client } = site();
    await session.login(own.email, 'correct horse battery');
    await revokeSessions(server.app.fanstage, own.id, familyOf(session.accessToken.value));
    line.refreshDelay = 50;
    const refreshes = count('/papi/login/refresh');
    const results = await Promise.all([1, 2, 3, 4].map(() => client.get<{ email: string }>('/api/users/me')));
    expect(results.map((r) => r.email)).toEqual(Array(4).fill(own.email));
    expect(count('/papi/login/refresh') - refreshes).toBe(1);
  });

  it('logs out softly with refresh-token-failed when the refresh is refused, and the call fails with its 401', async () => {
    const own = await freshFan();
    const reasons: LogoutReason[] = [];
    const { session, client } = site((reason) => reasons.push(reason));
    await session.login(own.email, 'correct horse battery');
    // Every session of the fan ends (as when the password is reset from a mailed link).
    await revokeSessions(server.app.fanstage, own.id);
    const mes = count('/api/users/me');
    const refreshes = count('/papi/login/refresh');
    const error = await client.get('/api/users/me').catch((e: unknown) => e);
    expect((error as SdkError).httpStatus).toBe(401);
    // No retry without a new token, and no second refresh.
    expect(count('/api/users/me') - mes).toBe(1);
    expect(count('/papi/login/refresh') - refreshes).toBe(1);
    expect(reasons).toEqual(['refresh-token-failed']);
    expect(session.logoutReason.value).toBe('refresh-token-failed');
    expect(session.status.value).toBe('anonymous');
    expect(session.accessToken.value).toBeNull();
    expect(session.account.value).toBeNull();
    expect(session.userId.value).toBeNull();
  });

  it('logout calls the server, which revokes the session, clears everything and reports the reason', async () => {
    const reasons: LogoutReason[] = [];
    const fetch = browser();
    const { session } = site((reason) => reasons.push(reason), fetch);
    await session.login(fan.email, 'correct horse battery');
    const cookie = fetch.jar.get('fs_refresh');
    expect(await refreshTokenState(cookie)).toBe('live');
    await session.logout();
    expect(last('/papi/login/logout')?.method).toBe('GET');
    expect(await refreshTokenState(cookie)).toBe('revoked');
    expect(fetch.jar.has('fs_refresh')).toBe(false);
    expect(session.isLoggedIn.value).toBe(false);
    expect(session.account.value).toBeNull();
    expect(reasons).toEqual(['logout']);
    // The cookie went with the session: a refresh no longer works.
    await expect(session.refresh()).resolves.toBe(false);
  });

  it('a refresh still on its way when the user logs out does not log back in', async () => {
    const { session } = site();
    await session.login(fan.email, 'correct horse battery');
    line.refreshDelay = 80;
    const refreshing = session.refresh();
    await session.logout();
    await expect(refreshing).resolves.toBe(false);
    expect(session.isLoggedIn.value).toBe(false);
    expect(session.status.value).toBe('anonymous');
  });

  it('restore resumes a session from the cookie, and a failed restore is silent', async () => {
    const fetch = browser();
    const first = createFanstage({ baseUrl: server.baseUrl, fetch, session: { mode: 'cookie' } });
    made.push(first);
    await first.session.login(fan.email, 'correct horse battery');
    first.session.dispose();

    // A page reload: a new Fanstage on the same cookie jar.
    const reasons: LogoutReason[] = [];
    const again = createFanstage({ baseUrl: server.baseUrl, fetch, session: { mode: 'cookie', onLogout: (r) => reasons.push(r) } });
    made.push(again);
    await expect(again.session.restore()).resolves.toBe(true);
    expect(again.session.account.value?.email).toBe(fan.email);

    const stranger = site((r) => reasons.push(r));
    await expect(stranger.session.restore()).resolves.toBe(false);
    expect(stranger.session.status.value).toBe('anonymous');
    expect(stranger.session.logoutReason.value).toBeNull();
    expect(reasons).toEqual([]);
  });

  it('signs up and then logs in automatically', async () => {
    const { session } = site();
    await session.signup({ email: 'new.fan@example.com', password: 'a long passphrase' });
    expect(session.isLoggedIn.value).toBe(true);
    expect(session.account.value?.email).toBe('new.fan@example.com');
    expect(session.account.value?.emailVerified).toBe(false);
    const signupAt = sent.findIndex((r) => r.path === '/papi/signup' && (r.body as { email?: string }).email === 'new.fan@example.com');
    const loginAt = sent.findIndex((r, i) => i > signupAt && r.path === '/papi/login');
    expect(signupAt).toBeGreaterThanOrEqual(0);
    expect(loginAt).toBeGreaterThan(signupAt);
    const [stored] = await server.app.fanstage.db.select({ id: users.id }).from(users).where(eq(users.email, 'new.fan@example.com'));
    expect(stored?.id).toBe(session.userId.value);
  });

  it('does not log in when the sign-up is refused', async () => {
    const { session } = site();
    const logins = count('/papi/login');
    const error = await session.signup({ email: fan.email, password: 'a long passphrase' }).catch((e: unknown) => e);
    expect((error as SdkError).statusCode).toBe(-2);
    expect((error as SdkError).code).toBe('email-taken');
    expect(session.status.value).toBe('anonymous');
    expect(count('/papi/login')).toBe(logins);
  });
});

describe('refresh timing', () => {
  it('refreshes 20 s before the access token expires', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { session } = site();
    await session.login(fan.email, 'correct horse battery');
    const first = session.accessToken.value;
    const exp = decodeAccessToken(first ?? '')?.exp ?? 0;
    const refreshes = count('/papi/login/refresh');

    vi.advanceTimersByTime(exp * 1000 - REFRESH_AHEAD_MS - Date.now() - 1);
    expect(count('/papi/login/refresh')).toBe(refreshes);
    vi.advanceTimersByTime(1);
    // The refresh has started; the network is real, so time runs normally from here.
    vi.useRealTimers();
    await vi.waitFor(() => expect(session.accessToken.value).not.toBe(first));
    expect(count('/papi/login/refresh') - refreshes).toBe(1);
  });

  it('tries again a little later when a scheduled refresh gets no answer, keeping the session', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const reasons: LogoutReason[] = [];
    const { session } = site((reason) => reasons.push(reason));
    await session.login(fan.email, 'correct horse battery');
    const first = session.accessToken.value;
    const exp = decodeAccessToken(first ?? '')?.exp ?? 0;
    const refreshes = count('/papi/login/refresh');
    line.dropRefreshes = 1;
    vi.advanceTimersByTime(exp * 1000 - REFRESH_AHEAD_MS - Date.now());
    await vi.waitFor(() => expect(count('/papi/login/refresh')).toBe(refreshes + 1));
    // The failed attempt settles before the retry is due; the session is still there.
    await new Promise((resolve) => setImmediate(resolve));
    expect(session.accessToken.value).toBe(first);
    vi.advanceTimersByTime(REFRESH_RETRY_MS);
    vi.useRealTimers();
    await vi.waitFor(() => expect(session.accessToken.value).not.toBe(first));
    expect(count('/papi/login/refresh')).toBe(refreshes + 2);
    expect(reasons).toEqual([]);
  });

  it('refreshes at once when the token is already expired', async () => {
    const expired = await expiredAccessToken(fan.id);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const reasons: LogoutReason[] = [];
    const { session } = widget(undefined, (reason) => reasons.push(reason));
    const refreshes = count('/papi/login/refresh');
    session.adopt({ accessToken: expired, refreshToken: 'not-a-live-token-0123456789' });
    vi.advanceTimersByTime(0);
    vi.useRealTimers();
    await vi.waitFor(() => expect(count('/papi/login/refresh')).toBe(refreshes + 1));
    // The server does not know that refresh token: the session ends.
    await vi.waitFor(() => expect(reasons).toEqual(['refresh-token-failed']));
  });
});

describe('the session in a widget (body mode), against the real server', () => {
  it('keeps the refresh token in memory and the storage, rotating it on every refresh', async () => {
    const storage = memoryStorage();
    const { session } = widget(storage);
    await session.login(fan.email, 'correct horse battery');
    expect(last('/papi/login')?.body).toMatchObject({ tokenInBody: true });
    const stored = storage.items.get('fanstage.refreshToken');
    expect(await refreshTokenState(stored)).toBe('live');

    await session.refresh();
    const call = last('/papi/login/refresh');
    expect(call?.method).toBe('POST');
    expect(call?.body).toEqual({ refreshToken: stored });
    const rotated = storage.items.get('fanstage.refreshToken');
    expect(rotated).not.toBe(stored);
    expect(await refreshTokenState(rotated)).toBe('live');
    expect(await refreshTokenState(stored)).toBe('used');
  });

  it('restores from the storage after a reload, and logout empties it and revokes the token', async () => {
    const storage = memoryStorage();
    await widget(storage).session.login(fan.email, 'correct horse battery');

    const { session } = widget(storage);
    await expect(session.restore()).resolves.toBe(true);
    expect(session.account.value?.email).toBe(fan.email);

    const current = storage.items.get('fanstage.refreshToken');
    await session.logout();
    expect(last('/papi/login/logout')?.method).toBe('POST');
    expect(await refreshTokenState(current)).toBe('revoked');
    expect(storage.items.size).toBe(0);
    await expect(widget(storage).session.restore()).resolves.toBe(false);
  });

  it('a widget without storage starts anonymous without asking the server', async () => {
    const before = sent.length;
    await expect(widget().session.restore()).resolves.toBe(false);
    expect(sent.length).toBe(before);
  });
});

/**
 * The Web Locks API as a browser gives it to the tabs of one origin (Node has none): one holder
 * per name at a time, the others granted in order of request, or refused when their signal aborts.
 */
function browserLocks() {
  const queues = new Map<string, (() => void)[]>();
  let held = 0;
  const locks = {
    get held() {
      return held;
    },
    maxHeld: 0,
    request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<unknown>): Promise<unknown> {
      const queue = queues.get(name) ?? [];
      queues.set(name, queue);
      return new Promise((resolve, reject) => {
        const grant = () => {
          held += 1;
          locks.maxHeld = Math.max(locks.maxHeld, held);
          callback()
            .then(resolve, reject)
            .finally(() => {
              held -= 1;
              queue.shift();
              queue[0]?.();
            });
        };
        options.signal?.addEventListener('abort', () => {
          const at = queue.indexOf(grant);
          if (at > 0) {
            queue.splice(at, 1);
            reject(new DOMException('The lock request was aborted', 'AbortError'));
          }
        });
        queue.push(grant);
        if (queue.length === 1) grant();
      });
    },
  };
  return locks;
}

describe('tabs of one browser', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** Two pages of the site sharing the browser's cookies, as tabs do. */
  function tabs(fetch: BrowserFetch) {
    return [1, 2].map(() => {
      const fanstage = createFanstage({ baseUrl: server.baseUrl, fetch, session: { mode: 'cookie' } });
      made.push(fanstage);
      return fanstage.session;
    });
  }

  /** The refresh tokens the refreshes since `from` presented, by cookie or in the body. */
  function presented(from: number): string[] {
    return sent
      .slice(from)
      .filter((r) => r.path === '/papi/login/refresh')
      .map((r) => (r.method === 'GET' ? (r.headers.get('cookie') ?? '') : ((r.body as { refreshToken?: string }).refreshToken ?? '')));
  }

  it('take turns to refresh, so two tabs starting together both resume the session', async () => {
    const locks = browserLocks();
    vi.stubGlobal('navigator', { locks });
    const fetch = browser();
    const [login] = tabs(fetch);
    await login!.login(fan.email, 'correct horse battery');
    login!.dispose();
    line.refreshDelay = 40;
    const [a, b] = tabs(fetch);
    const from = sent.length;
    await expect(Promise.all([a!.restore(), b!.restore()])).resolves.toEqual([true, true]);
    expect(locks.maxHeld).toBe(1);
    // The second tab waited for the first and presented the cookie the first one got, not the
    // same one again (which only the server's short grace period would forgive).
    const cookies = presented(from);
    expect(cookies).toHaveLength(2);
    expect(cookies[1]).not.toBe(cookies[0]);
    expect(a!.accessToken.value).not.toBe(b!.accessToken.value);
    expect([a!.isLoggedIn.value, b!.isLoggedIn.value]).toEqual([true, true]);
    expect(await refreshTokenState(fetch.jar.get('fs_refresh'))).toBe('live');
  });

  it('without Web Locks, tabs refresh at once and the server forgives the same token twice', async () => {
    vi.stubGlobal('navigator', {});
    const fetch = browser();
    const [login] = tabs(fetch);
    await login!.login(fan.email, 'correct horse battery');
    login!.dispose();
    line.refreshDelay = 40;
    const [a, b] = tabs(fetch);
    const from = sent.length;
    await expect(Promise.all([a!.restore(), b!.restore()])).resolves.toEqual([true, true]);
    const cookies = presented(from);
    expect(cookies).toHaveLength(2);
    // Both sent the same cookie: the real server's grace period (tests/server/sessions.test.ts) kept both in.
    expect(cookies[1]).toBe(cookies[0]);
  });

  it('in body mode present the newest token of a shared storage once it is their turn', async () => {
    vi.stubGlobal('navigator', { locks: browserLocks() });
    const storage = memoryStorage();
    await widget(storage).session.login(fan.email, 'correct horse battery');
    line.refreshDelay = 40;
    const [a, b] = [widget(storage).session, widget(storage).session];
    const from = sent.length;
    await expect(Promise.all([a.restore(), b.restore()])).resolves.toEqual([true, true]);
    const tokens = presented(from);
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).not.toBe(tokens[0]);
    const stored = storage.items.get('fanstage.refreshToken');
    expect(await refreshTokenState(stored)).toBe('live');
  });

  it('go ahead without the lock when another tab holds it too long', async () => {
    const locks = browserLocks();
    vi.stubGlobal('navigator', { locks });
    let releaseFrozenTab!: () => void;
    void locks.request('fanstage-refresh', {}, () => new Promise<void>((resolve) => (releaseFrozenTab = resolve)));
    const { session } = site();
    await session.login(fan.email, 'correct horse battery');
    const refreshes = count('/papi/login/refresh');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const refreshing = session.refresh();
    await vi.advanceTimersByTimeAsync(9_000);
    expect(count('/papi/login/refresh')).toBe(refreshes);
    await vi.advanceTimersByTimeAsync(1_000);
    // The request is on its way to the real server, which runs in this process on the same
    // (fake) timers: keep them moving until the answer is in.
    let settled = false;
    void refreshing.finally(() => (settled = true));
    for (let i = 0; i < 500 && !settled; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(10);
    }
    vi.useRealTimers();
    await expect(refreshing).resolves.toBe(true);
    expect(count('/papi/login/refresh') - refreshes).toBe(1);
    releaseFrozenTab();
  });
});

describe('following, against the real server', () => {
  it('marks the profile followed at once, everywhere it is filed, and the server confirms', async () => {
    const own = await freshFan();
    const fanstage = site();
    await fanstage.session.login(own.email, 'correct horse battery');
    await fanstage.profiles.load('alice');
    const byName = fanstage.profiles.get('alice');
    const byId = fanstage.profiles.get(alice.id);
    expect(byName.profile.value?.isFollowed).toBe(false);
    const followers = byName.profile.value?.followersCount ?? 0;

    const pending = fanstage.relations.follow(alice.id);
    expect(byName.profile.value).toMatchObject({ isFollowed: true, followersCount: followers + 1 });
    expect(byId.profile.value).toMatchObject({ isFollowed: true, followersCount: followers + 1 });
    expect(fanstage.relations.pending.value.has(alice.id)).toBe(true);
    await pending;
    expect(fanstage.relations.pending.value.has(alice.id)).toBe(false);

    // What the server now says agrees with what was shown.
    await fanstage.profiles.load('alice');
    expect(byName.profile.value).toMatchObject({ isFollowed: true, followersCount: followers + 1 });

    await fanstage.relations.unfollow(alice.id);
    expect(byId.profile.value).toMatchObject({ isFollowed: false, followersCount: followers });
    await fanstage.profiles.load(alice.id);
    expect(byId.profile.value).toMatchObject({ isFollowed: false, followersCount: followers });
  });

  it('rolls the follow back when the server refuses it (an unverified e-mail)', async () => {
    const unverified = await freshFan({ verified: false });
    const fanstage = site();
    await fanstage.session.login(unverified.email, 'correct horse battery');
    await fanstage.profiles.load('alice');
    const entry = fanstage.profiles.get(alice.id);
    const before = entry.profile.value;
    const pending = fanstage.relations.follow(alice.id);
    expect(entry.profile.value?.isFollowed).toBe(true);
    const error = await pending.catch((e: unknown) => e);
    expect((error as SdkError).code).toBe('email-not-verified');
    expect(entry.profile.value).toMatchObject({ isFollowed: before?.isFollowed, followersCount: before?.followersCount });
  });

  it('needs a login', async () => {
    const error = await site().relations.follow(alice.id).catch((e: unknown) => e);
    expect((error as SdkError).code).toBe('unauthorized');
  });
});

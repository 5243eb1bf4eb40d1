import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFanstage, decodeAccessToken, REFRESH_AHEAD_MS, REFRESH_RETRY_MS, SdkError, type Fanstage, type LogoutReason, type TokenStorage } from '../../lib/sdk';
import { startApiServer, type ApiServer } from './support/api-server';
import { fetchWithCookies, makeAccessToken, mountSessionServer, type SessionServer } from './support/session-server';

let server: ApiServer;
let api: SessionServer;
const made: Fanstage[] = [];

beforeAll(async () => {
  server = await startApiServer();
  api = mountSessionServer(server);
  api.addPerson('fan@example.com', 'correct horse battery');
});

afterEach(() => {
  vi.useRealTimers();
  api.accessTtl = 300;
  api.refreshDelay = 0;
  api.failFollows = 0;
  api.dropRefreshes = 0;
  for (const fanstage of made.splice(0)) fanstage.session.dispose();
});

afterAll(() => server.close());

function memoryStorage(): TokenStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

function site(onLogout?: (reason: LogoutReason) => void): Fanstage {
  const fanstage = createFanstage({ baseUrl: server.baseUrl, fetch: fetchWithCookies(), session: { mode: 'cookie', ...(onLogout ? { onLogout } : {}) } });
  made.push(fanstage);
  return fanstage;
}

function widget(storage?: TokenStorage, onLogout?: (reason: LogoutReason) => void): Fanstage {
  const fanstage = createFanstage({ baseUrl: server.baseUrl, session: { mode: 'body', ...(storage ? { storage } : {}), ...(onLogout ? { onLogout } : {}) } });
  made.push(fanstage);
  return fanstage;
}

describe('decodeAccessToken', () => {
  it('reads userId and exp from a JWT and refuses what is not one', () => {
    expect(decodeAccessToken(makeAccessToken(7, 1_900_000_000))).toMatchObject({ userId: 7, exp: 1_900_000_000 });
    expect(decodeAccessToken('not-a-token')).toBeNull();
    expect(decodeAccessToken('a.b.c')).toBeNull();
  });
});

describe('the session on the site (cookie mode)', () => {
  it('logs in, loads the account and sends the token on /api calls only', async () => {
    const { session, client } = site();
    expect(session.status.value).toBe('anonymous');
    const pending = session.login('fan@example.com', 'correct horse battery');
    expect(session.status.value).toBe('authenticating');
    await pending;
    expect(session.status.value).toBe('authenticated');
    expect(session.isLoggedIn.value).toBe(true);
    expect(session.userId.value).toBe(api.people[0]?.id);
    expect(session.account.value?.email).toBe('fan@example.com');

    const me = server.requests.filter((r) => r.url === '/api/users/me').at(-1);
    expect(me?.headers.authorization).toBe(`Bearer ${session.accessToken.value}`);
    await client.get('/papi/login/reset').catch(() => undefined);
    expect(server.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('rejects wrong credentials with the server’s key and stays anonymous', async () => {
    const { session } = site();
    const error = await session.login('fan@example.com', 'wrong').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe('invalid-credentials');
    expect((error as SdkError).statusCode).toBe(-1);
    expect(session.status.value).toBe('anonymous');
    expect(session.isLoggedIn.value).toBe(false);
  });

  it('refreshes through the cookie, with no token in the request body', async () => {
    const { session } = site();
    await session.login('fan@example.com', 'correct horse battery');
    const first = session.accessToken.value;
    await expect(session.refresh()).resolves.toBe(true);
    expect(session.accessToken.value).not.toBe(first);
    const call = server.requests.filter((r) => r.url === '/papi/login/refresh').at(-1);
    expect(call?.method).toBe('GET');
    expect(call?.headers.cookie).toMatch(/refreshToken=/);
  });

  it('answers a 401 from /api with one refresh and one retry of the call', async () => {
    const { session, client } = site();
    await session.login('fan@example.com', 'correct horse battery');
    api.expireAccessTokens();
    const refreshes = api.count('/papi/login/refresh');
    const mes = api.count('/api/users/me');
    const me = await client.get<{ email: string }>('/api/users/me');
    expect(me.email).toBe('fan@example.com');
    expect(api.count('/papi/login/refresh') - refreshes).toBe(1);
    expect(api.count('/api/users/me') - mes).toBe(2);
    expect(session.isLoggedIn.value).toBe(true);
  });

  it('shares one refresh among concurrent 401s', async () => {
    const { session, client } = site();
    await session.login('fan@example.com', 'correct horse battery');
    api.expireAccessTokens();
    api.refreshDelay = 50;
    const refreshes = api.count('/papi/login/refresh');
    const results = await Promise.all([1, 2, 3, 4].map(() => client.get<{ email: string }>('/api/users/me')));
    expect(results.map((r) => r.email)).toEqual(Array(4).fill('fan@example.com'));
    expect(api.count('/papi/login/refresh') - refreshes).toBe(1);
  });

  it('logs out softly with refresh-token-failed when the refresh is refused, and the call fails with its 401', async () => {
    const reasons: LogoutReason[] = [];
    const { session, client } = site((reason) => reasons.push(reason));
    await session.login('fan@example.com', 'correct horse battery');
    api.expireAccessTokens();
    api.revokeRefreshTokens();
    const mes = api.count('/api/users/me');
    const error = await client.get('/api/users/me').catch((e: unknown) => e);
    expect((error as SdkError).httpStatus).toBe(401);
    // No retry without a new token, and no second refresh.
    expect(api.count('/api/users/me') - mes).toBe(1);
    expect(reasons).toEqual(['refresh-token-failed']);
    expect(session.logoutReason.value).toBe('refresh-token-failed');
    expect(session.status.value).toBe('anonymous');
    expect(session.accessToken.value).toBeNull();
    expect(session.account.value).toBeNull();
    expect(session.userId.value).toBeNull();
  });

  it('logout calls the server, clears everything and reports the reason', async () => {
    const reasons: LogoutReason[] = [];
    const { session } = site((reason) => reasons.push(reason));
    await session.login('fan@example.com', 'correct horse battery');
    const before = api.liveRefreshTokens.size;
    await session.logout();
    expect(api.count('/papi/login/logout', 'GET')).toBeGreaterThan(0);
    expect(api.liveRefreshTokens.size).toBe(before - 1);
    expect(session.isLoggedIn.value).toBe(false);
    expect(session.account.value).toBeNull();
    expect(reasons).toEqual(['logout']);
    // The cookie went with the session: a refresh no longer works.
    await expect(session.refresh()).resolves.toBe(false);
  });

  it('a refresh still on its way when the user logs out does not log back in', async () => {
    const { session } = site();
    await session.login('fan@example.com', 'correct horse battery');
    api.refreshDelay = 80;
    const refreshing = session.refresh();
    await session.logout();
    await expect(refreshing).resolves.toBe(false);
    expect(session.isLoggedIn.value).toBe(false);
    expect(session.status.value).toBe('anonymous');
  });

  it('restore resumes a session from the cookie, and a failed restore is silent', async () => {
    const fetch = fetchWithCookies();
    const first = createFanstage({ baseUrl: server.baseUrl, fetch });
    made.push(first);
    await first.session.login('fan@example.com', 'correct horse battery');
    first.session.dispose();

    // A page reload: a new Fanstage on the same cookie jar.
    const reasons: LogoutReason[] = [];
    const again = createFanstage({ baseUrl: server.baseUrl, fetch, session: { onLogout: (r) => reasons.push(r) } });
    made.push(again);
    await expect(again.session.restore()).resolves.toBe(true);
    expect(again.session.account.value?.email).toBe('fan@example.com');

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
    const signupAt = server.requests.findIndex((r) => r.url === '/papi/signup' && r.body.includes('new.fan'));
    const loginAt = server.requests.findIndex((r, i) => i > signupAt && r.url === '/papi/login');
    expect(loginAt).toBeGreaterThan(signupAt);
  });

  it('does not log in when the sign-up is refused', async () => {
    const { session } = site();
    const error = await session.signup({ email: 'fan@example.com', password: 'a long passphrase' }).catch((e: unknown) => e);
    expect((error as SdkError).statusCode).toBe(-2);
    expect((error as SdkError).code).toBe('email-taken');
    expect(session.status.value).toBe('anonymous');
  });
});

describe('refresh timing', () => {
  it('refreshes 20 s before the access token expires', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { session } = site();
    api.accessTtl = 60;
    await session.login('fan@example.com', 'correct horse battery');
    const first = session.accessToken.value;
    const exp = decodeAccessToken(first ?? '')?.exp ?? 0;
    const refreshes = api.count('/papi/login/refresh');

    vi.advanceTimersByTime(exp * 1000 - REFRESH_AHEAD_MS - Date.now() - 1);
    expect(api.count('/papi/login/refresh')).toBe(refreshes);
    vi.advanceTimersByTime(1);
    // The refresh has started; the network is real, so time runs normally from here.
    vi.useRealTimers();
    await vi.waitFor(() => expect(session.accessToken.value).not.toBe(first));
    expect(api.count('/papi/login/refresh') - refreshes).toBe(1);
  });

  it('tries again a little later when a scheduled refresh gets no answer, keeping the session', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const reasons: LogoutReason[] = [];
    const { session } = site((reason) => reasons.push(reason));
    api.accessTtl = 30;
    await session.login('fan@example.com', 'correct horse battery');
    const first = session.accessToken.value;
    const refreshes = api.count('/papi/login/refresh');
    api.dropRefreshes = 1;
    vi.advanceTimersByTime(10_000);
    await vi.waitFor(() => expect(api.count('/papi/login/refresh')).toBe(refreshes + 1));
    // The failed attempt settles before the retry is due; the session is still there.
    await new Promise((resolve) => setImmediate(resolve));
    expect(session.accessToken.value).toBe(first);
    vi.advanceTimersByTime(REFRESH_RETRY_MS);
    await vi.waitFor(() => expect(session.accessToken.value).not.toBe(first));
    expect(api.count('/papi/login/refresh')).toBe(refreshes + 2);
    expect(reasons).toEqual([]);
  });

  it('refreshes at once when the token is already expired', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { session } = widget();
    const refreshes = api.count('/papi/login/refresh');
    session.adopt({ accessToken: makeAccessToken(100, Math.floor(Date.now() / 1000) - 5), refreshToken: 'not-a-live-token-0123456789' });
    vi.advanceTimersByTime(0);
    vi.useRealTimers();
    await vi.waitFor(() => expect(api.count('/papi/login/refresh')).toBe(refreshes + 1));
  });
});

describe('the session in a widget (body mode)', () => {
  it('keeps the refresh token in memory and the storage, rotating it on every refresh', async () => {
    const storage = memoryStorage();
    const { session } = widget(storage);
    await session.login('fan@example.com', 'correct horse battery');
    const login = server.requests.filter((r) => r.url === '/papi/login').at(-1);
    expect(JSON.parse(login?.body ?? '{}')).toMatchObject({ tokenInBody: true });
    const stored = storage.items.get('fanstage.refreshToken');
    expect(stored && api.liveRefreshTokens.has(stored)).toBe(true);

    await session.refresh();
    const call = server.requests.filter((r) => r.url === '/papi/login/refresh').at(-1);
    expect(call?.method).toBe('POST');
    expect(JSON.parse(call?.body ?? '{}')).toEqual({ refreshToken: stored });
    const rotated = storage.items.get('fanstage.refreshToken');
    expect(rotated).not.toBe(stored);
    expect(rotated && api.liveRefreshTokens.has(rotated)).toBe(true);
    expect(api.liveRefreshTokens.has(stored ?? '')).toBe(false);
  });

  it('restores from the storage after a reload, and logout empties it', async () => {
    const storage = memoryStorage();
    await widget(storage).session.login('fan@example.com', 'correct horse battery');

    const { session } = widget(storage);
    await expect(session.restore()).resolves.toBe(true);
    expect(session.account.value?.email).toBe('fan@example.com');

    await session.logout();
    const logout = server.requests.filter((r) => r.url === '/papi/login/logout').at(-1);
    expect(logout?.method).toBe('POST');
    expect(storage.items.size).toBe(0);
    await expect(widget(storage).session.restore()).resolves.toBe(false);
  });

  it('a widget without storage starts anonymous without asking the server', async () => {
    const refreshes = api.count('/papi/login/refresh');
    await expect(widget().session.restore()).resolves.toBe(false);
    expect(api.count('/papi/login/refresh')).toBe(refreshes);
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
  function tabs(fetch: typeof globalThis.fetch) {
    return [1, 2].map(() => {
      const fanstage = createFanstage({ baseUrl: server.baseUrl, fetch });
      made.push(fanstage);
      return fanstage.session;
    });
  }

  it('take turns to refresh, so two tabs starting together both resume the session', async () => {
    const locks = browserLocks();
    vi.stubGlobal('navigator', { locks });
    const fetch = fetchWithCookies();
    const [login] = tabs(fetch);
    await login!.login('fan@example.com', 'correct horse battery');
    login!.dispose();
    api.refreshDelay = 40;
    const [a, b] = tabs(fetch);
    const refreshes = api.count('/papi/login/refresh');
    // This server refuses a used refresh token outright: only turns keep both tabs signed in.
    await expect(Promise.all([a!.restore(), b!.restore()])).resolves.toEqual([true, true]);
    expect(locks.maxHeld).toBe(1);
    expect(api.count('/papi/login/refresh') - refreshes).toBe(2);
    expect(a!.accessToken.value).not.toBe(b!.accessToken.value);
    expect([a!.isLoggedIn.value, b!.isLoggedIn.value]).toEqual([true, true]);
  });

  it('without Web Locks, tabs refresh at once and rely on the server to forgive the same token twice', async () => {
    vi.stubGlobal('navigator', {});
    const fetch = fetchWithCookies();
    const [login] = tabs(fetch);
    await login!.login('fan@example.com', 'correct horse battery');
    login!.dispose();
    api.refreshDelay = 40;
    const [a, b] = tabs(fetch);
    const restored = await Promise.all([a!.restore(), b!.restore()]);
    // This stand-in server has no grace period (the real one has, tests/server/sessions.test.ts).
    expect(restored.filter(Boolean)).toHaveLength(1);
  });

  it('in body mode present the newest token of a shared storage once it is their turn', async () => {
    vi.stubGlobal('navigator', { locks: browserLocks() });
    const storage = memoryStorage();
    await widget(storage).session.login('fan@example.com', 'correct horse battery');
    api.refreshDelay = 40;
    const [a, b] = [widget(storage).session, widget(storage).session];
    await expect(Promise.all([a.restore(), b.restore()])).resolves.toEqual([true, true]);
    const stored = storage.items.get('fanstage.refreshToken');
    expect(stored && api.liveRefreshTokens.has(stored)).toBe(true);
  });

  it('go ahead without the lock when another tab holds it too long', async () => {
    const locks = browserLocks();
    vi.stubGlobal('navigator', { locks });
    let releaseFrozenTab!: () => void;
    void locks.request('fanstage-refresh', {}, () => new Promise<void>((resolve) => (releaseFrozenTab = resolve)));
    const { session } = site();
    await session.login('fan@example.com', 'correct horse battery');
    const refreshes = api.count('/papi/login/refresh');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const refreshing = session.refresh();
    await vi.advanceTimersByTimeAsync(9_000);
    expect(api.count('/papi/login/refresh')).toBe(refreshes);
    await vi.advanceTimersByTimeAsync(1_000);
    // The request is on its way; the stand-in server answers on the same (fake) timers.
    let settled = false;
    void refreshing.finally(() => (settled = true));
    for (let i = 0; i < 500 && !settled; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(10);
    }
    vi.useRealTimers();
    await expect(refreshing).resolves.toBe(true);
    expect(api.count('/papi/login/refresh') - refreshes).toBe(1);
    releaseFrozenTab();
  });
});

describe('following', () => {
  it('marks the profile followed at once, everywhere it is filed, and the server confirms', async () => {
    const fanstage = site();
    await fanstage.session.login('fan@example.com', 'correct horse battery');
    await fanstage.profiles.load('alice');
    const byName = fanstage.profiles.get('alice');
    const byId = fanstage.profiles.get(42);
    expect(byName.profile.value?.isFollowed).toBe(false);

    const pending = fanstage.relations.follow(42);
    expect(byName.profile.value).toMatchObject({ isFollowed: true, followersCount: 1501 });
    expect(byId.profile.value).toMatchObject({ isFollowed: true, followersCount: 1501 });
    expect(fanstage.relations.pending.value.has(42)).toBe(true);
    await pending;
    expect(fanstage.relations.pending.value.has(42)).toBe(false);

    // What the server now says agrees with what was shown.
    await fanstage.profiles.load('alice');
    expect(byName.profile.value).toMatchObject({ isFollowed: true, followersCount: 1501 });

    await fanstage.relations.unfollow(42);
    expect(byId.profile.value).toMatchObject({ isFollowed: false, followersCount: 1500 });
  });

  it('rolls the follow back when the server refuses it', async () => {
    const fanstage = site();
    await fanstage.session.login('fan@example.com', 'correct horse battery');
    await fanstage.profiles.load('alice');
    const entry = fanstage.profiles.get(42);
    const before = entry.profile.value;
    api.failFollows = 1;
    const pending = fanstage.relations.follow(42);
    expect(entry.profile.value?.isFollowed).toBe(true);
    const error = await pending.catch((e: unknown) => e);
    expect((error as SdkError).code).toBe('email-not-verified');
    expect(entry.profile.value).toMatchObject({ isFollowed: before?.isFollowed, followersCount: before?.followersCount });
  });

  it('needs a login', async () => {
    const error = await site().relations.follow(42).catch((e: unknown) => e);
    expect((error as SdkError).code).toBe('unauthorized');
  });
});

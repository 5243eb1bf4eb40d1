import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { AccessTokenBody, AccessTokenClaims, Account, SignupBody } from '../../contract';
import type { FanstageClient } from '../client';
import { accountApi } from '../api';
import { SdkError } from '../errors';

export type SessionStatus = 'anonymous' | 'authenticating' | 'authenticated';

/**
 * Where the refresh token lives. `'cookie'`: in the API's HttpOnly cookie (the site, on the
 * API's own origin). `'body'`: in memory and optionally a storage you pass (widgets on other
 * sites, where third-party cookies cannot be relied on).
 */
export type TokenMode = 'cookie' | 'body';

/**
 * Why a session ended: the user asked; the server no longer accepts the refresh token; or the
 * server ended it over the socket (`beforeLogout`, SPEC §6 and §8): an administrator blocked the
 * account (`banned`), or its password was changed on another device (`disconnected-password`).
 * Each but `logout` is a message key of the catalogue, to tell the user why.
 */
export type LogoutReason = 'logout' | 'refresh-token-failed' | 'banned' | 'disconnected-password';

/** The part of the Web Storage API the session needs, e.g. `sessionStorage`. */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface SessionOptions {
  /** Default `'cookie'` on the API's own origin, `'body'` on any other (a partner's page, a server). */
  mode?: TokenMode;
  /** Body mode only: keeps the refresh token across page loads. */
  storage?: TokenStorage;
  /** Key under which the refresh token is stored; default `fanstage.refreshToken`. */
  storageKey?: string;
  /** Called whenever a session ends, with the reason. */
  onLogout?: (reason: LogoutReason) => void;
}

/** The access token is refreshed this long before it expires (SPEC §4). */
export const REFRESH_AHEAD_MS = 20_000;
/** After a refresh that got no answer (offline), the next attempt comes this much later. */
export const REFRESH_RETRY_MS = 5_000;
/** The Web Lock the tabs of one browser take turns on to refresh. */
export const REFRESH_LOCK_NAME = 'fanstage-refresh';
/** How long a refresh waits for another tab's; past it, it goes ahead rather than hang. */
const REFRESH_LOCK_PATIENCE_MS = 10_000;

/**
 * Runs `work` while holding the browser-wide refresh lock, so the tabs of one browser refresh one
 * at a time: they share the refresh cookie (or a shared storage's token), and each refresh
 * replaces it, so two at once present the same token twice. Where the Web Locks API is missing
 * (old browsers, Node) the work runs at once, and the server's grace period for a token
 * presented twice keeps the session; a lock held too long (a frozen tab) is not waited for.
 */
function takingTurns<T>(work: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (typeof locks?.request !== 'function') return work();
  const patience = new AbortController();
  const timer = setTimeout(() => patience.abort(), REFRESH_LOCK_PATIENCE_MS);
  const turn = locks.request(REFRESH_LOCK_NAME, { signal: patience.signal }, async (): Promise<T> => {
    clearTimeout(timer);
    return work();
  }) as Promise<T>;
  return turn.catch((error: unknown) => {
    if (patience.signal.aborted && (error as { name?: unknown } | null)?.name === 'AbortError') return work();
    throw error;
  });
}

/** The claims of an access token; the client only reads them, the server verifies them. */
export function decodeAccessToken(token: string): AccessTokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as Partial<AccessTokenClaims>;
    if (typeof claims.userId !== 'number' || typeof claims.exp !== 'number') return null;
    return { userId: claims.userId, exp: claims.exp, iat: typeof claims.iat === 'number' ? claims.iat : 0 };
  } catch {
    return null;
  }
}

/**
 * The logged-in user: tokens, account and status as signals, and the actions that change
 * them. It installs itself in the client, so every `/api` call sends the access token and a
 * 401 leads to one refresh and one retry; a refresh the server refuses logs out softly.
 */
export function createSessionStore(client: FanstageClient, options: SessionOptions = {}) {
  const mode: TokenMode = options.mode ?? 'cookie';
  const storageKey = options.storageKey ?? 'fanstage.refreshToken';
  const api = accountApi(client);

  const accessToken = signal<string | null>(null);
  const userId = signal<number | null>(null);
  const account = signal<Account | null>(null);
  const status = signal<SessionStatus>('anonymous');
  const logoutReason = signal<LogoutReason | null>(null);
  const isLoggedIn = computed(() => accessToken.value !== null);

  let refreshToken: string | null = mode === 'body' ? readStored() : null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let refreshing: Promise<boolean> | null = null;
  // Bumped whenever the session ends, so a refresh that was already on its way cannot log back in.
  let generation = 0;

  function readStored(): string | null {
    try {
      return options.storage?.getItem(storageKey) ?? null;
    } catch {
      // A storage the browser forbids (privacy mode, blocked cookies) is as good as none.
      return null;
    }
  }

  function keepRefreshToken(token: string | null): void {
    refreshToken = token;
    try {
      if (token) options.storage?.setItem(storageKey, token);
      else options.storage?.removeItem(storageKey);
    } catch {
      // The token still works for this page; only surviving a reload is lost.
    }
  }

  function clearTimer(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  /** Takes a token pair from login, refresh or a widget's code exchange. */
  function adopt(tokens: AccessTokenBody): void {
    const claims = decodeAccessToken(tokens.accessToken);
    if (!claims) throw new SdkError({ code: 'invalid-token', statusCode: 0 });
    if (mode === 'body' && tokens.refreshToken) keepRefreshToken(tokens.refreshToken);
    batch(() => {
      if (userId.peek() !== claims.userId) account.value = null;
      accessToken.value = tokens.accessToken;
      userId.value = claims.userId;
      status.value = 'authenticated';
      logoutReason.value = null;
    });
    // Already expired (a slow tab, a wrong clock) means at once, never a negative delay.
    scheduleRefresh(Math.max(0, claims.exp * 1000 - REFRESH_AHEAD_MS - Date.now()));
  }

  function scheduleRefresh(delay: number): void {
    clearTimer();
    timer = setTimeout(() => {
      timer = null;
      refresh().catch(() => {
        // Offline for a moment: try again while the session lasts, rather than let it lapse.
        if (accessToken.peek() !== null && timer === null) scheduleRefresh(REFRESH_RETRY_MS);
      });
    }, delay);
  }

  function clear(reason: LogoutReason | null): void {
    generation += 1;
    clearTimer();
    keepRefreshToken(null);
    // A session that never started (a failed restore) ended for no one: nothing to report.
    const report = reason !== null && (accessToken.peek() !== null || reason !== 'refresh-token-failed');
    batch(() => {
      accessToken.value = null;
      userId.value = null;
      account.value = null;
      status.value = 'anonymous';
      if (report) logoutReason.value = reason;
    });
    if (report) options.onLogout?.(reason);
  }

  /**
   * Gets a new access token; concurrent callers share one request. A refusal by the server
   * ends the session with `refresh-token-failed`; a network failure keeps it, since the
   * tokens may still be valid, and rejects.
   */
  function refresh(): Promise<boolean> {
    if (refreshing) return refreshing;
    if (mode === 'body' && !refreshToken) {
      clear(accessToken.peek() ? 'refresh-token-failed' : null);
      return Promise.resolve(false);
    }
    const started = generation;
    // Once it is this tab's turn, the token to present is the newest one: in cookie mode the
    // browser sends the cookie as it is now, already replaced if another tab refreshed
    // meanwhile, so refreshing again is right and simple (each tab gets its own access token;
    // sharing one through a BroadcastChannel would save a request and add a protocol). In body
    // mode a storage shared by the tabs may hold a newer token than this tab's memory.
    // The answer is taken while the turn lasts, so the next tab reads the token it stored.
    refreshing = takingTurns(() => {
      if (generation !== started) return Promise.resolve(false);
      if (mode === 'body') refreshToken = readStored() ?? refreshToken;
      return api.refresh(mode === 'body' ? (refreshToken ?? undefined) : undefined).then(
        (tokens) => {
          if (generation !== started) return false;
          adopt(tokens);
          return true;
        },
        (error: unknown) => {
          if (generation !== started) return false;
          if (error instanceof SdkError && error.statusCode < 0) {
            clear('refresh-token-failed');
            return false;
          }
          throw error;
        },
      );
    })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  client.setAuthenticator({
    accessToken: () => accessToken.peek(),
    async onUnauthorized(sentToken) {
      if (sentToken === null) return false;
      // Another call refreshed meanwhile: the new token is worth a try without a second refresh.
      const current = accessToken.peek();
      if (current !== null && current !== sentToken) return true;
      try {
        return await refresh();
      } catch {
        return false;
      }
    },
  });

  /** Loads the logged-in user's own account into `account`. */
  async function loadAccount(): Promise<Account> {
    const me = await api.me();
    account.value = me;
    return me;
  }

  async function login(email: string, password: string): Promise<void> {
    status.value = 'authenticating';
    try {
      adopt(await api.login({ email, password, ...(mode === 'body' ? { tokenInBody: true } : {}) }));
    } catch (error) {
      status.value = accessToken.peek() ? 'authenticated' : 'anonymous';
      throw error;
    }
    // Logged in even if the account fails to load; a screen that needs it loads it again.
    await loadAccount().catch(() => undefined);
  }

  /** Creates the account and logs in with it (SPEC §4). */
  async function signup(body: SignupBody): Promise<void> {
    status.value = 'authenticating';
    try {
      await api.signup(body);
    } catch (error) {
      status.value = accessToken.peek() ? 'authenticated' : 'anonymous';
      throw error;
    }
    await login(body.email, body.password);
  }

  /** Ends the session on the server and here; the local state is cleared even offline. */
  async function logout(reason: 'logout' | 'banned' | 'disconnected-password' = 'logout'): Promise<void> {
    const token = mode === 'body' ? refreshToken : null;
    try {
      if (mode === 'cookie') await api.logout();
      else if (token) await api.logout(token);
    } catch {
      // Logging out must always work for the user; the server's token expires by itself.
    } finally {
      clear(reason);
    }
  }

  /**
   * Tries to resume a session at start-up (a refresh-token cookie or a stored token). A
   * failure only means the visitor is not logged in. Resolves whether a session was resumed.
   */
  async function restore(): Promise<boolean> {
    if (mode === 'body' && !refreshToken) return false;
    status.value = 'authenticating';
    try {
      const resumed = await refresh();
      if (resumed) await loadAccount().catch(() => undefined);
      return resumed;
    } catch {
      return false;
    } finally {
      if (!accessToken.peek()) status.value = 'anonymous';
    }
  }

  /** Stops the refresh timer and detaches from the client, e.g. when a widget unmounts. */
  function dispose(): void {
    clearTimer();
    client.setAuthenticator(null);
  }

  return {
    mode,
    accessToken: accessToken as ReadonlySignal<string | null>,
    userId: userId as ReadonlySignal<number | null>,
    account: account as ReadonlySignal<Account | null>,
    status: status as ReadonlySignal<SessionStatus>,
    /** The reason of the last logout, until the next login. */
    logoutReason: logoutReason as ReadonlySignal<LogoutReason | null>,
    isLoggedIn,
    login,
    signup,
    logout,
    refresh,
    restore,
    adopt,
    loadAccount,
    /** Replaces the account after an edit (PUT /api/users/me). */
    setAccount(next: Account) {
      account.value = next;
    },
    dispose,
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

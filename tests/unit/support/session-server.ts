import type { ServerResponse } from 'node:http';
import { sendEnvelope, type ApiServer, type RecordedRequest } from './api-server';
import { profile } from './profiles';

interface Person {
  id: number;
  email: string;
  password: string;
  username: string;
  emailVerified: boolean;
}

export interface SessionServer {
  /** Access-token lifetime in seconds for the next tokens issued. */
  accessTtl: number;
  /** Answers of /papi/login/refresh are held back this many milliseconds. */
  refreshDelay: number;
  /** The next refresh calls get no answer at all: the connection drops, as when offline. */
  dropRefreshes: number;
  readonly people: Person[];
  /** Refresh tokens the server accepts now; a used one is revoked on use. */
  readonly liveRefreshTokens: Set<string>;
  readonly liveAccessTokens: Set<string>;
  /** Makes every access token issued so far invalid, as if they had expired. */
  expireAccessTokens(): void;
  /** Makes every refresh token invalid, as if the family had been revoked. */
  revokeRefreshTokens(): void;
  addPerson(email: string, password: string, options?: { emailVerified?: boolean }): Person;
  count(path: string, method?: string): number;
}

let serial = 0;

/** An unsigned JWT with the claims of the contract (plus a unique `jti`); the client only decodes it. */
export function makeAccessToken(userId: number, expSeconds: number): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  serial += 1;
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ userId, exp: expSeconds, iat: Math.floor(Date.now() / 1000), jti: serial })}.c2lnbmF0dXJl`;
}

/**
 * The login, refresh, logout and account endpoints of the contract on a stand-in HTTP server,
 * with rotating refresh tokens, for the socket test's stand-in realtime server (which must
 * refuse and drop connections on demand). Everything else is tested against the real server.
 */
export function mountSessionServer(server: ApiServer): SessionServer {
  const people: Person[] = [];
  const liveRefreshTokens = new Set<string>();
  const liveAccessTokens = new Set<string>();
  const refreshOwner = new Map<string, number>();
  const accessOwner = new Map<string, number>();

  const state: SessionServer = {
    accessTtl: 300,
    refreshDelay: 0,
    dropRefreshes: 0,
    people,
    liveRefreshTokens,
    liveAccessTokens,
    expireAccessTokens: () => liveAccessTokens.clear(),
    revokeRefreshTokens: () => liveRefreshTokens.clear(),
    addPerson(email, password, options = {}) {
      const person = { id: 100 + people.length, email, password, username: email.split('@')[0] ?? 'fan', emailVerified: options.emailVerified ?? true };
      people.push(person);
      return person;
    },
    count: (path, method) => server.requests.filter((r) => r.url.split('?')[0] === path && (!method || r.method === method)).length,
  };

  function json(request: RecordedRequest): Record<string, unknown> {
    try {
      return request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  function issue(userId: number, inBody: boolean) {
    serial += 1;
    const accessToken = makeAccessToken(userId, Math.floor(Date.now() / 1000) + state.accessTtl);
    const refreshToken = `refresh-${userId}-${serial}-${'x'.repeat(16)}`;
    liveAccessTokens.add(accessToken);
    accessOwner.set(accessToken, userId);
    liveRefreshTokens.add(refreshToken);
    refreshOwner.set(refreshToken, userId);
    return { accessToken, refreshToken, inBody };
  }

  function answerTokens(res: ServerResponse, tokens: ReturnType<typeof issue>) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!tokens.inBody) headers['set-cookie'] = `refreshToken=${tokens.refreshToken}; HttpOnly; SameSite=Lax; Path=/papi/login`;
    res.writeHead(200, headers);
    res.end(JSON.stringify({ statusCode: 2, body: { accessToken: tokens.accessToken, ...(tokens.inBody ? { refreshToken: tokens.refreshToken } : {}) } }));
  }

  function cookieToken(req: RecordedRequest): string | undefined {
    return /(?:^|;\s*)refreshToken=([^;]+)/.exec(String(req.headers.cookie ?? ''))?.[1];
  }

  /** The user behind the bearer token, or a 401 already answered. */
  function viewer(req: RecordedRequest, res: ServerResponse): Person | null {
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const person = token && liveAccessTokens.has(token) ? people.find((p) => p.id === accessOwner.get(token)) : undefined;
    if (!person) {
      sendEnvelope(res, { statusCode: -1, statusText: 'unauthorized' }, 401);
      return null;
    }
    return person;
  }

  server.on('/papi/login', (req, res) => {
    const { email, password, tokenInBody } = json(req) as { email?: string; password?: string; tokenInBody?: boolean };
    const person = people.find((p) => p.email === email && p.password === password);
    if (!person) return sendEnvelope(res, { statusCode: -1, statusText: 'invalid-credentials' }, 401);
    answerTokens(res, issue(person.id, tokenInBody === true));
  });

  server.on('/papi/login/refresh', (req, res) => {
    const inBody = req.method === 'POST';
    const token = inBody ? (json(req).refreshToken as string | undefined) : cookieToken(req);
    if (state.dropRefreshes > 0) {
      state.dropRefreshes -= 1;
      res.destroy();
      return;
    }
    // Decided on arrival, answered after the delay: the answer may cross a logout on the way.
    const live = token !== undefined && liveRefreshTokens.has(token);
    // Rotation: a refresh token works once.
    if (live) liveRefreshTokens.delete(token);
    const tokens = live ? issue(refreshOwner.get(token) ?? 0, inBody) : null;
    setTimeout(() => {
      if (!tokens) return sendEnvelope(res, { statusCode: -1, statusText: 'refresh-token-failed' }, 401);
      answerTokens(res, tokens);
    }, state.refreshDelay);
  });

  server.on('/papi/login/logout', (req, res) => {
    const token = req.method === 'POST' ? (json(req).refreshToken as string | undefined) : cookieToken(req);
    if (token) liveRefreshTokens.delete(token);
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'refreshToken=; Max-Age=0; Path=/papi/login' });
    res.end(JSON.stringify({ statusCode: 1 }));
  });

  server.on('/api/users/me', (req, res) => {
    const person = viewer(req, res);
    if (!person) return;
    sendEnvelope(res, {
      statusCode: 2,
      body: {
        ...profile({ id: person.id, username: person.username, displayName: person.username, isSeller: false, followersCount: 0 }),
        email: person.email,
        emailVerified: person.emailVerified,
        phoneVerified: false,
        approvedState: 0,
        sexuality: null,
        birthday: null,
        appLanguage: 'en',
        nsfwAgreement: 0,
        notificationSound: 1,
        embedOrigins: [],
      },
    });
  });

  return state;
}

/**
 * A fetch that keeps cookies like a browser on one origin does, for Node, whose fetch keeps
 * none: the site's session lives in the refresh-token cookie.
 */
export function fetchWithCookies(): typeof globalThis.fetch {
  const jar = new Map<string, string>();
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await globalThis.fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') jar.delete(name.trim());
      else jar.set(name.trim(), value.trim());
    }
    return response;
  };
}

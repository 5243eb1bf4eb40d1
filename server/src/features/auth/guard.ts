import { webcrypto } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { batched } from '../../db/batched';
import { preparedStatement } from '../../db/prepared';
import { embedConsents, users } from '../../db/schema';
import { AppError } from '../../errors';
import { sourceOf } from '../../http/origins';
import { RefreshingCache } from '../../http/refreshing-cache';
import { writesOf, type Writes } from '../../http/writes';
import { widgetMayCall } from './scope';

/** Who is calling: set by `authenticate` or `optionalViewer`, null for visitors. */
export interface Viewer {
  id: number;
  /** 0 member, 3 VIP, 100 support, 500 admin (SPEC §6). */
  level: number;
  emailVerified: boolean;
  /**
   * `full` for the platform's own sessions; `widget` for a session a fan allowed a site to
   * have: bound to `origin` and limited to the widget actions of ./scope.ts.
   */
  scope: 'full' | 'widget';
  /** The page origin a widget session is bound to; null for full sessions. */
  origin: string | null;
  /** The fan's consent behind a widget session on a partner site; null for the platform's own. */
  consentId: number | null;
}

/** What binds a widget session: the site's origin and the fan's consent behind it. */
export interface WidgetBinding {
  origin: string;
  /** Null only for the platform's own origin, which needs no consent. */
  consentId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}

/** Access tokens live a quarter of an hour; the refresh token keeps the session going. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
const ALGORITHM = 'HS256';

/**
 * The signing key, imported into WebCrypto once per configuration: given as bytes, jose imports
 * them again for every token it signs or checks, a third of a token check's time.
 */
const keys = new WeakMap<AppContext['config'], Promise<webcrypto.CryptoKey>>();
function keyOf(ctx: AppContext): Promise<webcrypto.CryptoKey> {
  let key = keys.get(ctx.config);
  if (key === undefined) {
    key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(ctx.config.jwtSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(ctx.config, key);
  }
  return key;
}

/**
 * A signed access token for the user. `sessionFamily` (the refresh-token family it was issued
 * with, claim `sid`) lets a password change keep the session that made it. A widget session's
 * token carries its binding: `scp: 'widget'`, the origin (`org`) and the consent (`cid`).
 */
export async function issueAccessToken(ctx: AppContext, userId: number, sessionFamily?: string, binding?: WidgetBinding | null): Promise<string> {
  const now = Date.now();
  const claims: Record<string, unknown> = { userId };
  if (sessionFamily !== undefined) claims.sid = sessionFamily;
  if (binding) {
    claims.scp = 'widget';
    claims.org = binding.origin;
    if (binding.consentId !== null) claims.cid = binding.consentId;
  }
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    // Millisecond precision (NumericDate may be fractional), so a session revoked now refuses
    // tokens issued before it yet accepts a login a moment later in the same second.
    .setIssuedAt(now / 1000)
    .setExpirationTime(Math.floor(now / 1000) + ACCESS_TOKEN_SECONDS)
    .sign(await keyOf(ctx));
}

const unauthorized = () => new AppError('unauthorized');

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined || header === '') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  // A malformed header is a client bug, not a visitor: answer 401 so it notices.
  if (match === null) throw unauthorized();
  return match[1] ?? null;
}

const sessionFamilies = new WeakMap<FastifyRequest, string>();

/** The refresh-token family behind the request's access token, if it came from one. */
export function sessionFamilyOf(request: FastifyRequest): string | null {
  return sessionFamilies.get(request) ?? null;
}

async function authenticateRequest(request: FastifyRequest, token: string): Promise<void> {
  const { viewer, sessionFamily } = await verifyAccessToken(request.server.fanstage, token);
  const source = sourceOf(request);
  if (viewer.scope === 'widget') {
    // A widget token works only on the page it was granted to, and only for widget actions.
    if (source.origin !== null && source.origin !== viewer.origin) throw new AppError('origin-not-allowed');
    if (!widgetMayCall(request.method, request.routeOptions.url ?? '', request.body)) throw new AppError('widget-scope');
  } else if (!source.platform) {
    // The platform's own session is never usable from another page, even if its token leaked there.
    throw new AppError('origin-not-allowed');
  }
  request.viewer = viewer;
  if (sessionFamily !== null) sessionFamilies.set(request, sessionFamily);
}

/**
 * Tokens whose signature this node has checked, with their claims, per key: a session sends the
 * same access token with every request for a quarter of an hour, and the signature check
 * (WebCrypto's HMAC through jose) was the largest part of an authenticated read's own work. A
 * token is the same bytes with the same signature every time, so the check's outcome holds
 * for as long as the token lives; expiry is checked on every use, and the account behind it
 * (blocked, deleted, sessions ended) is checked on every request below.
 */
const verifiedTokens = new WeakMap<AppContext['config'], Map<string, JWTPayload>>();
const maxVerifiedTokens = 10_000;

async function verifiedPayload(ctx: AppContext, token: string, remember: boolean): Promise<JWTPayload> {
  let known = verifiedTokens.get(ctx.config);
  if (known === undefined) {
    known = new Map();
    verifiedTokens.set(ctx.config, known);
  }
  const held = known.get(token);
  // As jose: a token is expired from the second its `exp` names.
  if (held !== undefined && typeof held.exp === 'number' && held.exp > Date.now() / 1000) return held;
  if (held !== undefined) known.delete(token);
  // The algorithm is pinned: a token announcing `none` or an asymmetric algorithm is refused
  // before its signature is even looked at.
  const { payload } = await jwtVerify(token, await keyOf(ctx), { algorithms: [ALGORITHM], requiredClaims: ['exp', 'iat'] });
  if (!remember) return payload;
  if (known.size >= maxVerifiedTokens) {
    const oldest = known.keys().next();
    if (!oldest.done) known.delete(oldest.value);
  }
  known.set(token, payload);
  return payload;
}

/** What every authenticated request checks of the account behind its token. */
interface Account {
  id: number;
  level: number;
  emailVerified: boolean;
  bannedAt: Date | null;
  deletedAt: Date | null;
  tokensValidAfter: Date | null;
  /** The widget consent the token names, if it is still there (null when none was named). */
  consentId: number | null;
}

/** How long a node holds an account it read for a token, at most (a write or a logout ends it sooner). */
export const heldAccountMs = 1_000;
const maxHeldAccounts = 10_000;

/**
 * The accounts behind the tokens of the last moment, per app. A signed-in page sends several
 * requests at once and a fan scrolling sends one after another: each read the same row. An
 * account is held for a second at most and never past a change that could matter: any write
 * (http/writes.ts: this node's answered, another's announced) or a logout anywhere (a ban,
 * a password change, a deleted account, a revoked widget consent: realtime `onLogout`) drops
 * them all, and a read that began before either is kept under the old epoch, never answered.
 * Without a count of the app's writes nothing is held.
 */
class HeldAccounts {
  private epoch = 0;
  private readonly accounts = new RefreshingCache<string, Account | undefined>(heldAccountMs, 0, maxHeldAccounts);

  constructor(ctx: AppContext, writes: Writes) {
    const forget = () => this.forget();
    writes.onWrite(forget);
    ctx.realtime.onLogout(forget);
  }

  forget(): void {
    this.epoch += 1;
    this.accounts.clear();
  }

  get(userId: number, consentId: number | null, load: () => Promise<Account | undefined>): Promise<Account | undefined> {
    return this.accounts.get(`${this.epoch}|${userId}|${consentId ?? ''}`, load);
  }
}

// Per app, by its realtime publisher (as http/writes.ts).
const heldAccounts = new WeakMap<AppContext['realtime'], HeldAccounts | null>();

/**
 * Drops every account this node holds: called where sessions end (revokeSessions), so the
 * change applies at once even when no request's write carries it (a job, a script).
 */
export function forgetHeldAccounts(ctx: AppContext): void {
  heldAccounts.get(ctx.realtime)?.forget();
}

/**
 * The accounts a moment's tokens name, read together (db/batched.ts): a crowd of sockets
 * opening at once, or a page's requests arriving together, takes one round trip, not one each.
 * A widget token is as good as the fan's consent behind it: revoking the consent (deleting its
 * row) ends the session at once, in the same query that loads the account. Every authenticated
 * request asks this, so it is built once and runs prepared. Keyed `userId|consentId`.
 */
const accountReaders = new WeakMap<AppContext['db'], (key: string) => Promise<Account | undefined>>();

function accountReader(ctx: AppContext): (key: string) => Promise<Account | undefined> {
  let reader = accountReaders.get(ctx.db);
  if (reader === undefined) {
    reader = batched<string, Account>(async (keys) => {
      const asked = keys.map((key) => key.split('|').map(Number) as [number, number]);
      const statement = preparedStatement(ctx.db, 'auth:accounts', () =>
        ctx.db
          .select({
            key: sql<string>`k.user_id || '|' || k.consent_id`,
            id: users.id,
            level: users.level,
            emailVerified: users.emailVerified,
            bannedAt: users.bannedAt,
            deletedAt: users.deletedAt,
            tokensValidAfter: users.tokensValidAfter,
            consentId: embedConsents.id,
          })
          .from(sql`unnest(${sql.placeholder('userIds')}::int[], ${sql.placeholder('consentIds')}::int[]) as k(user_id, consent_id)`)
          .innerJoin(users, eq(users.id, sql`k.user_id`))
          .leftJoin(embedConsents, and(eq(embedConsents.id, sql`k.consent_id`), eq(embedConsents.userId, users.id))),
      );
      const rows = await statement.execute({ userIds: asked.map(([userId]) => userId), consentIds: asked.map(([, consentId]) => consentId) });
      return new Map(rows.map(({ key, ...account }) => [key, account]));
    });
    accountReaders.set(ctx.db, reader);
  }
  return reader;
}

function accountOf(ctx: AppContext, userId: number, consentId: number | null): Promise<Account | undefined> {
  let held = heldAccounts.get(ctx.realtime);
  if (held === undefined) {
    const writes = writesOf(ctx);
    held = writes === undefined ? null : new HeldAccounts(ctx, writes);
    heldAccounts.set(ctx.realtime, held);
  }
  const read = () => accountReader(ctx)(`${userId}|${consentId ?? -1}`);
  return held === null ? read() : held.get(userId, consentId, read);
}

/**
 * Verifies the token and loads the account behind it; throws 401 for anything not right.
 * `remember: false` checks a token without keeping it among the verified ones (a socket's).
 */
export async function verifyAccessToken(ctx: AppContext, token: string, options: { remember?: boolean } = {}): Promise<{ viewer: Viewer; sessionFamily: string | null }> {
  let userId: number;
  let issuedAt: number;
  let sessionFamily: string | null;
  let binding: { origin: string; consentId: number | null } | null = null;
  try {
    const payload = await verifiedPayload(ctx, token, options.remember ?? true);
    if (typeof payload.userId !== 'number' || !Number.isSafeInteger(payload.userId) || typeof payload.iat !== 'number') throw unauthorized();
    userId = payload.userId;
    issuedAt = payload.iat;
    sessionFamily = typeof payload.sid === 'string' ? payload.sid : null;
    if (payload.scp !== undefined) {
      if (payload.scp !== 'widget' || typeof payload.org !== 'string') throw unauthorized();
      const cid = payload.cid;
      if (cid !== undefined && (typeof cid !== 'number' || !Number.isSafeInteger(cid))) throw unauthorized();
      binding = { origin: payload.org, consentId: typeof cid === 'number' ? cid : null };
    }
  } catch {
    throw unauthorized();
  }
  const consentId = binding?.consentId ?? null;
  const user = await accountOf(ctx, userId, consentId);
  if (user === undefined || user.bannedAt !== null || user.deletedAt !== null) throw unauthorized();
  if (user.tokensValidAfter !== null && issuedAt * 1000 < user.tokensValidAfter.getTime()) throw unauthorized();
  if (consentId !== null && user.consentId === null) throw unauthorized();
  const viewer: Viewer = {
    id: user.id,
    level: user.level,
    emailVerified: user.emailVerified,
    scope: binding === null ? 'full' : 'widget',
    origin: binding?.origin ?? null,
    consentId,
  };
  return { viewer, sessionFamily };
}

/** The guard of a viewer scope's `/api` routes (features/auth/access.ts): a logged-in viewer. */
export async function authenticate(request: FastifyRequest): Promise<void> {
  const token = bearerOf(request);
  if (token === null) throw unauthorized();
  await authenticateRequest(request, token);
}

/**
 * preHandler of routes visitors may call too. A token that is present but invalid still
 * answers 401, so the client refreshes instead of silently seeing the visitor's view.
 */
export async function optionalViewer(request: FastifyRequest): Promise<void> {
  const token = bearerOf(request);
  if (token === null) request.viewer = null;
  else await authenticateRequest(request, token);
}

/** The viewer of an authenticated route (after `authenticate`). */
export function viewerOf(request: FastifyRequest): Viewer {
  if (request.viewer === null) throw unauthorized();
  return request.viewer;
}

/** SPEC §5: follow, like, comment, chat, reply, upload and purchases need a verified e-mail. */
export function requireVerifiedEmail(request: FastifyRequest): Viewer {
  const viewer = viewerOf(request);
  if (!viewer.emailVerified) throw new AppError('email-not-verified');
  return viewer;
}

/** SPEC §6 roles: 3 VIP, 100 support, 500 admin. */
export function requireLevel(request: FastifyRequest, min: number): Viewer {
  const viewer = viewerOf(request);
  if (viewer.level < min) throw new AppError('forbidden');
  return viewer;
}

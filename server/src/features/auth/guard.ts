import type { FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { AppError } from '../../errors';

/** Who is calling: set by `authenticate` or `optionalViewer`, null for visitors. */
export interface Viewer {
  id: number;
  /** 0 member, 3 VIP, 100 support, 500 admin (SPEC §6). */
  level: number;
  emailVerified: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}

/** Access tokens live a quarter of an hour; the refresh token keeps the session going. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
const ALGORITHM = 'HS256';

const keys = new WeakMap<AppContext['config'], Uint8Array>();
function keyOf(ctx: AppContext): Uint8Array {
  let key = keys.get(ctx.config);
  if (key === undefined) {
    key = new TextEncoder().encode(ctx.config.jwtSecret);
    keys.set(ctx.config, key);
  }
  return key;
}

/**
 * A signed access token for the user. `sessionFamily` (the refresh-token family it was issued
 * with, claim `sid`) lets a password change keep the session that made it.
 */
export async function issueAccessToken(ctx: AppContext, userId: number, sessionFamily?: string): Promise<string> {
  const now = Date.now();
  return new SignJWT(sessionFamily === undefined ? { userId } : { userId, sid: sessionFamily })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    // Millisecond precision (NumericDate may be fractional), so a session revoked now refuses
    // tokens issued before it yet accepts a login a moment later in the same second.
    .setIssuedAt(now / 1000)
    .setExpirationTime(Math.floor(now / 1000) + ACCESS_TOKEN_SECONDS)
    .sign(keyOf(ctx));
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
  request.viewer = viewer;
  if (sessionFamily !== null) sessionFamilies.set(request, sessionFamily);
}

/** Verifies the token and loads the account behind it; throws 401 for anything not right. */
export async function verifyAccessToken(ctx: AppContext, token: string): Promise<{ viewer: Viewer; sessionFamily: string | null }> {
  let userId: number;
  let issuedAt: number;
  let sessionFamily: string | null;
  try {
    // The algorithm is pinned: a token announcing `none` or an asymmetric algorithm is refused
    // before its signature is even looked at.
    const { payload } = await jwtVerify(token, keyOf(ctx), { algorithms: [ALGORITHM], requiredClaims: ['exp', 'iat'] });
    if (typeof payload.userId !== 'number' || !Number.isSafeInteger(payload.userId) || typeof payload.iat !== 'number') throw unauthorized();
    userId = payload.userId;
    issuedAt = payload.iat;
    sessionFamily = typeof payload.sid === 'string' ? payload.sid : null;
  } catch {
    throw unauthorized();
  }
  const [user] = await ctx.db
    .select({
      id: users.id,
      level: users.level,
      emailVerified: users.emailVerified,
      bannedAt: users.bannedAt,
      deletedAt: users.deletedAt,
      tokensValidAfter: users.tokensValidAfter,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (user === undefined || user.bannedAt !== null || user.deletedAt !== null) throw unauthorized();
  if (user.tokensValidAfter !== null && issuedAt * 1000 < user.tokensValidAfter.getTime()) throw unauthorized();
  return { viewer: { id: user.id, level: user.level, emailVerified: user.emailVerified }, sessionFamily };
}

/** preHandler of routes that need a logged-in viewer: `{ preHandler: authenticate }`. */
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

import type { FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db';
import { embedOrigins, originProofs, users } from '../db/schema';
import { AppError } from '../errors';
import { originOf } from '../features/auth/domain';

/**
 * Trust by origin, in three tiers (docs/embedding.md, "Who is trusted"):
 *
 * - **Anyone** may read what a visitor may read: public reads answer every origin with
 *   `Access-Control-Allow-Origin: *` and never with credentials.
 * - **The platform** — its own origin (PUBLIC_URL, or the host a request was sent to) and the
 *   operator's CORS_ORIGINS — is the only place cookies work and the only origin that may use
 *   a full session.
 * - **A site a fan allowed** gets a widget session: tokens bound to that origin and scoped to
 *   widget actions. Nothing about it comes from the origin itself; it comes from the fan.
 *
 * Creators' listed embed origins grant nothing by themselves any more: the sign-in popup shows
 * the ones a creator proved are hers (features/origins) to the fan as "listed by …", which helps
 * the fan decide. A listing alone is only a claim, and is not shown.
 */

const publicOrigins = new Map<string, string | null>();

function publicOriginOf(config: Config): string | null {
  // PUBLIC_URL may change once, when the server learns its port; a parse per value, not per request.
  let origin = publicOrigins.get(config.publicUrl);
  if (origin === undefined) {
    origin = originOf(config.publicUrl);
    publicOrigins.set(config.publicUrl, origin);
  }
  return origin;
}

/** The origin a request was addressed to, as the browser would write it in `Origin`. */
function addressedOrigin(headers: IncomingHttpHeaders, protocol: string): string | null {
  const host = headers.host;
  return host === undefined || host === '' ? null : `${protocol}://${host}`;
}

/** Whether `origin` is the platform: its public origin, an operator-listed one, or the very host asked. */
export function isPlatformOrigin(config: Config, origin: string, selfOrigin?: string | null): boolean {
  return origin === publicOriginOf(config) || config.corsOrigins.includes(origin) || (selfOrigin != null && origin === selfOrigin);
}

/** What a request says about where it comes from. */
export interface RequestSource {
  /** The `Origin` header; null when the browser sent none (same-origin GET, navigations, non-browser clients). */
  origin: string | null;
  /** Sent by the platform's own pages, or by a client that is not a web page at all. */
  platform: boolean;
}

/** The request's source, from `Origin` and `Sec-Fetch-Site` (browsers send both on every fetch they can). */
export function sourceOf(request: FastifyRequest): RequestSource {
  return sourceOfHeaders(request.server.fanstage.config, request.headers, request.protocol);
}

export function sourceOfHeaders(config: Config, headers: IncomingHttpHeaders, protocol: string): RequestSource {
  const origin = typeof headers.origin === 'string' && headers.origin !== '' ? headers.origin : null;
  const fetchSite = headers['sec-fetch-site'];
  // `same-site` is a sibling host (another subdomain, another port): still another origin.
  const crossByFetchSite = fetchSite === 'cross-site' || fetchSite === 'same-site';
  if (origin === null) return { origin: null, platform: !crossByFetchSite };
  return { origin, platform: isPlatformOrigin(config, origin, addressedOrigin(headers, protocol)) };
}

/**
 * preHandler of the routes that set, read or clear the session cookie, or start a full session
 * (login, signup, refresh, logout, reset): only the platform's own pages may call them, so a
 * page elsewhere — even one on a sibling host that the browser sends the cookie for — can
 * neither read a token nor log a fan out.
 */
export async function platformOnly(request: FastifyRequest): Promise<void> {
  if (!sourceOf(request).platform) throw new AppError('origin-not-allowed');
}

/** Creators who listed `origin` for their widgets and proved it theirs, for the consent screen ("listed by …"). */
export async function creatorsListing(ctx: { db: Database }, origin: string): Promise<{ username: string; displayName: string }[]> {
  return ctx.db
    .select({ username: users.username, displayName: users.displayName })
    .from(embedOrigins)
    .innerJoin(users, eq(users.id, embedOrigins.userId))
    .innerJoin(originProofs, and(eq(originProofs.userId, embedOrigins.userId), eq(originProofs.origin, embedOrigins.origin), isNotNull(originProofs.provenAt)))
    .where(and(eq(embedOrigins.origin, origin), isNull(users.deletedAt), isNull(users.bannedAt)))
    .orderBy(asc(users.username))
    .limit(5);
}

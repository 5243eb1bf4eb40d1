/**
 * Embed sign-in and consents: the sites a fan allowed a widget on, the one-time code the
 * sign-in popup hands a site and its exchange for a widget session bound to that site, and the
 * administrators' list of the sites creators embed on.
 */
import { and, asc, desc, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { embedConsents, embedOrigins, spends, users } from '../../db/schema';
import { startOfUtcMonth } from '../../ledger/spend-guard';
import type { EmbedConsent } from '../../../../lib/contract/auth';
import { AppError } from '../../errors';
import { isPlatformOrigin } from '../../http/origins';
import { originOf } from './domain';
import { consumeActionToken, createActionToken } from './actions';
import { startSession, type Session } from './sessions';

/** The site a widget asks for, as the popup reports it; null unless it is an http(s) origin exactly. */
function exactOrigin(value: string): string | null {
  const normalized = originOf(value);
  return normalized !== null && normalized === value ? normalized : null;
}

/** The fan's consent for `origin`, if given. */
async function consentFor(ctx: AppContext, userId: number, origin: string): Promise<{ id: number } | null> {
  const [row] = await ctx.db
    .select({ id: embedConsents.id })
    .from(embedConsents)
    .where(and(eq(embedConsents.userId, userId), eq(embedConsents.origin, origin)))
    .limit(1);
  return row ?? null;
}

/** GET /api/embed/consent: what the popup shows before it hands a site a code. */
export async function embedConsentState(ctx: AppContext, userId: number, value: string): Promise<{ origin: string; platform: boolean; allowed: boolean }> {
  const origin = exactOrigin(value);
  if (origin === null) throw new AppError('invalid-request', { body: { location: 'body', field: 'origin', reason: 'not an origin' } });
  const platform = isPlatformOrigin(ctx.config, origin);
  return { origin, platform, allowed: platform || (await consentFor(ctx, userId, origin)) !== null };
}

/**
 * POST /api/embed/code: a one-time code for the widget on `origin`. The platform's own pages
 * need no consent; any other site only one the fan allowed — now (`allow: true`, the popup's
 * Allow button) or before. The code carries the binding, so the session it becomes is a widget
 * session of that origin and that consent.
 */
export async function issueEmbedCode(ctx: AppContext, userId: number, value: string, allow = false, allowance = 0): Promise<string> {
  const origin = exactOrigin(value);
  if (origin === null) throw new AppError('invalid-request', { body: { location: 'body', field: 'origin', reason: 'not an origin' } });
  if (isPlatformOrigin(ctx.config, origin)) return createActionToken(ctx, userId, 'embed-login', { origin, consentId: null });
  let consent = await consentFor(ctx, userId, origin);
  if (consent === null) {
    if (!allow) throw new AppError('consent-required');
    const [row] = await ctx.db
      .insert(embedConsents)
      .values({ userId, origin, monthlyAllowance: allowance })
      .onConflictDoUpdate({ target: [embedConsents.userId, embedConsents.origin], set: { lastUsedAt: new Date() } })
      .returning({ id: embedConsents.id });
    consent = row ?? null;
    if (consent === null) throw new AppError('consent-required');
  }
  return createActionToken(ctx, userId, 'embed-login', { origin, consentId: consent.id });
}

/** POST /papi/embed/exchange: the code, on the origin it was issued for, becomes a widget session. */
export async function exchangeEmbedCode(ctx: AppContext, code: string, origin: string, userAgent?: string): Promise<Session & { userId: number }> {
  const row = await consumeActionToken(ctx, code, ['embed-login']);
  if (row === null || row.payload?.origin !== origin) throw new AppError('invalid-code');
  const consentId = typeof row.payload.consentId === 'number' ? row.payload.consentId : null;
  const [user] = await ctx.db
    .select({ bannedAt: users.bannedAt, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, row.userId))
    .limit(1);
  if (user === undefined || user.bannedAt !== null || user.deletedAt !== null) throw new AppError('invalid-code');
  if (consentId !== null) {
    // Revoked between the popup and the exchange: no session.
    const [used] = await ctx.db
      .update(embedConsents)
      .set({ lastUsedAt: new Date() })
      .where(and(eq(embedConsents.id, consentId), eq(embedConsents.userId, row.userId)))
      .returning({ id: embedConsents.id });
    if (used === undefined) throw new AppError('invalid-code');
  } else if (!isPlatformOrigin(ctx.config, origin)) {
    throw new AppError('invalid-code');
  }
  return { ...(await startSession(ctx, row.userId, userAgent, { origin, consentId })), userId: row.userId };
}

/** GET /api/embed/consents: the sites the fan allowed, newest use first (settings). */
export async function listEmbedConsents(ctx: AppContext, userId: number): Promise<EmbedConsent[]> {
  const month = startOfUtcMonth(ctx.clock.now());
  const [rows, spent] = await Promise.all([
    ctx.db
      .select({ origin: embedConsents.origin, allowance: embedConsents.monthlyAllowance, createdAt: embedConsents.createdAt, lastUsedAt: embedConsents.lastUsedAt })
      .from(embedConsents)
      .where(eq(embedConsents.userId, userId))
      .orderBy(desc(embedConsents.lastUsedAt), asc(embedConsents.origin)),
    ctx.db
      .select({ origin: spends.origin, total: sql<string>`sum(${spends.amount})` })
      .from(spends)
      .where(and(eq(spends.userId, userId), gte(spends.createdAt, month), isNotNull(spends.origin)))
      .groupBy(spends.origin),
  ]);
  const bySite = new Map(spent.map((r) => [r.origin, Number(r.total)]));
  return rows.map((r) => ({
    origin: r.origin,
    allowance: r.allowance,
    spentThisMonth: bySite.get(r.origin) ?? 0,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt.toISOString(),
  }));
}

/**
 * DELETE /api/embed/consents: the fan takes a site's permission back. Deleting the consent
 * deletes its widget sessions' refresh tokens (cascade), makes their access tokens fail at the
 * next request (the guard joins the consent), and closes their sockets now.
 */
export async function revokeEmbedConsent(ctx: AppContext, userId: number, origin: string): Promise<void> {
  const deleted = await ctx.db
    .delete(embedConsents)
    .where(and(eq(embedConsents.userId, userId), eq(embedConsents.origin, origin)))
    .returning({ id: embedConsents.id });
  if (deleted.length === 0) throw new AppError('not-found');
  ctx.realtime.logout(userId, 'widget-consent-revoked', null, origin);
}

/** GET /api/admin/embed-origins: every listed site with the creator who listed it (level 500). */
export async function listedEmbedOrigins(ctx: AppContext): Promise<{ origin: string; userId: number; username: string }[]> {
  return ctx.db
    .select({ origin: embedOrigins.origin, userId: embedOrigins.userId, username: users.username })
    .from(embedOrigins)
    .innerJoin(users, eq(users.id, embedOrigins.userId))
    .orderBy(asc(embedOrigins.origin), asc(users.username));
}

/** DELETE /api/admin/embed-origins: an administrator takes a site off every creator's list (or one creator's). */
export async function removeEmbedOrigin(ctx: AppContext, origin: string, userId?: number): Promise<void> {
  const removed = await ctx.db
    .delete(embedOrigins)
    .where(and(eq(embedOrigins.origin, origin), userId === undefined ? undefined : eq(embedOrigins.userId, userId)))
    .returning({ userId: embedOrigins.userId });
  if (removed.length === 0) throw new AppError('not-found');
}

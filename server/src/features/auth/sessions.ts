/**
 * Sessions: signing in (behind the sign-in throttle and the hashing line), a session's refresh
 * tokens and their rotation, logout and the revocation of every session of an account, and
 * the housekeeping that keeps the attempts' and tokens' tables the size of the live sessions.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { actionTokens, loginAttempts, refreshTokens, users } from '../../db/schema';
import { AppError } from '../../errors';
import { pruneThrottleEvents } from '../../http/throttle';
import { forgetHeldAccounts, issueAccessToken, type WidgetBinding } from './guard';
import { passwordHashing } from './hashing';
import { forgetSessionDevices, forgetUserDevices } from '../push/service';
import {
  deviceKey,
  deviceOf,
  heldUntil,
  normalizeEmail,
  randomToken,
  refreshGraceMs,
  refreshTokenMs,
  requesterOf,
  signInThrottle,
  successorKey,
  successorToken,
  tokenHash,
} from './domain';
import { verifyPassword } from './passwords';

export interface Session {
  accessToken: string;
  refreshToken: string;
  familyId: string;
  /** The origin a widget session is bound to; null for the platform's own sessions. */
  origin: string | null;
}

async function issueRefreshToken(
  ctx: AppContext,
  userId: number,
  familyId: string,
  userAgent: string | undefined,
  binding: WidgetBinding | null = null,
): Promise<string> {
  const token = randomToken();
  await ctx.db.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: tokenHash(token),
    expiresAt: new Date(Date.now() + refreshTokenMs),
    userAgent: userAgent?.slice(0, 300) ?? null,
    origin: binding?.origin ?? null,
    consentId: binding?.consentId ?? null,
  });
  return token;
}

/** A new session: the platform's own, or with `binding` a widget session on a site the fan allowed. */
export async function startSession(ctx: AppContext, userId: number, userAgent?: string, binding: WidgetBinding | null = null): Promise<Session> {
  const familyId = randomUUID();
  const refreshToken = await issueRefreshToken(ctx, userId, familyId, userAgent, binding);
  return { accessToken: await issueAccessToken(ctx, userId, familyId, binding), refreshToken, familyId, origin: binding?.origin ?? null };
}

// The first key of the two-key advisory locks sign-ins take (http/throttle.ts has 722_061_002).
const signInLockClass = 722_061_003;

type Tx = Parameters<Parameters<AppContext['db']['transaction']>[0]>[0];

/**
 * The failures of one throttle key (`key` over login_attempts) within its window, with the
 * latest; with `endedBy`, only those admitted after the latest success matching it (by id:
 * attempts are admitted one after another per key, and two may share a millisecond).
 */
async function failuresOf(tx: Tx, key: SQL, since: Date, endedBy: SQL | null): Promise<{ failures: number; latest: Date | null }> {
  const from = sql`${since.toISOString()}::timestamptz`;
  const afterSuccess =
    endedBy === null
      ? undefined
      : sql`${loginAttempts.id} > coalesce((select max(${loginAttempts.id}) from ${loginAttempts} where ${endedBy} and ${loginAttempts.succeeded} and ${loginAttempts.createdAt} > ${from}), 0)`;
  const [row] = await tx
    .select({ failures: sql<number>`count(*)::int`, latest: sql<Date | null>`max(${loginAttempts.createdAt})`.mapWith(loginAttempts.createdAt) })
    .from(loginAttempts)
    .where(and(key, eq(loginAttempts.succeeded, false), sql`${loginAttempts.createdAt} > ${from}`, afterSuccess));
  return { failures: row?.failures ?? 0, latest: row?.latest ?? null };
}

function later(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

/**
 * Decides whether a sign-in may check its password and, if so, records it first as a failure
 * (settled as a success once the password matched), under a lock on what the decision reads:
 * concurrent attempts of one requester (or one device) are decided one after the other, each
 * seeing the ones before, so a burst checks no more passwords than the throttle allows.
 */
async function admitSignIn(
  ctx: AppContext,
  attempt: { userId: number | null; emailKey: string; requester: string; device: string | null },
  now: Date,
): Promise<{ attemptId: number } | { heldUntil: Date }> {
  const { pair, requester } = signInThrottle;
  const since = (windowMs: number) => new Date(now.getTime() - windowMs);
  return ctx.db.transaction(async (tx) => {
    const lockKey = attempt.device === null ? `requester\n${attempt.requester}` : `device\n${attempt.device}`;
    await tx.execute(sql`select pg_advisory_xact_lock(${signInLockClass}, hashtext(${lockKey}))`);
    let until: Date | null;
    if (attempt.device !== null) {
      // A browser that signed in here before answers for its own failures only.
      const device = eq(loginAttempts.device, attempt.device);
      const own = await failuresOf(tx, device, since(pair.windowMs), device);
      until = heldUntil(own.failures, own.latest, pair.free, now);
    } else {
      const onThis = and(eq(loginAttempts.emailKey, attempt.emailKey), eq(loginAttempts.address, attempt.requester))!;
      // Only a success judged by this count ends it: the owner signing in with a device cookie
      // from the attacker's own network must not hand the attacker a fresh set of guesses.
      const pairCount = await failuresOf(tx, onThis, since(pair.windowMs), and(onThis, isNull(loginAttempts.device))!);
      const anywhere = await failuresOf(tx, eq(loginAttempts.address, attempt.requester), since(requester.windowMs), null);
      until = later(heldUntil(pairCount.failures, pairCount.latest, pair.free, now), heldUntil(anywhere.failures, anywhere.latest, requester.free, now));
    }
    if (until !== null) return { heldUntil: until };
    const [row] = await tx
      .insert(loginAttempts)
      .values({ userId: attempt.userId, address: attempt.requester, emailKey: attempt.emailKey, device: attempt.device, succeeded: false, createdAt: now })
      .returning({ id: loginAttempts.id });
    return { attemptId: row!.id };
  });
}

const deviceKeys = new WeakMap<AppContext['config'], Buffer>();
/** The key of the device cookie's tokens (domain.ts `deviceKey`), derived once per configuration. */
export function deviceKeyOf(ctx: AppContext): Buffer {
  let key = deviceKeys.get(ctx.config);
  if (key === undefined) {
    key = deviceKey(ctx.config.jwtSecret);
    deviceKeys.set(ctx.config, key);
  }
  return key;
}

/**
 * POST /papi/login: the throttle first (docs/auth.md, "Sign-in throttling"), so a held
 * requester costs no password hash and learns nothing; then the password. `address` is the
 * client's IP, `deviceCookie` the fs_device cookie the browser sent, if any.
 */
export async function login(
  ctx: AppContext,
  input: { email: string; password: string; address: string; userAgent?: string; deviceCookie?: string },
): Promise<{ session: Session; userId: number }> {
  const now = ctx.clock.now();
  const email = normalizeEmail(input.email);
  // A place in the hashing line first: when it is full the request is refused before it reads
  // anything or counts as an attempt against the throttle, so a burst costs the refused nothing;
  // the others read and record when their place comes near the front (HashingTicket.near).
  const ticket = passwordHashing.ticket();
  let user: { id: number; passwordHash: string | null; bannedAt: Date | null; tokensValidAfter: Date | null } | undefined;
  let matches: boolean;
  let admitted: Awaited<ReturnType<typeof admitSignIn>>;
  try {
    await ticket.near();
    [user] = await ctx.db
      .select({ id: users.id, passwordHash: users.passwordHash, bannedAt: users.bannedAt, tokensValidAfter: users.tokensValidAfter })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deletedAt)))
      .limit(1);
    // Device tokens are dated by the wall clock, as access tokens are, since `tokensValidAfter` is.
    const device = user === undefined ? null : deviceOf(deviceKeyOf(ctx), input.deviceCookie, user.id, user.tokensValidAfter, new Date());
    admitted = await admitSignIn(ctx, { userId: user?.id ?? null, emailKey: tokenHash(email), requester: requesterOf(input.address), device }, now);
    if ('heldUntil' in admitted) {
      const retryAfter = Math.max(1, Math.ceil((admitted.heldUntil.getTime() - now.getTime()) / 1000));
      throw new AppError('too-many-requests', { body: { retryAfter }, retryAfter });
    }
    matches = await verifyPassword(user?.passwordHash ?? null, input.password, ticket);
  } finally {
    ticket.release();
  }
  if (user === undefined || !matches) throw new AppError('invalid-credentials');
  await ctx.db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, admitted.attemptId));
  // Only someone who knows the password learns that the account is blocked.
  if (user.bannedAt !== null) throw new AppError('banned');
  return { session: await startSession(ctx, user.id, input.userAgent), userId: user.id };
}

const refreshFailed = () => new AppError('refresh-token-failed');

/**
 * Rotates a refresh token: the presented one is marked used and its successor of the same
 * family answers. Presented again within `refreshGraceMs` of that use (two tabs starting
 * together with one cookie, a retry after a lost response), it answers the same successor, as
 * long as that one is live. Presented again later, it means two parties hold it — one of them
 * a thief — so the whole family is revoked and both have to log in again.
 *
 * The claim of the token and the insert of its successor commit together: a request racing
 * for the same token waits on the claimed row, then finds both, never a used token without
 * a successor. A widget session's successor keeps its origin and consent, and so do the
 * access tokens issued with it.
 */
export async function refreshSession(
  ctx: AppContext,
  token: string,
  userAgent?: string,
  options: { graceMs?: number; accepts?: (origin: string | null) => boolean } = {},
): Promise<Session> {
  const graceMs = options.graceMs ?? refreshGraceMs;
  const now = ctx.clock.now();
  if (options.accepts !== undefined) {
    // Where the session may be refreshed from (its site, or the platform) is checked before the
    // token is spent, so a page that may not use it cannot make its owner's refresh look like a replay.
    const [bound] = await ctx.db.select({ origin: refreshTokens.origin }).from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash(token))).limit(1);
    if (bound !== undefined && !options.accepts(bound.origin)) throw new AppError('origin-not-allowed');
  }
  const successor = successorToken(successorKeyOf(ctx), token);
  const session = await ctx.db.transaction(async (tx) => {
    const live = (userId: number) =>
      tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), isNull(users.bannedAt), isNull(users.deletedAt)))
        .limit(1)
        .then((rows) => rows.length > 0);
    const [claimed] = await tx
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.tokenHash, tokenHash(token)), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, now)))
      .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId, origin: refreshTokens.origin, consentId: refreshTokens.consentId });
    if (claimed !== undefined) {
      if (!(await live(claimed.userId))) {
        await revokeFamily(tx, claimed.familyId);
        return null;
      }
      await tx.insert(refreshTokens).values({
        userId: claimed.userId,
        familyId: claimed.familyId,
        tokenHash: tokenHash(successor),
        expiresAt: new Date(now.getTime() + refreshTokenMs),
        userAgent: userAgent?.slice(0, 300) ?? null,
        origin: claimed.origin,
        consentId: claimed.consentId,
      });
      return claimed;
    }
    const [known] = await tx
      .select({
        userId: refreshTokens.userId,
        familyId: refreshTokens.familyId,
        usedAt: refreshTokens.usedAt,
        revokedAt: refreshTokens.revokedAt,
        origin: refreshTokens.origin,
        consentId: refreshTokens.consentId,
      })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash(token)))
      .limit(1);
    if (known === undefined || known.usedAt === null || known.revokedAt !== null) return null;
    if (now.getTime() - known.usedAt.getTime() > graceMs) {
      await revokeFamily(tx, known.familyId);
      return null;
    }
    const [next] = await tx.select({ revokedAt: refreshTokens.revokedAt }).from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash(successor))).limit(1);
    if (next === undefined || next.revokedAt !== null || !(await live(known.userId))) return null;
    return known;
  });
  if (session === null) throw refreshFailed();
  const binding = session.origin === null ? null : { origin: session.origin, consentId: session.consentId };
  return { accessToken: await issueAccessToken(ctx, session.userId, session.familyId, binding), refreshToken: successor, familyId: session.familyId, origin: session.origin };
}

const successorKeys = new WeakMap<AppContext['config'], Buffer>();
function successorKeyOf(ctx: AppContext): Buffer {
  let key = successorKeys.get(ctx.config);
  if (key === undefined) {
    key = successorKey(ctx.config.jwtSecret);
    successorKeys.set(ctx.config, key);
  }
  return key;
}

async function revokeFamily(db: AppContext['db'], familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Logout: the family of the presented token ends. Unknown tokens are no error (already out). */
export async function logout(ctx: AppContext, token: string): Promise<void> {
  const [row] = await ctx.db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash(token)))
    .limit(1);
  if (row === undefined) return;
  await revokeFamily(ctx.db, row.familyId);
  // The browser of this session stops getting the account's pushes.
  await forgetSessionDevices(ctx, [row.familyId]);
}

/**
 * Ends every session of the user: access tokens issued until now stop working and every
 * refresh family but `keepFamilyId` (the session that changed the password) is revoked.
 */
export async function revokeSessions(ctx: AppContext, userId: number, keepFamilyId?: string): Promise<void> {
  const now = new Date();
  await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keepFamilyId === undefined ? undefined : sql`${refreshTokens.familyId} <> ${keepFamilyId}`,
      ),
    );
  // The kept session's access token ends too; its client refreshes once and carries on.
  await ctx.db.update(users).set({ tokensValidAfter: now }).where(eq(users.id, userId));
  forgetHeldAccounts(ctx);
  await forgetUserDevices(ctx, userId, keepFamilyId);
}

/** Rows kept a day past their use, for looking into abuse, then deleted. */
const keepAfterUseMs = 24 * 60 * 60_000;

/**
 * Deletes sign-in attempts older than the throttle looks at (plus a day), and refresh and action
 * tokens a day past their expiry, so the tables stay the size of the active sessions.
 */
export async function pruneExpired(ctx: AppContext, now = Date.now()): Promise<void> {
  const before = new Date(now - keepAfterUseMs);
  const longest = Math.max(signInThrottle.pair.windowMs, signInThrottle.requester.windowMs);
  await ctx.db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(now - longest - keepAfterUseMs)));
  await ctx.db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, before));
  await ctx.db.delete(actionTokens).where(lt(actionTokens.expiresAt, before));
  await pruneThrottleEvents(ctx, now);
}

import { hash as argonHash } from '@node-rs/argon2';
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { actionTokens, embedConsents, embedOrigins, loginAttempts, refreshTokens, spends, users } from '../../db/schema';
import { startOfUtcMonth } from '../../ledger/spend-guard';
import type { EmbedConsent } from '../../../../lib/contract/auth';
import { AppError } from '../../errors';
import { pruneThrottleEvents } from '../../http/throttle';
import { mailerOf } from '../../mail';
import { isPlatformOrigin } from '../../http/origins';
import { isValidEmail } from '../settings/domain';
import { createInviteService } from '../invites/service';
import { forgetHeldAccounts, issueAccessToken, type WidgetBinding } from './guard';
import { hashPassword, passwordHashing, verifyPasswordHash, type HashingTicket } from './hashing';
import { forgetSessionDevices, forgetUserDevices } from '../push/service';
import {
  actionTokenMs,
  deviceKey,
  deviceOf,
  heldUntil,
  normalizeEmail,
  originOf,
  passwordHashOptions,
  passwordLength,
  randomToken,
  refreshGraceMs,
  refreshTokenMs,
  requesterOf,
  resendWindowMs,
  signInThrottle,
  successorKey,
  successorToken,
  tokenHash,
  usernameBase,
  usernameCandidates,
  type ActionPurpose,
} from './domain';

export { hashPassword };

// Spent on logins for unknown e-mails so they take as long as a wrong password.
let dummyHash: Promise<string> | undefined;

/** A password against its stored hash, in the hashing pool's turn (`ticket`, or a place of its own). */
async function verifyPassword(stored: string | null, password: string, ticket?: HashingTicket): Promise<boolean> {
  if (stored === null) {
    dummyHash ??= argonHash(randomToken(), passwordHashOptions);
    const hashed = await dummyHash;
    await verifyPasswordHash(hashed, password, ticket);
    return false;
  }
  return verifyPasswordHash(stored, password, ticket);
}

function checkPassword(password: string): void {
  if (password.length < passwordLength.min || password.length > passwordLength.max) throw new AppError('weak-password');
}

function isUniqueViolation(error: unknown): boolean {
  // Drivers and drizzle wrap the database's error; its SQLSTATE sits somewhere down the causes.
  let e: unknown = error;
  for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

export interface NewAccount {
  email: string;
  password: string;
  username?: string;
  language?: string;
  verified?: boolean;
  level?: number;
  seller?: boolean;
}

/**
 * Creates an account with a hashed password. Without a username one is derived from the
 * e-mail (SPEC §5 signup): the local part, then with a number until a free one is found.
 */
export async function createAccount(ctx: AppContext, input: NewAccount): Promise<{ id: number; username: string; email: string }> {
  const email = input.email.trim();
  if (!isValidEmail(email)) throw new AppError('invalid-email');
  checkPassword(input.password);
  const [taken] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`)
    .limit(1);
  if (taken !== undefined) throw new AppError('email-taken', { statusCode: -2 });
  const passwordHash = await hashPassword(input.password);
  const candidates = input.username === undefined ? usernameCandidates(usernameBase(email)) : [input.username];
  const language = input.language?.toLowerCase().startsWith('cs') ? 'cs' : 'en';
  for (const username of candidates) {
    try {
      const [row] = await ctx.db
        .insert(users)
        .values({
          username,
          displayName: username,
          email,
          passwordHash,
          emailVerified: input.verified ?? false,
          level: input.level ?? 0,
          isSeller: input.seller ?? false,
          appLanguage: language,
        })
        .returning({ id: users.id });
      if (row !== undefined) return { id: row.id, username, email };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Someone registered the same e-mail a moment ago, or the name is taken: try the next name.
      const [again] = await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`)
        .limit(1);
      if (again !== undefined) throw new AppError('email-taken', { statusCode: -2 });
    }
  }
  throw new AppError('username-taken', { statusCode: -5 });
}

/**
 * POST /papi/signup: the account plus its verification mail, and who invited it when `affCode`
 * is a known invite code of someone else (anything else is ignored, never a failed sign-up).
 */
export async function signup(ctx: AppContext, input: { email: string; password: string; language?: string; affCode?: string }): Promise<{ id: number }> {
  const account = await createAccount(ctx, { email: input.email, password: input.password, language: input.language });
  if (input.affCode) await createInviteService(ctx).accept(account.id, input.affCode);
  await sendVerificationMail(ctx, account.id);
  return { id: account.id };
}

// ---- one-time tokens ----

async function createActionToken(ctx: AppContext, userId: number, purpose: ActionPurpose, payload?: Record<string, unknown>): Promise<string> {
  const token = randomToken();
  await ctx.db.insert(actionTokens).values({
    userId,
    purpose,
    tokenHash: tokenHash(token),
    payload: payload ?? null,
    expiresAt: new Date(Date.now() + actionTokenMs[purpose]),
  });
  return token;
}

/**
 * Marks the token used and answers its row, in one statement so two requests racing with the
 * same token cannot both win. Null when it is unknown, used, expired or for another purpose.
 */
async function consumeActionToken(ctx: AppContext, token: string, purposes: readonly ActionPurpose[]) {
  const [row] = await ctx.db
    .update(actionTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(actionTokens.tokenHash, tokenHash(token)),
        inArray(actionTokens.purpose, [...purposes]),
        isNull(actionTokens.usedAt),
        gt(actionTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: actionTokens.userId, purpose: actionTokens.purpose, payload: actionTokens.payload });
  return row ?? null;
}

async function mailTarget(ctx: AppContext, userId: number) {
  const [user] = await ctx.db
    .select({ email: users.email, displayName: users.displayName, appLanguage: users.appLanguage, emailVerified: users.emailVerified })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  return user ?? null;
}

export async function sendVerificationMail(ctx: AppContext, userId: number): Promise<void> {
  const user = await mailTarget(ctx, userId);
  if (user === null || user.email === null) return;
  const token = await createActionToken(ctx, userId, 'verify-email');
  await mailerOf(ctx).send({
    to: user.email,
    template: 'verify-email',
    language: user.appLanguage,
    values: { name: user.displayName, link: `${ctx.config.publicUrl}/action/${token}` },
  });
}

/** POST /api/users/resend-verification: one resend a day. */
export async function resendVerification(ctx: AppContext, userId: number): Promise<void> {
  const user = await mailTarget(ctx, userId);
  if (user === null) throw new AppError('unauthorized');
  if (user.emailVerified) throw new AppError('already-verified');
  const sent = await ctx.db
    .select({ createdAt: actionTokens.createdAt })
    .from(actionTokens)
    .where(and(eq(actionTokens.userId, userId), eq(actionTokens.purpose, 'verify-email')))
    .orderBy(asc(actionTokens.createdAt), asc(actionTokens.id));
  // The first mail is the signup's; every later one was a resend.
  const since = Date.now() - resendWindowMs;
  if (sent.slice(1).some((mail) => mail.createdAt.getTime() > since)) throw new AppError('too-many-requests');
  await sendVerificationMail(ctx, userId);
}

/** POST /papi/action/jwt: what a mailed `/action/{hash}` link does. */
export async function confirmAction(ctx: AppContext, token: string): Promise<{ action: string }> {
  const row = await consumeActionToken(ctx, token, ['verify-email']);
  if (row === null) throw new AppError('link-expired');
  await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, row.userId));
  return { action: 'verify-email' };
}

/** POST /papi/login/reset {email}: mails a link when the account exists, and says nothing either way. */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email, displayName: users.displayName, appLanguage: users.appLanguage })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${normalizeEmail(email)}`, isNull(users.deletedAt), isNull(users.bannedAt)))
    .limit(1);
  if (user === undefined || user.email === null) return;
  const token = await createActionToken(ctx, user.id, 'reset-password');
  await mailerOf(ctx).send({
    to: user.email,
    template: 'reset-password',
    language: user.appLanguage,
    values: { name: user.displayName, link: `${ctx.config.publicUrl}/reset-password/${token}` },
  });
}

/** POST /papi/login/reset {hash, password}: the new password, and every session ends. */
export async function resetPassword(ctx: AppContext, token: string, password: string): Promise<void> {
  checkPassword(password);
  const row = await consumeActionToken(ctx, token, ['reset-password']);
  if (row === null) throw new AppError('link-expired');
  const passwordHash = await hashPassword(password);
  // The link reached the mailbox, so the address is proven as well.
  await ctx.db.update(users).set({ passwordHash, emailVerified: true }).where(eq(users.id, row.userId));
  await revokeSessions(ctx, row.userId);
}

// ---- sessions ----

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

/**
 * A password change (PUT /api/users/me): checks the current password and revokes every other
 * session. `keepFamilyId` is the refresh family of the session making the change (from
 * `sessionFamilyOf(request)`, null for clients without one); every access token issued so far
 * stops working, so that session refreshes once.
 */
export async function changePassword(ctx: AppContext, userId: number, current: string, next: string, keepFamilyId?: string | null): Promise<void> {
  checkPassword(next);
  const [user] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (user === undefined) throw new AppError('unauthorized');
  if (!(await verifyPassword(user.passwordHash, current))) throw new AppError('wrong-password');
  await ctx.db.update(users).set({ passwordHash: await hashPassword(next) }).where(eq(users.id, userId));
  await revokeSessions(ctx, userId, keepFamilyId ?? undefined);
  // The other devices' sockets are told and closed; the session that made the change keeps its own.
  ctx.realtime.logout(userId, 'disconnected-password', keepFamilyId);
}

/** The account's password confirms a sensitive change (e-mail, deletion): wrong-password otherwise. */
export async function confirmPassword(ctx: AppContext, userId: number, password: string): Promise<void> {
  const [user] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  if (user === undefined) throw new AppError('unauthorized');
  if (!(await verifyPassword(user.passwordHash, password))) throw new AppError('wrong-password');
}

/**
 * A new e-mail address (PUT /api/users/me with `email` and `currentPassword`; the caller has
 * confirmed the password and the address's form). The account is unverified until the link
 * mailed to the new address is opened; links mailed before, to the old address, stop working,
 * so they cannot verify an address they never reached. The same address in other letter case
 * is only a respelling and keeps the verification.
 */
export async function changeEmail(ctx: AppContext, userId: number, email: string): Promise<boolean> {
  const [current] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  if (current === undefined) throw new AppError('unauthorized');
  if (current.email === email) return false;
  const respelled = current.email !== null && normalizeEmail(current.email) === normalizeEmail(email);
  if (!respelled) {
    const [holder] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`)
      .limit(1);
    if (holder !== undefined && holder.id !== userId) throw new AppError('email-taken');
  }
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.update(users).set(respelled ? { email } : { email, emailVerified: false }).where(eq(users.id, userId));
      if (!respelled) {
        await tx
          .update(actionTokens)
          .set({ usedAt: new Date() })
          .where(and(eq(actionTokens.userId, userId), eq(actionTokens.purpose, 'verify-email'), isNull(actionTokens.usedAt)));
      }
    });
  } catch (error) {
    // Someone took the address a moment ago: the unique index decides.
    if (isUniqueViolation(error)) throw new AppError('email-taken');
    throw error;
  }
  if (!respelled) await sendVerificationMail(ctx, userId);
  return !respelled;
}

/** SPEC §6: an admin blocks an account; it is logged out everywhere and cannot log in. */
export async function banUser(ctx: AppContext, userId: number): Promise<void> {
  const [row] = await ctx.db
    .update(users)
    .set({ bannedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .returning({ id: users.id });
  if (row === undefined) throw new AppError('user-not-found');
  await revokeSessions(ctx, userId);
  ctx.realtime.logout(userId, 'admin-blocked');
}

// ---- embed sign-in ----

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
export async function exchangeEmbedCode(ctx: AppContext, code: string, origin: string, userAgent?: string): Promise<Session> {
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
  return startSession(ctx, row.userId, userAgent, { origin, consentId });
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

// ---- housekeeping ----

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

/**
 * Mailed actions: the one-time tokens behind the links the platform mails (verifying an
 * address, resetting a password) and the routes that send and redeem them. The embed sign-in's
 * one-time codes (./consents.ts) are tokens of the same table.
 */
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { actionTokens, users } from '../../db/schema';
import { AppError } from '../../errors';
import { mailerOf } from '../../mail';
import { hashPassword } from './hashing';
import { actionTokenMs, normalizeEmail, randomToken, resendWindowMs, tokenHash, type ActionPurpose } from './domain';
import { checkPassword } from './passwords';
import { revokeSessions } from './sessions';

export async function createActionToken(ctx: AppContext, userId: number, purpose: ActionPurpose, payload?: Record<string, unknown>): Promise<string> {
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
export async function consumeActionToken(ctx: AppContext, token: string, purposes: readonly ActionPurpose[]) {
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

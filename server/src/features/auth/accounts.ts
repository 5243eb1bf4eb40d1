/**
 * Accounts: creating one (the sign-up, with its verification mail and inviter), and what the
 * account's owner or an administrator changes on it later — the password, the e-mail address,
 * a block. A change that ends sessions does so through ./sessions.ts.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { actionTokens, users } from '../../db/schema';
import { AppError } from '../../errors';
import { isValidEmail } from '../settings/domain';
import { createInviteService } from '../invites/service';
import { hashPassword } from './hashing';
import { normalizeEmail, usernameBase, usernameCandidates } from './domain';
import { checkPassword, verifyPassword } from './passwords';
import { sendVerificationMail } from './actions';
import { revokeSessions } from './sessions';

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

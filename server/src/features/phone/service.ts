import { and, desc, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { phoneCodes, users } from '../../db/schema';
import { AppError } from '../../errors';
import { hit } from '../../http/throttle';
import { smsSenderOf } from '../../sms';
import { checkPhoneCode, newPhoneCode, normalisePhone, phoneCodeHash, phoneCodeRules, phoneCodeText } from './domain';

/**
 * GET /api/sms/send-verification-code: a new code to the number, by the configured SMS
 * provider. Earlier open codes of the account end, so only the newest SMS counts.
 */
export async function sendPhoneCode(ctx: AppContext, userId: number, input: string): Promise<{ phone: string; expiresInSeconds: number }> {
  const phone = normalisePhone(input);
  if (phone === null) throw new AppError('invalid-phone');
  const [user] = await ctx.db
    .select({ appLanguage: users.appLanguage })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  if (user === undefined) throw new AppError('unauthorized');
  await hit(ctx, 'sms-code-user', String(userId));
  await hit(ctx, 'sms-code-phone', phone);
  const code = newPhoneCode();
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(phoneCodes)
      .set({ usedAt: now })
      .where(and(eq(phoneCodes.userId, userId), isNull(phoneCodes.usedAt)));
    await tx.insert(phoneCodes).values({
      userId,
      phone,
      codeHash: phoneCodeHash(userId, phone, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + phoneCodeRules.ttlMs),
    });
  });
  await smsSenderOf(ctx).send({ to: phone, text: phoneCodeText(code, user.appLanguage) });
  return { phone, expiresInSeconds: phoneCodeRules.ttlMs / 1000 };
}

/**
 * POST /api/users/verify-phone: the newest code of the account proves its number. A wrong
 * code counts against the code (its last allowed miss ends it); the count is written before
 * the answer, under a row lock, so parallel guesses cannot share one attempt.
 */
export async function verifyPhone(ctx: AppContext, userId: number, code: string): Promise<void> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const [row] = await tx
      .select({ id: phoneCodes.id, userId: phoneCodes.userId, phone: phoneCodes.phone, codeHash: phoneCodes.codeHash, attempts: phoneCodes.attempts, expiresAt: phoneCodes.expiresAt })
      .from(phoneCodes)
      .where(and(eq(phoneCodes.userId, userId), isNull(phoneCodes.usedAt)))
      .orderBy(desc(phoneCodes.createdAt), desc(phoneCodes.id))
      .limit(1)
      .for('update');
    const check = checkPhoneCode(row, code, now);
    if (row === undefined) return { check, attemptsLeft: 0 };
    if (check.result === 'verified') {
      await tx.update(phoneCodes).set({ usedAt: now }).where(eq(phoneCodes.id, row.id));
      await tx.update(users).set({ phone: check.phone, phoneVerified: true }).where(eq(users.id, userId));
    } else if (check.result === 'wrong') {
      await tx.update(phoneCodes).set({ attempts: row.attempts + 1 }).where(eq(phoneCodes.id, row.id));
    } else {
      // Expired, or out of guesses: the code is spent; a new SMS is the way on.
      await tx.update(phoneCodes).set({ usedAt: now, attempts: Math.min(row.attempts + 1, phoneCodeRules.maxAttempts) }).where(eq(phoneCodes.id, row.id));
    }
    return { check, attemptsLeft: phoneCodeRules.maxAttempts - row.attempts - 1 };
  });
  const { result } = outcome.check;
  if (result === 'wrong') throw new AppError('phone-code-wrong', { body: { attemptsLeft: outcome.attemptsLeft } });
  if (result === 'expired') throw new AppError('phone-code-expired');
  if (result === 'attempts') throw new AppError('phone-code-attempts');
}

import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { badgeType, type BadgeAnswer } from '../../../../lib/contract/badge';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { parseUserRef } from '../users/domain';
import { BADGE_TTL_SECONDS, badgeIssuable } from './domain';
import { signingKey } from './keys';

const subjectColumns = {
  username: users.username,
  hasBadge: users.hasBadge,
  badgeVerifiedState: users.badgeVerifiedState,
  isPartner: users.isPartner,
  bannedAt: users.bannedAt,
  deletedAt: users.deletedAt,
};

/**
 * The verified badge of a person (by username in any case, or id), signed now and valid for
 * BADGE_TTL_SECONDS. Read from the account itself, not the profile cache: a revocation stops
 * the next badge at once, and the ones already out expire. `badge-not-issued` for a person the
 * platform does not vouch for; `user-not-found` for nobody.
 */
export async function issueBadge(ctx: AppContext, ref: string): Promise<BadgeAnswer> {
  const parsed = parseUserRef(ref);
  if (parsed === null) throw new AppError('user-not-found');
  const [subject] = await ctx.db
    .select(subjectColumns)
    .from(users)
    .where('id' in parsed ? eq(users.id, parsed.id) : sql`lower(${users.username}) = lower(${parsed.username})`)
    .limit(1);
  if (subject === undefined || subject.deletedAt !== null) throw new AppError('user-not-found');
  if (!badgeIssuable(subject)) throw new AppError('badge-not-issued');
  const key = await signingKey(ctx);
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  const exp = now + BADGE_TTL_SECONDS;
  const token = await new SignJWT({ verified: true, partner: subject.isPartner })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: badgeType })
    .setIssuer(ctx.config.publicUrl)
    .setSubject(subject.username)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .sign(key.key);
  return { token, expiresAt: exp * 1000 };
}

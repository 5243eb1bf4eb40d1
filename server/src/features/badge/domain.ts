import type { BadgeJwk } from '../../../../lib/contract/badge';

export type PublicBadgeJwk = BadgeJwk;

/** How long a badge verifies: a revoked badge stops verifying at most this long after the revocation. */
export const BADGE_TTL_SECONDS = 600;
/** How long a browser or CDN may keep the key set. */
export const JWKS_MAX_AGE_SECONDS = 3600;
/** A signing key signs this long before a new one takes over. */
export const BADGE_KEY_ROTATION_MS = 30 * 24 * 3600_000;
/**
 * A replaced key stays published this long: past the last badge it signed and past every copy
 * of the key set cached before the new key was in it.
 */
export const BADGE_KEY_GRACE_MS = 24 * 3600_000;

/** The account fields a badge is decided from. */
export interface BadgeSubject {
  username: string;
  hasBadge: boolean;
  badgeVerifiedState: number;
  isPartner: boolean;
  bannedAt: Date | null;
  deletedAt: Date | null;
}

/**
 * Whether the platform vouches for this person now: the same rule that puts the badge on a
 * profile (a badge shown, or an identity verified), and never for a banned or deleted account.
 * An administrator's revocation (hasBadge false, badgeVerifiedState 0) ends it.
 */
export function badgeIssuable(subject: BadgeSubject): boolean {
  if (subject.bannedAt !== null || subject.deletedAt !== null) return false;
  return subject.hasBadge || subject.badgeVerifiedState === 3;
}

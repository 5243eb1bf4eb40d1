import type { PublicProfile } from '../../../../lib/contract/users';

/** Largest value of the `integer` id column. */
const maxId = 2_147_483_647;

/**
 * `/papi/users/{id}` takes a numeric id or a username. Usernames always hold a letter
 * (UsernamePattern), so an all-digit reference is unambiguously an id.
 */
export function parseUserRef(ref: string): { id: number } | { username: string } | null {
  if (/^\d{1,10}$/.test(ref)) {
    const id = Number(ref);
    return id >= 1 && id <= maxId ? { id } : null;
  }
  if (/^[A-Za-z0-9._]{1,64}$/.test(ref)) return { username: ref };
  return null;
}

/** A user counts as online when seen in the last five minutes (heartbeats come every 50 s). */
export const onlineWindowMs = 5 * 60_000;

export function isOnline(lastSeenAt: Date | null, now: number): boolean {
  return lastSeenAt !== null && now - lastSeenAt.getTime() < onlineWindowMs;
}

export interface ProfileRow {
  id: number;
  username: string;
  displayName: string;
  bio: string;
  level: number;
  hasBadge: boolean;
  badgeVerifiedState: number;
  isPartner: boolean;
  isSeller: boolean;
  messagePrice: number;
  callPrice: number;
  gender: number;
  followersCount: number;
  postsCount: number;
  offersSubscriptions: boolean;
  lastSeenAt: Date | null;
  avatarHash: string | null;
  avatarFormat: string | null;
}

export function toPublicProfile(row: ProfileRow, now: number): PublicProfile {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    bio: row.bio,
    avatarMedia: row.avatarHash !== null && row.avatarFormat !== null ? { mediaHash: row.avatarHash, format: row.avatarFormat } : null,
    level: row.level,
    hasBadge: row.hasBadge,
    badgeVerifiedState: row.badgeVerifiedState,
    online: isOnline(row.lastSeenAt, now),
    followersCount: row.followersCount,
    postsCount: row.postsCount,
    isPartner: row.isPartner,
    isSeller: row.isSeller,
    messagePrice: row.messagePrice,
    callPrice: row.callPrice,
    gender: row.gender,
    offersSubscriptions: row.offersSubscriptions,
  };
}

/**
 * How long a public profile may be answered from memory. Short enough that counts and
 * prices look live; long enough to spare the database when one profile is suddenly popular.
 */
export const profileCacheTtlMs = 2_000;

export const whoToFollowDefaults = { limit: 10, maxLimit: 30 } as const;

import { and, asc, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { PublicProfile } from '../../../../lib/contract/users';
import type { AppContext } from '../../context';
import { media, users } from '../../db/schema';
import { errors } from '../../errors';
import { TtlCache } from '../../http/ttl-cache';
import { parseUserRef, profileCacheTtlMs, toPublicProfile, type ProfileRow } from './domain';

const profileColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  bio: users.bio,
  level: users.level,
  hasBadge: users.hasBadge,
  badgeVerifiedState: users.badgeVerifiedState,
  isPartner: users.isPartner,
  isSeller: users.isSeller,
  messagePrice: users.messagePrice,
  callPrice: users.callPrice,
  gender: users.gender,
  followersCount: users.followersCount,
  postsCount: users.postsCount,
  offersSubscriptions: users.offersSubscriptions,
  lastSeenAt: users.lastSeenAt,
  avatarHash: media.hash,
  avatarFormat: media.format,
};

/** Creators a visitor may follow: sellers and partners, not staff accounts, not deleted. */
const isFollowableCreator = and(or(eq(users.isSeller, true), eq(users.isPartner, true)), lt(users.level, 100), isNull(users.deletedAt));

export function createUserService(ctx: AppContext) {
  const { db } = ctx;
  // Prepared once: the profile lookup is the hottest public read.
  const base = () =>
    db
      .select(profileColumns)
      .from(users)
      .leftJoin(media, eq(media.id, users.avatarMediaId));
  const byId = base()
    .where(and(eq(users.id, sql.placeholder('id')), isNull(users.deletedAt)))
    .limit(1)
    .prepare('user_profile_by_id');
  const byUsername = base()
    .where(and(sql`lower(${users.username}) = lower(${sql.placeholder('username')})`, isNull(users.deletedAt)))
    .limit(1)
    .prepare('user_profile_by_username');
  const popular = base()
    .where(isFollowableCreator)
    .orderBy(desc(users.followersCount), asc(users.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('who_to_follow_popular');
  // md5 of id and seed gives every seed its own stable shuffle, so paging with one seed
  // never repeats or skips a creator, while different visitors see different orders.
  const shuffled = base()
    .where(isFollowableCreator)
    .orderBy(sql`md5(${users.id}::text || ':' || ${sql.placeholder('seed')}::text)`, asc(users.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('who_to_follow_shuffled');
  const usernameTaken = db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${sql.placeholder('username')})`)
    .limit(1)
    .prepare('username_taken');
  const emailTaken = db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${sql.placeholder('email')})`)
    .limit(1)
    .prepare('email_taken');

  // Rows, not answers, are cached: `online` is worked out from lastSeenAt at every read.
  // Only found profiles are kept, so made-up names cannot fill the cache.
  const profiles = new TtlCache<string, ProfileRow>(profileCacheTtlMs, 10_000);

  return {
    async profile(ref: string): Promise<PublicProfile> {
      const key = ref.toLowerCase();
      let row = profiles.get(key);
      if (row === undefined) {
        const parsed = parseUserRef(ref);
        if (parsed === null) throw errors.userNotFound();
        const rows: ProfileRow[] = 'id' in parsed ? await byId.execute({ id: parsed.id }) : await byUsername.execute({ username: parsed.username });
        row = rows[0];
        if (row === undefined) throw errors.userNotFound();
        profiles.set(key, row);
      }
      return toPublicProfile(row, Date.now());
    },

    /** Call after changing a user, so this node answers the change at once. */
    forget(userId: number): void {
      profiles.deleteWhere((row) => row.id === userId);
    },

    async whoToFollow(query: { limit: number; offset: number; seed: number | undefined }): Promise<PublicProfile[]> {
      const rows: ProfileRow[] =
        query.seed === undefined
          ? await popular.execute({ limit: query.limit, offset: query.offset })
          : await shuffled.execute({ limit: query.limit, offset: query.offset, seed: query.seed });
      const now = Date.now();
      return rows.map((row) => toPublicProfile(row, now));
    },

    async isUsernameTaken(username: string): Promise<boolean> {
      return (await usernameTaken.execute({ username })).length > 0;
    },

    async isEmailTaken(email: string): Promise<boolean> {
      return (await emailTaken.execute({ email })).length > 0;
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;

import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { PublicProfile } from '../../../../lib/contract/users';
import type { AppContext } from '../../context';
import type { Account, DeleteMeBody, UpdateMeBody, ViewedProfile } from '../../../../lib/contract/account';
import type { Database } from '../../db';
import { blocks, embedOrigins, follows, hiddenUsers, media, pushDevices, refreshTokens, users } from '../../db/schema';
import { actionTokens, comments, deletionSurveys, embedConsents, phoneCodes, posts, subscriptions } from '../../db/schema';
import { SubscriptionStatus } from '../../../../lib/contract/constants';
import { AppError, errors } from '../../errors';
import { renderUploadedAvatar, storeRendered } from '../../media/images';
import { changeEmail, changePassword, confirmPassword } from '../auth/service';
import { TtlCache } from '../../http/ttl-cache';
import { mayListEmbedOrigins, parseUserRef, planProfileUpdate, profileCacheTtlMs, toAccount, toPublicProfile, toViewedProfile, type ProfileRow, type UpdateProblem } from './domain';

export const profileColumns = {
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

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Lowers the followers count of each user by one per entry, never below zero. */
export async function decrementFollowers(tx: Transaction | Database, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    await tx
      .update(users)
      .set({ followersCount: sql`greatest(${users.followersCount} - 1, 0)` })
      .where(eq(users.id, id));
  }
}

function isUniqueViolation(error: unknown): boolean {
  // Drizzle wraps the driver's error; the SQLSTATE sits on it or on its cause.
  let e: unknown = error;
  for (let depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function problemError(problem: UpdateProblem): AppError {
  switch (problem.key) {
    case 'verify-required':
      // SPEC §7: -2 means the account must be verified (become a seller) first.
      return new AppError('verify-required', { statusCode: -2, body: { field: problem.field } });
    case 'invalid-request':
      return new AppError('invalid-request', { body: { location: 'body', field: problem.field, reason: problem.reason } });
    default:
      return new AppError(problem.key);
  }
}

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

  async function profileRow(ref: string): Promise<ProfileRow> {
    const key = ref.toLowerCase();
    let row = profiles.get(key);
    if (row === undefined) {
      const parsed = parseUserRef(ref);
      if (parsed === null) throw errors.userNotFound();
      // A follow or a block committed while this read was on its way forgets the profile: then
      // what this read found is not kept (a follower count one behind for the cache's lifetime).
      const mark = profiles.mark();
      const rows: ProfileRow[] = 'id' in parsed ? await byId.execute({ id: parsed.id }) : await byUsername.execute({ username: parsed.username });
      row = rows[0];
      if (row === undefined) throw errors.userNotFound();
      profiles.set(key, row, mark);
    }
    return row;
  }

  // Relations are per viewer, so they are read fresh every time and never cached.
  const relationOf = db
    .select({
      isFollowed: sql<boolean>`exists(select 1 from ${follows} where ${follows.followerId} = ${sql.placeholder('viewer')} and ${follows.followedId} = ${users.id})`,
      blockedByMe: sql<boolean>`exists(select 1 from ${blocks} where ${blocks.blockerId} = ${sql.placeholder('viewer')} and ${blocks.blockedId} = ${users.id})`,
      blockedMe: sql<boolean>`exists(select 1 from ${blocks} where ${blocks.blockerId} = ${users.id} and ${blocks.blockedId} = ${sql.placeholder('viewer')})`,
      isHidden: sql<boolean>`exists(select 1 from ${hiddenUsers} where ${hiddenUsers.userId} = ${sql.placeholder('viewer')} and ${hiddenUsers.hiddenId} = ${users.id})`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('target')))
    .prepare('user_relation_to_viewer');

  const accountById = db
    .select({
      ...profileColumns,
      email: users.email,
      emailVerified: users.emailVerified,
      phoneVerified: users.phoneVerified,
      approvedState: users.approvedState,
      sexuality: users.sexuality,
      birthday: users.birthday,
      appLanguage: users.appLanguage,
      nsfwAgreement: users.nsfwAgreement,
      notificationSound: users.notificationSound,
      isPushRegistered: sql<boolean>`exists (select 1 from ${pushDevices} where ${pushDevices.userId} = ${users.id})`,
    })
    .from(users)
    .leftJoin(media, eq(media.id, users.avatarMediaId))
    .where(and(eq(users.id, sql.placeholder('id')), isNull(users.deletedAt)))
    .limit(1)
    .prepare('user_account_by_id');
  const originsOf = db
    .select({ origin: embedOrigins.origin })
    .from(embedOrigins)
    .where(eq(embedOrigins.userId, sql.placeholder('id')))
    .orderBy(asc(embedOrigins.origin))
    .prepare('user_embed_origins');

  return {
    async profile(ref: string): Promise<PublicProfile> {
      return toPublicProfile(await profileRow(ref), Date.now());
    },

    /**
     * A profile as the viewer sees it. Someone who blocked the viewer has vanished for them
     * (user-not-found); the viewer still sees whom they blocked, so they can unblock — even
     * when the block is mutual.
     */
    async viewedProfile(ref: string, viewerId: number): Promise<ViewedProfile> {
      const row = await profileRow(ref);
      const [relation] = await relationOf.execute({ viewer: viewerId, target: row.id });
      if (relation === undefined || (relation.blockedMe && !relation.blockedByMe)) throw errors.userNotFound();
      return toViewedProfile(toPublicProfile(row, Date.now()), relation);
    },

    async account(userId: number): Promise<Account> {
      const [row] = await accountById.execute({ id: userId });
      if (row === undefined) throw errors.userNotFound();
      const origins = await originsOf.execute({ id: userId });
      return toAccount(row, origins.map((o) => o.origin), Date.now());
    },

    /**
     * Applies a profile edit. Every field is checked before anything is written, so a
     * request with one bad field changes nothing.
     */
    async updateMe(userId: number, body: UpdateMeBody, keepFamilyId: string | null = null): Promise<Account> {
      const [current] = await db
        .select({ isSeller: users.isSeller, level: users.level })
        .from(users)
        .where(and(eq(users.id, userId), isNull(users.deletedAt)))
        .limit(1);
      if (current === undefined) throw errors.userNotFound();
      const plan = planProfileUpdate(body, { isSeller: current.isSeller, today: new Date() });
      if ('problem' in plan) throw problemError(plan.problem);
      const { changes, embedOrigins: origins, password } = plan;
      // Listing a site puts the creator's name on the sign-in popup of that site: approved
      // creators and administrators only. Anyone may clear a list.
      if (origins !== undefined && origins.length > 0 && !mayListEmbedOrigins(current)) throw new AppError('embed-origins-not-allowed');
      if (changes.username !== undefined) {
        const [holder] = await usernameTaken.execute({ username: changes.username });
        if (holder !== undefined && holder.id !== userId) throw new AppError('username-taken');
      }
      if (plan.email !== undefined) {
        await confirmPassword(ctx, userId, plan.email.password);
        const [holder] = await emailTaken.execute({ email: plan.email.address });
        if (holder !== undefined && holder.id !== userId) throw new AppError('email-taken');
      }
      if (password !== undefined) await changePassword(ctx, userId, password.current, password.next, keepFamilyId);
      try {
        await db.transaction(async (tx) => {
          if (Object.keys(changes).length > 0) await tx.update(users).set(changes).where(eq(users.id, userId));
          if (origins !== undefined) {
            await tx.delete(embedOrigins).where(eq(embedOrigins.userId, userId));
            if (origins.length > 0) await tx.insert(embedOrigins).values(origins.map((origin) => ({ userId, origin })));
          }
        });
      } catch (error) {
        // Two people taking the same free username at once: the unique index decides.
        if (isUniqueViolation(error)) throw new AppError('username-taken');
        throw error;
      }
      if (plan.email !== undefined) await changeEmail(ctx, userId, plan.email.address);
      profiles.deleteWhere((row) => row.id === userId);
      return this.account(userId);
    },

    /**
     * Deletes the account, confirmed by its password, with the survey's answer kept (reason and
     * text, in deletion_surveys). The row stays, anonymised: payments, ledger entries and the
     * other side's chat history refer to it, and the ledger must still add up, so no money row
     * is touched (a wallet's credits stay booked to it). What identified the person goes: e-mail,
     * phone, password, name, bio, picture, birthday; the username becomes `deleted-{id}`. Posts
     * and comments vanish for everyone, subscriptions stop renewing, every session ends and the
     * person leaves everyone's follow and block lists.
     */
    async deleteMe(userId: number, body: DeleteMeBody): Promise<void> {
      await confirmPassword(ctx, userId, body.password);
      const touched = await db.transaction(async (tx) => {
        const now = new Date();
        const [deleted] = await tx
          .update(users)
          .set({
            deletedAt: now,
            deleteReason: body.deleteReason,
            tokensValidAfter: now,
            username: `deleted-${userId}`,
            displayName: 'Deleted user',
            bio: '',
            email: null,
            emailVerified: false,
            phone: null,
            phoneVerified: false,
            passwordHash: null,
            avatarMediaId: null,
            birthday: null,
            languages: [],
            offersSubscriptions: false,
            inviteCode: null,
          })
          .where(and(eq(users.id, userId), isNull(users.deletedAt)))
          .returning({ id: users.id });
        if (deleted === undefined) throw errors.userNotFound();
        await tx.insert(deletionSurveys).values({ userId, reason: body.deleteReason, text: body.text?.trim() ?? '', createdAt: now });
        await tx.update(posts).set({ deletedAt: now }).where(and(eq(posts.userId, userId), isNull(posts.deletedAt)));
        await tx.update(comments).set({ deletedAt: now }).where(and(eq(comments.userId, userId), isNull(comments.deletedAt)));
        // Paid periods run out as they are; nothing renews, and unpaid ones end now.
        await tx
          .update(subscriptions)
          .set({ status: SubscriptionStatus.cancelled, updatedAt: now })
          .where(and(eq(subscriptions.subscriberId, userId), inArray(subscriptions.status, [SubscriptionStatus.active, SubscriptionStatus.paymentFailed])));
        await tx
          .update(subscriptions)
          .set({ status: SubscriptionStatus.expired, updatedAt: now })
          .where(and(eq(subscriptions.subscriberId, userId), inArray(subscriptions.status, [SubscriptionStatus.waitingPayment, SubscriptionStatus.processing])));
        await tx.delete(embedOrigins).where(eq(embedOrigins.userId, userId));
        await tx.delete(embedConsents).where(eq(embedConsents.userId, userId));
        await tx.delete(actionTokens).where(eq(actionTokens.userId, userId));
        await tx.delete(phoneCodes).where(eq(phoneCodes.userId, userId));
        await tx.update(refreshTokens).set({ revokedAt: now }).where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
        const followed = await tx.delete(follows).where(eq(follows.followerId, userId)).returning({ id: follows.followedId });
        await decrementFollowers(tx, followed.map((f) => f.id));
        await tx.delete(follows).where(eq(follows.followedId, userId));
        await tx.update(users).set({ followersCount: 0 }).where(eq(users.id, userId));
        await tx.delete(blocks).where(or(eq(blocks.blockerId, userId), eq(blocks.blockedId, userId)));
        await tx.delete(hiddenUsers).where(or(eq(hiddenUsers.userId, userId), eq(hiddenUsers.hiddenId, userId)));
        return followed.map((f) => f.id);
      });
      for (const id of [userId, ...touched]) profiles.deleteWhere((row) => row.id === id);
      // Its pages on every device stop at once, rather than at their next call or refresh.
      ctx.realtime.logout(userId, 'account-deleted');
    },

    /** Stores an uploaded picture as the user's avatar, in every avatar size. */
    async setAvatar(userId: number, data: Buffer): Promise<Account> {
      const image = await renderUploadedAvatar(data);
      await storeRendered(ctx.storage, image);
      await db.transaction(async (tx) => {
        // Content-addressed: the same picture uploaded twice (or by two people) is one file.
        await tx
          .insert(media)
          .values({ hash: image.hash, ownerId: userId, kind: 'avatar', mediaType: 'image', format: image.format, width: image.width, height: image.height, status: 3 })
          .onConflictDoNothing({ target: media.hash });
        const [row] = await tx.select({ id: media.id }).from(media).where(eq(media.hash, image.hash)).limit(1);
        await tx.update(users).set({ avatarMediaId: row!.id }).where(eq(users.id, userId));
      });
      profiles.deleteWhere((row) => row.id === userId);
      return this.account(userId);
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

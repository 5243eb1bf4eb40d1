import { and, desc, eq, inArray, isNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { ViewedProfile } from '../../../../lib/contract/account';
import { RelationType } from '../../../../lib/contract/account';
import type { PublicProfile } from '../../../../lib/contract/users';
import type { AppContext } from '../../context';
import { blocks, follows, hiddenUsers, media, users } from '../../db/schema';
import { AppError, errors } from '../../errors';
import { toPublicProfile, toViewedProfile, type ProfileRow } from '../users/domain';
import { decrementFollowers, profileColumns, type UserService } from '../users/service';
import { recordNotification } from '../notifications/service';
import { cancelSubscriptionsBetween } from '../subscriptions/blocking';
import { leaveConversation } from '../chat/service';
import { containsPattern, mayReadRelations, relationsPageSize, type RelationKind } from './domain';

export interface RelationsRequest {
  ownerId: number;
  kind: RelationKind;
  offset: number;
  q: string | undefined;
  viewerId: number | null;
}

/** Whether either of the two has blocked the other. */
function blockedEitherWay(a: number, b: number): SQL {
  return sql`exists(select 1 from ${blocks} where (${blocks.blockerId} = ${a} and ${blocks.blockedId} = ${b}) or (${blocks.blockerId} = ${b} and ${blocks.blockedId} = ${a}))`;
}

export function createSocialService(ctx: AppContext, userService: UserService) {
  const { db } = ctx;

  function refuseSelf(viewerId: number, targetId: number): void {
    if (viewerId === targetId) throw new AppError('cannot-target-self');
  }

  /** Locks the target's row for the transaction, so its count is changed by one writer at a time. */
  async function requireLiveUser(tx: Parameters<Parameters<typeof db.transaction>[0]>[0], id: number): Promise<void> {
    const [row] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .limit(1)
      .for('update');
    if (row === undefined) throw errors.userNotFound();
  }

  return {
    async follow(viewerId: number, targetId: number): Promise<void> {
      refuseSelf(viewerId, targetId);
      await db.transaction(async (tx) => {
        await requireLiveUser(tx, targetId);
        // A blocked pair has vanished for each other, so there is nobody to follow.
        const [blocked] = await tx.select({ blocked: blockedEitherWay(viewerId, targetId).mapWith(Boolean) }).from(users).where(eq(users.id, targetId));
        if (blocked?.blocked) throw errors.userNotFound();
        const inserted = await tx
          .insert(follows)
          .values({ followerId: viewerId, followedId: targetId })
          .onConflictDoNothing()
          .returning({ id: follows.followedId });
        if (inserted.length > 0) {
          await tx
            .update(users)
            .set({ followersCount: sql`${users.followersCount} + 1` })
            .where(eq(users.id, targetId));
          await recordNotification(tx, { userId: targetId, type: 'follow', fromUserId: viewerId });
        }
      });
      userService.forget(targetId);
    },

    async unfollow(viewerId: number, targetId: number): Promise<void> {
      refuseSelf(viewerId, targetId);
      await db.transaction(async (tx) => {
        await requireLiveUser(tx, targetId);
        const removed = await tx
          .delete(follows)
          .where(and(eq(follows.followerId, viewerId), eq(follows.followedId, targetId)))
          .returning({ id: follows.followedId });
        await decrementFollowers(tx, removed.map((r) => r.id));
      });
      userService.forget(targetId);
    },

    /** Blocks, ends following both ways and running subscriptions, and archives the blocker's chat with them. */
    async block(viewerId: number, targetId: number): Promise<void> {
      refuseSelf(viewerId, targetId);
      await db.transaction(async (tx) => {
        // Both rows locked in id order, so two people blocking each other cannot deadlock.
        const pair = await tx
          .select({ id: users.id, deletedAt: users.deletedAt })
          .from(users)
          .where(inArray(users.id, [viewerId, targetId]))
          .orderBy(users.id)
          .for('update');
        if (!pair.some((row) => row.id === targetId && row.deletedAt === null)) throw errors.userNotFound();
        await tx.insert(blocks).values({ blockerId: viewerId, blockedId: targetId }).onConflictDoNothing();
        const removed = await tx
          .delete(follows)
          .where(
            or(
              and(eq(follows.followerId, viewerId), eq(follows.followedId, targetId)),
              and(eq(follows.followerId, targetId), eq(follows.followedId, viewerId)),
            ),
          )
          .returning({ id: follows.followedId });
        await decrementFollowers(tx, removed.map((r) => r.id));
        await cancelSubscriptionsBetween(tx, viewerId, targetId, ctx.clock.now());
        await leaveConversation(tx, viewerId, targetId);
      });
      userService.forget(viewerId);
      userService.forget(targetId);
    },

    async unblock(viewerId: number, targetId: number): Promise<void> {
      refuseSelf(viewerId, targetId);
      await db.delete(blocks).where(and(eq(blocks.blockerId, viewerId), eq(blocks.blockedId, targetId)));
    },

    async hide(viewerId: number, targetId: number): Promise<void> {
      refuseSelf(viewerId, targetId);
      await db.transaction(async (tx) => {
        await requireLiveUser(tx, targetId);
        await tx.insert(hiddenUsers).values({ userId: viewerId, hiddenId: targetId }).onConflictDoNothing();
      });
    },

    /**
     * One page of a relations list. People in a block with the viewer are left out (except
     * from the viewer's own blocked list, which exists to undo blocks), and a list owner in
     * a block with the viewer has vanished altogether.
     */
    async relations(request: RelationsRequest): Promise<ProfileRow[]> {
      const { ownerId, kind, viewerId } = request;
      if (!mayReadRelations(kind, ownerId, viewerId)) throw new AppError('forbidden');
      const [owner] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, ownerId), isNull(users.deletedAt)))
        .limit(1);
      if (owner === undefined) throw errors.userNotFound();
      if (viewerId !== null && viewerId !== ownerId) {
        const [blocked] = await db.select({ blocked: blockedEitherWay(viewerId, ownerId).mapWith(Boolean) }).from(users).where(eq(users.id, ownerId));
        if (blocked?.blocked) throw errors.userNotFound();
      }

      const filters: (SQL | undefined)[] = [isNull(users.deletedAt)];
      if (request.q !== undefined && request.q.trim() !== '') {
        const pattern = containsPattern(request.q.trim());
        filters.push(sql`(lower(${users.username}) like ${pattern} escape '\\' or lower(${users.displayName}) like ${pattern} escape '\\')`);
      }
      if (viewerId !== null && kind !== RelationType.blocked) {
        filters.push(
          notExists(
            db
              .select({ one: sql`1` })
              .from(blocks)
              .where(
                or(
                  and(eq(blocks.blockerId, viewerId), eq(blocks.blockedId, users.id)),
                  and(eq(blocks.blockerId, users.id), eq(blocks.blockedId, viewerId)),
                ),
              ),
          ),
        );
      }

      const relation = (
        kind === RelationType.following
          ? db.select({ id: sql<number>`${follows.followedId}`.as('related_id'), since: sql<Date>`${follows.createdAt}`.as('related_since') }).from(follows).where(eq(follows.followerId, ownerId))
          : kind === RelationType.followers
            ? db.select({ id: sql<number>`${follows.followerId}`.as('related_id'), since: sql<Date>`${follows.createdAt}`.as('related_since') }).from(follows).where(eq(follows.followedId, ownerId))
            : db.select({ id: sql<number>`${blocks.blockedId}`.as('related_id'), since: sql<Date>`${blocks.createdAt}`.as('related_since') }).from(blocks).where(eq(blocks.blockerId, ownerId))
      ).as('relation');
      return db
        .select(profileColumns)
        .from(users)
        .innerJoin(relation, eq(relation.id, users.id))
        .leftJoin(media, eq(media.id, users.avatarMediaId))
        .where(and(...filters))
        .orderBy(desc(relation.since), desc(users.id))
        .limit(relationsPageSize)
        .offset(request.offset);
    },

    publicProfiles(rows: ProfileRow[]): PublicProfile[] {
      const now = Date.now();
      return rows.map((row) => toPublicProfile(row, now));
    },

    /** Rows as the viewer sees them, with their relation to the viewer read in three queries. */
    async viewedProfiles(rows: ProfileRow[], viewerId: number): Promise<ViewedProfile[]> {
      if (rows.length === 0) return [];
      const ids = rows.map((row) => row.id);
      const [followed, blockedByMe, hidden] = await Promise.all([
        db.select({ id: follows.followedId }).from(follows).where(and(eq(follows.followerId, viewerId), inArray(follows.followedId, ids))),
        db.select({ id: blocks.blockedId }).from(blocks).where(and(eq(blocks.blockerId, viewerId), inArray(blocks.blockedId, ids))),
        db.select({ id: hiddenUsers.hiddenId }).from(hiddenUsers).where(and(eq(hiddenUsers.userId, viewerId), inArray(hiddenUsers.hiddenId, ids))),
      ]);
      const sets = [followed, blockedByMe, hidden].map((list) => new Set(list.map((r) => r.id)));
      const now = Date.now();
      return rows.map((row) =>
        toViewedProfile(toPublicProfile(row, now), {
          isFollowed: sets[0]!.has(row.id),
          blockedByMe: sets[1]!.has(row.id),
          // Lists leave out people who blocked the viewer, so nobody here did.
          blockedMe: false,
          isHidden: sets[2]!.has(row.id),
        }),
      );
    },
  };
}

export type SocialService = ReturnType<typeof createSocialService>;

/**
 * Reading calls: a call's row for a relay check, the `Call` either party reads, and what a
 * minute with a creator costs the viewer in each credit package.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Call, CallPackages } from '../../../../lib/contract/calls';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { calls, creditPackages, users } from '../../db/schema';
import { AppError } from '../../errors';
import { isStaff } from '../chat/domain';
import type { CallCore } from './core';
import { blockedEitherWay, partiesOf, toCall, type CallRow } from './records';

/** The reads of calls and call prices. */
export function callReads(ctx: AppContext, core: CallCore) {
  const { db, mediaCDN } = core;

  return {
    /** The call, for a relay check: either party may signal the other while it is open. */
    async find(callId: string): Promise<CallRow | undefined> {
      const [row] = await db.select().from(calls).where(eq(calls.id, callId));
      return row;
    },

    /** `GET /api/calls/{id}`: either party reads it; anyone else `not-found`. */
    async get(viewerId: number, callId: string): Promise<Call> {
      const [row] = await db.select().from(calls).where(eq(calls.id, callId));
      if (row === undefined || (row.callerId !== viewerId && row.calleeId !== viewerId)) throw new AppError('not-found');
      return toCall(row, viewerId, await partiesOf(db, [row.callerId, row.calleeId], mediaCDN()));
    },

    /**
     * `GET /api/users/{id}/call-packages`: what a minute with the creator costs the viewer,
     * and how many whole minutes each credit package buys.
     */
    async packages(viewerId: number, creatorId: number): Promise<CallPackages> {
      const [creator] = await db
        .select({ id: users.id, level: users.level, isSeller: users.isSeller, callPrice: users.callPrice })
        .from(users)
        .where(and(eq(users.id, creatorId), isNull(users.deletedAt), isNull(users.bannedAt)));
      if (creator === undefined || (creatorId !== viewerId && (await blockedEitherWay(db, viewerId, creatorId)))) throw new AppError('user-not-found');
      if (!creator.isSeller && !isStaff(creator.level)) throw new AppError('calls-not-offered');
      const [viewer] = await db.select({ level: users.level }).from(users).where(eq(users.id, viewerId));
      const free = isStaff(creator.level) || isStaff(viewer?.level ?? 0);
      const pricePerMinute = free ? 0 : fanPriceCents(creator.callPrice, ctx.config.priceSalt);
      const rows = await db
        .select({ id: creditPackages.id, cValue: creditPackages.cValue, gValue: creditPackages.gValue })
        .from(creditPackages)
        .where(eq(creditPackages.active, true))
        .orderBy(asc(creditPackages.sortOrder), asc(creditPackages.id));
      return {
        pricePerMinute,
        packages: rows.map((row) => ({
          packageId: row.id,
          credits: row.cValue,
          priceCents: row.gValue,
          minutes: pricePerMinute === 0 ? null : Math.floor(row.cValue / pricePerMinute),
        })),
      };
    },
  };
}

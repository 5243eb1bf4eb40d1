/**
 * What the parties' messages do to a call: the caller's offer (with its checks, price and the
 * partner site's spending grant), the callee's answer or decline, either party's hang-up, and
 * the end of a live call this node runs. Each runs in one transaction that locks the call first.
 */
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { CallStatus, type CallEndReason } from '../../../../lib/contract/calls';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { calls, users } from '../../db/schema';
import { AppError } from '../../errors';
import { account, authorizeSpend, balanceOf, inTransaction, isSpendRefusal, reserve, type SpendVia } from '../../ledger';
import { balancesChanged } from '../../realtime/after-commit';
import { isStaff } from '../chat/domain';
import type { CallCore } from './core';
import { HOLD_SLACK_MS, holdKey, minuteEndsAt, minutesToPay } from './domain';
import { blockedEitherWay, isOpen, minuteVia, partiesOf, type CallRow, type MoveOutcome, type OfferOutcome } from './records';

/** The offer, answer, decline, hang-up and end of calls; `nodeId` takes the lease of a call gone live. */
export function callMoves(ctx: AppContext, nodeId: string, core: CallCore) {
  const { db, mediaCDN, now, leaseFrom, lockCall, closeLive, closeRinging, ringDeadline } = core;

  return {
    /**
     * The caller rings `calleeId` with a call id of their own making. Refused with an error
     * key for an unverified e-mail, someone in a block with the caller (`user-not-found`, as
     * everywhere), someone who takes no calls (`calls-not-offered`), or a call id used for
     * another call (`idempotency-conflict`). Stored and answered `busy` when either person is
     * in an open call, `noCredit` when the caller's wallet cannot pay one minute.
     */
    async offer(callerId: number, callId: string, calleeId: number, via: SpendVia = { channel: 'platform', at: now() }): Promise<OfferOutcome> {
      const at = now();
      return inTransaction(db, async (tx) => {
        // Both people's rows are locked, lowest id first: two offers that share a person run
        // one after the other, so "one open call per person" also holds across the two roles.
        const people = await tx
          .select({
            id: users.id,
            emailVerified: users.emailVerified,
            level: users.level,
            isSeller: users.isSeller,
            callPrice: users.callPrice,
            deletedAt: users.deletedAt,
            bannedAt: users.bannedAt,
          })
          .from(users)
          .where(inArray(users.id, [callerId, calleeId]))
          .orderBy(asc(users.id))
          .for('update');
        const caller = people.find((p) => p.id === callerId);
        const callee = people.find((p) => p.id === calleeId);
        const [existing] = await tx.select().from(calls).where(eq(calls.id, callId));
        if (existing !== undefined) {
          if (existing.callerId === callerId && existing.calleeId === calleeId) return { kind: 'replayed', call: existing };
          throw new AppError('idempotency-conflict');
        }
        if (caller === undefined) throw new AppError('unauthorized');
        if (!caller.emailVerified) throw new AppError('email-not-verified');
        if (callee === undefined || callee.deletedAt !== null || callee.bannedAt !== null) throw new AppError('user-not-found');
        if (await blockedEitherWay(tx, callerId, calleeId)) throw new AppError('user-not-found');
        if (!callee.isSeller && !isStaff(callee.level)) throw new AppError('calls-not-offered');

        // Calls with staff are free, as their chats are.
        const free = isStaff(caller.level) || isStaff(callee.level);
        const agreedPrice = free ? 0 : fanPriceCents(callee.callPrice, ctx.config.priceSalt);
        // The fan's price never pays the creator more than it takes (a salt under 1 would).
        const earningsPrice = free ? 0 : Math.min(callee.callPrice, agreedPrice);
        const base = { id: callId, callerId, calleeId, agreedPrice, earningsPrice, createdAt: at };
        const refuse = async (reason: 'busy' | 'noCredit'): Promise<OfferOutcome> => {
          const [stored] = await tx
            .insert(calls)
            .values({ ...base, state: reason, endReason: reason, endedAt: at })
            .returning();
          return { kind: 'refused', call: stored!, status: reason === 'busy' ? CallStatus.busy : CallStatus.noCredit };
        };

        const [open] = await tx
          .select({ id: calls.id })
          .from(calls)
          .where(and(isOpen, or(inArray(calls.callerId, [callerId, calleeId]), inArray(calls.calleeId, [callerId, calleeId]))))
          .limit(1);
        if (open !== undefined) return refuse('busy');
        if (agreedPrice > 0 && (await balanceOf(tx, account.wallet(callerId))) < agreedPrice) return refuse('noCredit');
        // From a partner site the fan accepts the price per minute in the platform's popup,
        // unless the site's allowance has room for a minute; his limits hold either way.
        let spendConfirmed = false;
        if (agreedPrice > 0 && via.channel === 'site') {
          const grant = await authorizeSpend(tx, {
            fanId: callerId,
            kind: 'call',
            amount: agreedPrice,
            creatorId: calleeId,
            subject: `call:${calleeId}`,
            details: { perMinute: agreedPrice },
            key: `call-ask:${callId}`,
            via,
          });
          spendConfirmed = grant?.confirmed ?? false;
        }

        // The partial unique indexes back the check above: should anything slip past it, the
        // insert stores nothing and the call is busy.
        const [stored] = await tx
          .insert(calls)
          .values({ ...base, state: 'ringing', spendOrigin: via.channel === 'site' ? via.origin : null, spendConfirmed })
          .onConflictDoNothing()
          .returning();
        if (stored === undefined) return refuse('busy');
        const parties = await partiesOf(tx, [callerId], mediaCDN());
        return { kind: 'ringing', call: stored, caller: parties.get(callerId)! };
      });
    },

    /**
     * The callee answers. Accepting holds the first minute from the fan's wallet and makes the
     * call live with this node's lease on its clock; a wallet that cannot hold it ends the call
     * `noCredit`. Declining ends it `declined`. A call rung past its timeout is missed.
     * Anyone but the callee: `call-not-found`.
     */
    async answer(calleeId: number, callId: string, accept: boolean, callerId: number): Promise<MoveOutcome> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const row = await lockCall(tx, callId);
        if (row === undefined || row.calleeId !== calleeId || row.callerId !== callerId) throw new AppError('call-not-found');
        if (row.state === 'live') return { kind: 'taken', call: row };
        if (row.state !== 'ringing') return { kind: 'over', call: row };
        if (at.getTime() >= ringDeadline(row)) return { kind: 'ended', call: await closeRinging(tx, row, 'missed', at) };
        if (!accept) return { kind: 'ended', call: await closeRinging(tx, row, 'declined', at) };
        if (row.agreedPrice > 0) {
          try {
            await reserve(tx, {
              key: holdKey(row.id, 1),
              userId: row.callerId,
              beneficiaryId: row.calleeId,
              amount: row.agreedPrice,
              purpose: 'call',
              expiresAt: new Date(minuteEndsAt(at.getTime(), 1) + HOLD_SLACK_MS),
              via: minuteVia(row, at),
              subject: `call:${row.calleeId}`,
            });
          } catch (error) {
            if (isSpendRefusal(error)) return { kind: 'ended', call: await closeRinging(tx, row, 'noCredit', at) };
            throw error;
          }
          balancesChanged(tx, [row.callerId]);
        }
        const [live] = await tx
          .update(calls)
          .set({ state: 'live', startedAt: at, heldThrough: row.agreedPrice > 0 ? 1 : 0, leaseNode: nodeId, leaseUntil: leaseFrom(at), callerGoneAt: null, calleeGoneAt: null })
          .where(eq(calls.id, row.id))
          .returning();
        return { kind: 'live', call: live! };
      });
    },

    /**
     * The callee declines a call by its id alone (`POST /api/calls/{id}/decline`: a
     * notification's Decline, with no page open). As `answer` with `accept: false`, without
     * naming the caller: declining a ringing call ends it, one over or taken is left as it is.
     */
    async decline(calleeId: number, callId: string): Promise<MoveOutcome> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const row = await lockCall(tx, callId);
        if (row === undefined || row.calleeId !== calleeId) throw new AppError('call-not-found');
        if (row.state === 'live') return { kind: 'taken', call: row };
        if (row.state !== 'ringing') return { kind: 'over', call: row };
        return { kind: 'ended', call: await closeRinging(tx, row, at.getTime() >= ringDeadline(row) ? 'missed' : 'declined', at) };
      });
    },

    /**
     * Either party hangs up. Ringing, the caller cancels and the callee declines; live, the
     * minute under way is paid in full (a fan pays for the minutes begun) and the holds of
     * minutes not begun are given back. Anyone else: `call-not-found`.
     */
    async stop(userId: number, callId: string, peerId: number): Promise<MoveOutcome> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const row = await lockCall(tx, callId);
        const parties = row === undefined ? [] : [row.callerId, row.calleeId];
        if (row === undefined || !parties.includes(userId) || !parties.includes(peerId)) throw new AppError('call-not-found');
        if (row.state === 'ringing') return { kind: 'ended', call: await closeRinging(tx, row, userId === row.callerId ? 'cancelled' : 'declined', at) };
        if (row.state !== 'live') return { kind: 'over', call: row };
        return { kind: 'ended', call: await closeLive(tx, row, 'hangup', at, minutesToPay(row.startedAt!.getTime(), at.getTime(), row.heldThrough)) };
      });
    },

    /**
     * Ends a live call this node runs (the clock: the money ran out, a party's connection is
     * gone, the server shuts down). Minutes are paid as for a hang-up at `at`.
     */
    async end(callId: string, reason: CallEndReason, at: Date): Promise<CallRow | undefined> {
      return inTransaction(db, async (tx) => {
        const row = await lockCall(tx, callId);
        if (row === undefined) return undefined;
        if (row.state === 'ringing') return closeRinging(tx, row, reason === 'hangup' ? 'cancelled' : reason, at);
        if (row.state !== 'live') return undefined;
        return closeLive(tx, row, reason, at, minutesToPay(row.startedAt!.getTime(), at.getTime(), row.heldThrough));
      });
    },

  };
}

/**
 * What keeps calls honest over time: the billing clock's steps (hold the next minute, pay the
 * one ended), this node's leases on the live calls it runs, the parties' connections going and
 * coming back, and the sweepers that end calls rung too long or left by a node that crashed.
 */
import { and, asc, eq, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm';
import { calls } from '../../db/schema';
import { inTransaction, isSpendRefusal, reserve } from '../../ledger';
import { balancesChanged } from '../../realtime/after-commit';
import type { CallCore } from './core';
import { DISCONNECT_GRACE_MS, HOLD_SLACK_MS, LEASE_MS, RING_TIMEOUT_MS, holdKey, minuteEndsAt, minutesToPayAfterCrash } from './domain';
import { isOpen, minuteVia, type CallRow, type ClockStep } from './records';

/** The clock's, the leases' and the sweepers' side of calls; `nodeId` names this node in the leases. */
export function callUpkeep(nodeId: string, core: CallCore) {
  const { db, now, leaseFrom, lockCall, payMinute, closeLive, closeRinging, ringDeadline } = core;

  return {
    /**
     * The clock holds minute `minute` (the one after the last held). Not this node's any more
     * (ended, or its lease taken): `gone`. A wallet that cannot hold it: `ok: false`.
     */
    async holdNext(callId: string, minute: number): Promise<ClockStep> {
      return inTransaction(db, async (tx) => {
        const row = await lockCall(tx, callId);
        if (row === undefined || row.state !== 'live' || row.leaseNode !== nodeId) return { gone: true };
        if (row.heldThrough >= minute) return { gone: false, ok: true, call: row };
        if (row.heldThrough !== minute - 1) return { gone: true };
        try {
          await reserve(tx, {
            key: holdKey(row.id, minute),
            userId: row.callerId,
            beneficiaryId: row.calleeId,
            amount: row.agreedPrice,
            purpose: 'call',
            expiresAt: new Date(minuteEndsAt(row.startedAt!.getTime(), minute) + HOLD_SLACK_MS),
            via: minuteVia(row, now()),
            subject: `call:${row.calleeId}`,
          });
        } catch (error) {
          if (isSpendRefusal(error)) return { gone: false, ok: false, call: row };
          throw error;
        }
        balancesChanged(tx, [row.callerId]);
        const [held] = await tx.update(calls).set({ heldThrough: minute }).where(eq(calls.id, row.id)).returning();
        return { gone: false, ok: true, call: held! };
      });
    },

    /** The clock pays minute `minute`, which has ended. Not this node's any more: `gone`. */
    async payEnded(callId: string, minute: number): Promise<ClockStep> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const row = await lockCall(tx, callId);
        if (row === undefined || row.state !== 'live' || row.leaseNode !== nodeId) return { gone: true };
        if (row.settledThrough >= minute) return { gone: false, ok: true, call: row };
        if (row.settledThrough !== minute - 1 || row.heldThrough < minute) return { gone: true };
        const paid = await payMinute(tx, row, minute, at);
        const minutes = row.minutes + (paid ? 1 : 0);
        balancesChanged(tx, [row.callerId, row.calleeId]);
        const [settled] = await tx
          .update(calls)
          .set({ settledThrough: minute, minutes, cost: minutes * row.agreedPrice, earnings: minutes * row.earningsPrice })
          .where(eq(calls.id, row.id))
          .returning();
        return { gone: false, ok: paid, call: settled! };
      });
    },

    /**
     * Renews this node's leases on the live calls it runs; answers the ids it still holds
     * (a call ended elsewhere, or closed after its lease lapsed, is no longer among them).
     */
    async renewLeases(callIds: readonly string[]): Promise<Set<string>> {
      if (callIds.length === 0) return new Set();
      const rows = await db
        .update(calls)
        .set({ leaseUntil: leaseFrom(now()) })
        .where(and(inArray(calls.id, [...callIds]), eq(calls.state, 'live'), eq(calls.leaseNode, nodeId)))
        .returning({ id: calls.id });
      return new Set(rows.map((row) => row.id));
    },

    /** The rows of calls, to see what changed under the clock (ended elsewhere, a party gone). */
    async rows(callIds: readonly string[]): Promise<CallRow[]> {
      if (callIds.length === 0) return [];
      return db.select().from(calls).where(inArray(calls.id, [...callIds]));
    },

    /** These users' last sockets on a node went away: the open calls they are in start waiting for them. */
    async markGone(userIds: readonly number[]): Promise<void> {
      if (userIds.length === 0) return;
      const at = now();
      await db.update(calls).set({ callerGoneAt: at }).where(and(inArray(calls.callerId, [...userIds]), isOpen, isNull(calls.callerGoneAt)));
      await db.update(calls).set({ calleeGoneAt: at }).where(and(inArray(calls.calleeId, [...userIds]), isOpen, isNull(calls.calleeGoneAt)));
    },

    /** Sockets of these users opened: they are back for the open calls they are in. */
    async markBack(userIds: readonly number[]): Promise<void> {
      if (userIds.length === 0) return;
      await db.update(calls).set({ callerGoneAt: null }).where(and(inArray(calls.callerId, [...userIds]), isOpen, isNotNull(calls.callerGoneAt)));
      await db.update(calls).set({ calleeGoneAt: null }).where(and(inArray(calls.calleeId, [...userIds]), isOpen, isNotNull(calls.calleeGoneAt)));
    },

    /**
     * The sweeper's ringing half: calls rung past their timeout are missed (the callee gets
     * `missedCall`), calls whose caller has been gone past the grace are cancelled. `onlyIds`
     * limits it to the calls this node rang. Answers the calls it ended.
     */
    async sweepRinging(onlyIds?: readonly string[]): Promise<CallRow[]> {
      const at = now();
      if (onlyIds !== undefined && onlyIds.length === 0) return [];
      const due = await db
        .select({ id: calls.id })
        .from(calls)
        .where(
          and(
            eq(calls.state, 'ringing'),
            onlyIds === undefined ? undefined : inArray(calls.id, [...onlyIds]),
            or(lte(calls.createdAt, new Date(at.getTime() - RING_TIMEOUT_MS)), lte(calls.callerGoneAt, new Date(at.getTime() - DISCONNECT_GRACE_MS))),
          ),
        )
        .orderBy(asc(calls.createdAt))
        .limit(500);
      const ended: CallRow[] = [];
      for (const { id } of due) {
        const closed = await inTransaction(db, async (tx) => {
          const row = await lockCall(tx, id);
          if (row === undefined || row.state !== 'ringing') return undefined;
          if (at.getTime() >= ringDeadline(row)) return closeRinging(tx, row, 'missed', at);
          if (row.callerGoneAt !== null && row.callerGoneAt.getTime() <= at.getTime() - DISCONNECT_GRACE_MS) return closeRinging(tx, row, 'cancelled', at);
          return undefined;
        });
        if (closed !== undefined) ended.push(closed);
      }
      return ended;
    },

    /**
     * The sweeper's crash half: a live call whose lease lapsed lost the node running its clock.
     * This node takes the lease (an UPDATE that only succeeds on a lapsed lease, so of two
     * nodes trying one wins) and closes the call: the minutes begun before the lease was last
     * renewed are paid once, every other hold is given back. Answers the calls it closed.
     */
    async closeLapsed(): Promise<CallRow[]> {
      const at = now();
      const lapsed = await db
        .select({ id: calls.id })
        .from(calls)
        .where(and(eq(calls.state, 'live'), lte(calls.leaseUntil, at)))
        .orderBy(asc(calls.leaseUntil))
        .limit(500);
      const closed: CallRow[] = [];
      for (const { id } of lapsed) {
        const row = await inTransaction(db, async (tx) => {
          const before = await lockCall(tx, id);
          if (before === undefined || before.state !== 'live' || before.leaseUntil === null || before.leaseUntil.getTime() > at.getTime()) return undefined;
          const [taken] = await tx
            .update(calls)
            .set({ leaseNode: nodeId, leaseUntil: leaseFrom(at) })
            .where(and(eq(calls.id, id), eq(calls.state, 'live'), lte(calls.leaseUntil, at)))
            .returning();
          if (taken === undefined) return undefined;
          const started = before.startedAt!.getTime();
          const lastAlive = new Date(Math.max(started, before.leaseUntil.getTime() - LEASE_MS));
          return closeLive(tx, taken, 'failed', lastAlive, minutesToPayAfterCrash(started, before.leaseUntil.getTime(), before.heldThrough));
        });
        if (row !== undefined) closed.push(row);
      }
      return closed;
    },
  };
}

/**
 * The steps every change to a call is made of: locking the call's row, paying a minute out of
 * its hold, giving back the holds not spent, and closing a live or a ringing call with its
 * totals, chat entries and the callee's missed-call notification. The offers, moves, clock and
 * sweepers (`moves.ts`, `upkeep.ts`) all end calls through these, inside their own transaction.
 */
import { eq } from 'drizzle-orm';
import type { CallEndReason } from '../../../../lib/contract/calls';
import type { AppContext } from '../../context';
import { calls, ledgerHolds } from '../../db/schema';
import { AppError } from '../../errors';
import { release, settle, type Tx } from '../../ledger';
import { balancesChanged } from '../../realtime/after-commit';
import { storeCallEntry } from '../chat/service';
import { recordNotification } from '../notifications/service';
import { LEASE_MS, RING_TIMEOUT_MS, canTransition, finalStateOf, holdKey, minuteKey, minutesBegun } from './domain';
import type { CallRow } from './records';

/** The shared steps of the call service, over one app's database and clock. */
export function createCallCore(ctx: AppContext) {
  const { db } = ctx;
  const mediaCDN = () => `${ctx.config.publicUrl}/media`;
  const now = () => ctx.clock.now();
  const leaseFrom = (at: Date) => new Date(at.getTime() + LEASE_MS);

  async function lockCall(tx: Tx, callId: string): Promise<CallRow | undefined> {
    const [row] = await tx.select().from(calls).where(eq(calls.id, callId)).for('update');
    return row;
  }

  async function holdOf(tx: Tx, callId: string, minute: number) {
    const [hold] = await tx.select({ id: ledgerHolds.id, status: ledgerHolds.status }).from(ledgerHolds).where(eq(ledgerHolds.key, holdKey(callId, minute)));
    return hold;
  }

  /**
   * Pays minute `minute` out of its hold to the creator and closes the emptied hold. False when
   * there is nothing to pay it from: no hold, or one the ledger's sweeper gave back already
   * (then the fan is not charged for it).
   */
  async function payMinute(tx: Tx, row: CallRow, minute: number, at: Date): Promise<boolean> {
    const hold = await holdOf(tx, row.id, minute);
    if (hold === undefined) return false;
    try {
      await settle(tx, {
        key: minuteKey(row.id, minute),
        holdId: hold.id,
        fanAmount: row.agreedPrice,
        earnerCents: row.earningsPrice,
        meta: { purpose: 'call', callId: row.id, minute },
      });
    } catch (error) {
      if (error instanceof AppError && error.key === 'noMoney') return false;
      throw error;
    }
    await release(tx, hold.id, at);
    return true;
  }

  /** Gives back the holds of minutes after `paidThrough` up to `heldThrough`. */
  async function releaseFrom(tx: Tx, row: CallRow, paidThrough: number, at: Date): Promise<void> {
    for (let minute = paidThrough + 1; minute <= row.heldThrough; minute++) {
      const hold = await holdOf(tx, row.id, minute);
      if (hold !== undefined) await release(tx, hold.id, at);
    }
  }

  /**
   * Ends a live call at `at`: the minutes up to `paidThrough` not yet settled are paid, every
   * later hold is given back, the record gets its totals and both chat histories an entry.
   * The caller has the row locked.
   */
  async function closeLive(tx: Tx, row: CallRow, reason: CallEndReason, at: Date, paidThrough: number): Promise<CallRow> {
    // The entry in both chat histories first: it takes the pair's conversation and stream
    // locks before the ledger's accounts, as a paid chat message does. It shows the totals
    // from this row once the transaction commits.
    await storeCallEntry(tx, row, 'ended', now());
    let paid = 0;
    if (row.agreedPrice > 0) {
      for (let minute = row.settledThrough + 1; minute <= paidThrough; minute++) if (await payMinute(tx, row, minute, at)) paid += 1;
      await releaseFrom(tx, row, Math.max(paidThrough, row.settledThrough), at);
      balancesChanged(tx, [row.callerId, row.calleeId]);
    }
    // A free call records the minutes it lasted; a paid one the minutes paid.
    const minutes = row.agreedPrice > 0 ? row.minutes + paid : minutesBegun(row.startedAt!.getTime(), at.getTime());
    const [ended] = await tx
      .update(calls)
      .set({
        state: 'ended',
        endReason: reason,
        minutes,
        cost: row.agreedPrice > 0 ? minutes * row.agreedPrice : 0,
        earnings: row.agreedPrice > 0 ? minutes * row.earningsPrice : 0,
        settledThrough: Math.max(row.settledThrough, Math.min(paidThrough, row.heldThrough)),
        endedAt: at,
        leaseNode: null,
        leaseUntil: null,
      })
      .where(eq(calls.id, row.id))
      .returning();
    return ended!;
  }

  /**
   * Ends a ringing call: declined, cancelled, missed (with the callee's `missedCall`), noCredit,
   * failed. The first three leave an entry in both chat histories.
   */
  async function closeRinging(tx: Tx, row: CallRow, reason: CallEndReason, at: Date): Promise<CallRow> {
    const state = finalStateOf(reason, false);
    if (!canTransition('ringing', state)) throw new Error(`A ringing call cannot become ${state}`);
    const [ended] = await tx.update(calls).set({ state, endReason: reason, endedAt: at, leaseNode: null, leaseUntil: null }).where(eq(calls.id, row.id)).returning();
    await storeCallEntry(tx, row, state, now());
    if (reason === 'missed') await recordNotification(tx, { userId: row.calleeId, type: 'missedCall', fromUserId: row.callerId });
    return ended!;
  }

  function ringDeadline(row: CallRow): number {
    return row.createdAt.getTime() + RING_TIMEOUT_MS;
  }

  return { db, mediaCDN, now, leaseFrom, lockCall, payMinute, closeLive, closeRinging, ringDeadline };
}

export type CallCore = ReturnType<typeof createCallCore>;

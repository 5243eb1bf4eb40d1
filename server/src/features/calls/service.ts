import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { CallStatus, type Call, type CallEndReason, type CallPackages, type CallParty, type CallState, type CallStatusCode } from '../../../../lib/contract/calls';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import { avatarUrl } from '../../../../lib/contract/rules/media';
import type { AppContext } from '../../context';
import { blocks, calls, creditPackages, ledgerHolds, media, users } from '../../db/schema';
import { AppError } from '../../errors';
import { account, authorizeSpend, balanceOf, inTransaction, isSpendRefusal, release, reserve, settle, type SpendVia, type Tx } from '../../ledger';
import { balancesChanged } from '../../realtime/after-commit';
import { isStaff } from '../chat/domain';
import { storeCallEntry } from '../chat/service';
import { recordNotification } from '../notifications/service';
import {
  DISCONNECT_GRACE_MS,
  HOLD_SLACK_MS,
  LEASE_MS,
  RING_TIMEOUT_MS,
  canTransition,
  finalStateOf,
  holdKey,
  minuteEndsAt,
  minuteKey,
  minutesBegun,
  minutesToPay,
  minutesToPayAfterCrash,
} from './domain';

export type CallRow = typeof calls.$inferSelect;

/** Where a call's minute is spent: from the site the fan called on, covered by his confirmation of its price or by the site's allowance. */
function minuteVia(row: Pick<CallRow, 'spendOrigin' | 'spendConfirmed'>, at: Date): SpendVia {
  return row.spendOrigin === null ? { channel: 'platform', at } : { channel: 'site', at, origin: row.spendOrigin, confirmed: row.spendConfirmed };
}

/** The open states, written as the partial indexes have them so the planner can use those. */
const isOpen = sql`${calls.state} in ('ringing', 'live')`;

/** What a call offer came to. */
export type OfferOutcome =
  /** Stored ringing: the callee's sockets get `preOffer` with the caller and the prices. */
  | { kind: 'ringing'; call: CallRow; caller: CallParty }
  /** Stored as busy or noCredit: the caller is answered `preAnswer {accept: false, status}`. */
  | { kind: 'refused'; call: CallRow; status: CallStatusCode }
  /** The same offer again (a resend): nothing more happens. */
  | { kind: 'replayed'; call: CallRow };

/** What a message that moves a call (answer, hang-up) came to. */
export type MoveOutcome =
  /** The call went live: the first minute is held. */
  | { kind: 'live'; call: CallRow }
  /** The call ended now, with this reason. */
  | { kind: 'ended'; call: CallRow }
  /** The call had ended before: the sender is told how. */
  | { kind: 'over'; call: CallRow }
  /** Accepted already, by another of the callee's pages or devices: this answer takes nothing. */
  | { kind: 'taken'; call: CallRow };

/** A step of the billing clock: the call is no longer this node's to run when `gone`. */
export type ClockStep = { gone: true } | { gone: false; ok: boolean; call: CallRow };

/** The party to a call as its messages and `Call` show them. */
async function partiesOf(tx: Tx, ids: readonly number[], mediaCDN: string): Promise<Map<number, CallParty>> {
  const rows = await tx
    .select({ id: users.id, username: users.username, displayName: users.displayName, avatarHash: media.hash, avatarFormat: media.format })
    .from(users)
    .leftJoin(media, eq(media.id, users.avatarMediaId))
    .where(inArray(users.id, [...ids]));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        username: row.username,
        displayName: row.displayName,
        avatarUrl: row.avatarHash !== null && row.avatarFormat !== null ? avatarUrl(mediaCDN, { mediaHash: row.avatarHash, format: row.avatarFormat }, 120) : null,
      },
    ]),
  );
}

async function blockedEitherWay(tx: Tx, a: number, b: number): Promise<boolean> {
  const rows = await tx
    .select({ one: sql<number>`1` })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)), and(eq(blocks.blockerId, b), eq(blocks.blockedId, a))))
    .limit(1);
  return rows.length > 0;
}

/** The call's record as either party reads it (`GET /api/calls/{id}`). */
export function toCall(row: CallRow, viewerId: number, parties: ReadonlyMap<number, CallParty>): Call {
  const unknown = (id: number): CallParty => ({ id, username: '', displayName: '', avatarUrl: null });
  const incoming = row.calleeId === viewerId;
  return {
    callId: row.id,
    caller: parties.get(row.callerId) ?? unknown(row.callerId),
    callee: parties.get(row.calleeId) ?? unknown(row.calleeId),
    peerId: incoming ? row.callerId : row.calleeId,
    callIsIncoming: incoming,
    state: row.state as CallState,
    endReason: (row.endReason as Call['endReason']) ?? null,
    agreedPrice: row.agreedPrice,
    earningsPrice: row.earningsPrice,
    minutes: row.minutes,
    cost: row.cost,
    earnings: incoming ? row.earnings : 0,
    created: row.createdAt.getTime(),
    started: row.startedAt?.getTime() ?? null,
    ended: row.endedAt?.getTime() ?? null,
  };
}

/**
 * The records, transitions and money of paid calls (docs/calls.md). Every change runs in one
 * transaction that first locks the call's row, so an answer, a hang-up, the billing clock and
 * the crash closer never interleave on one call; the ledger's keys (`call:<id>:hold:<n>`,
 * `call:<id>:minute:<n>`) make a minute held or paid once whoever gets there.
 *
 * `nodeId` names this server node in the leases it takes.
 */
export function createCallService(ctx: AppContext, nodeId: string) {
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

    /** The call, for a relay check: either party may signal the other while it is open. */
    async find(callId: string): Promise<CallRow | undefined> {
      const [row] = await db.select().from(calls).where(eq(calls.id, callId));
      return row;
    },

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

export type CallService = ReturnType<typeof createCallService>;

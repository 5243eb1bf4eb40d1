import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '../db';
import { ledgerHolds, ledgerTransfers, users } from '../db/schema';
import { AppError } from '../errors';
import { recordAttribution } from './attribution';
import { feeLegs } from './pay';
import { inTransaction, withinTransaction } from './retry';
import { authorizeSpend, recordSpend, releaseSpend, type SpendVia } from './spend-guard';
import { account, findTransfer, requestHash, sortedMeta, transfer, type Leg, type TransferInput, type TransferResult, type Tx } from './transfer';

export interface ReserveInput {
  key: string;
  userId: number;
  beneficiaryId: number | null;
  amount: number;
  purpose: string;
  expiresAt: Date;
  /** Where the fan spends and on whose word (./spend-guard.ts): a hold is a spend from the moment it is taken. */
  via: SpendVia;
  /** What is bought, which a confirmation must match; default the purpose. */
  subject?: string;
  details?: Record<string, string | number | null>;
}

type HoldRow = typeof ledgerHolds.$inferSelect;

function sameHold(existing: Pick<HoldRow, 'userId' | 'beneficiaryId' | 'amount'>, input: ReserveInput): boolean {
  return existing.userId === input.userId && existing.amount === input.amount && existing.beneficiaryId === input.beneficiaryId;
}

/**
 * Sets money aside from a wallet (a paid call's next minute): the wallet gives `amount` to the
 * platform's holds account (transfer `hold:{key}`) and a hold row remembers whose it is.
 * Refused with `noMoney`, leaving no hold behind, and by the spend guard as `pay` is. Returns
 * the hold's id; the same key returns the same hold (a different request under it is an
 * `idempotency-conflict`).
 */
export async function reserve(tx: Tx, input: ReserveInput): Promise<number> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error(`A hold needs a positive amount, got ${input.amount}`);
  return withinTransaction(tx, async (t) => {
    const existingHold = async () => {
      const [existing] = await t.select().from(ledgerHolds).where(eq(ledgerHolds.key, input.key));
      if (existing && !sameHold(existing, input)) throw new AppError('idempotency-conflict');
      return existing?.id;
    };
    const before = await existingHold();
    if (before !== undefined) return before;
    const spend = {
      fanId: input.userId,
      kind: input.purpose,
      amount: input.amount,
      creatorId: input.beneficiaryId,
      subject: input.subject ?? input.purpose,
      details: input.details,
      key: `hold:${input.key}`,
      via: input.via,
    };
    const grant = await authorizeSpend(t, spend);
    const [hold] = await t
      .insert(ledgerHolds)
      .values({ key: input.key, userId: input.userId, beneficiaryId: input.beneficiaryId, amount: input.amount, remaining: input.amount, purpose: input.purpose, expiresAt: input.expiresAt })
      .onConflictDoNothing()
      .returning({ id: ledgerHolds.id });
    if (!hold) {
      // Reserved meanwhile by a concurrent request with the same key.
      const raced = await existingHold();
      if (raced === undefined) throw new Error(`Hold ${input.key} conflicted but cannot be read`);
      return raced;
    }
    try {
      await transfer(t, {
        key: `hold:${input.key}`,
        kind: 'hold',
        userId: input.userId,
        counterpartyId: input.beneficiaryId,
        // Where it was spent, for the wallet's line of the minute (spend-guard.ts).
        meta: { purpose: input.purpose, holdId: hold.id, ...(grant?.origin ? { site: grant.origin } : {}) },
        legs: [
          { account: account.wallet(input.userId), amount: -input.amount },
          { account: account.holds, amount: input.amount },
        ],
      });
    } catch (error) {
      // The transfer wrote nothing; neither may the hold, should the caller carry on.
      if (error instanceof AppError) await t.delete(ledgerHolds).where(eq(ledgerHolds.id, hold.id));
      throw error;
    }
    if (grant !== null) await recordSpend(t, spend, grant, spend.key, hold.id);
    return hold.id;
  });
}

async function openHold(tx: Tx, holdId: number): Promise<HoldRow> {
  const [hold] = await tx.select().from(ledgerHolds).where(eq(ledgerHolds.id, holdId)).for('update');
  if (!hold) throw new AppError('not-found');
  return hold;
}

export interface SettleInput {
  key: string;
  holdId: number;
  /** Credits taken from the hold. */
  fanAmount: number;
  /** Cents the beneficiary earns; the rest is the platform's fee. */
  earnerCents: number;
  meta?: Record<string, string | number | null>;
}

/**
 * Pays part (or all) of a hold to its beneficiary; what remains stays held. The key names the
 * settlement (`call:{id}:minute:{n}` …): settling it again replays and moves nothing, even once
 * the hold is empty or closed. Taking more than remains is refused with `noMoney`.
 */
export async function settle(tx: Tx, input: SettleInput): Promise<TransferResult> {
  if (!Number.isSafeInteger(input.fanAmount) || !Number.isSafeInteger(input.earnerCents) || input.fanAmount <= 0 || input.earnerCents < 0 || input.earnerCents > input.fanAmount) {
    throw new Error('A settlement needs 0 <= earnerCents <= fanAmount and fanAmount > 0');
  }
  return withinTransaction(tx, async (t) => {
    const hold = await openHold(t, input.holdId);
    if (hold.beneficiaryId === null) throw new Error('The hold has no beneficiary');
    const beneficiaryId = hold.beneficiaryId;
    const [fan] = await t.select({ referrerId: users.referrerId }).from(users).where(eq(users.id, hold.userId));
    const { legs: fees, affiliate } = feeLegs(hold.userId, input.fanAmount - input.earnerCents, fan?.referrerId ?? null);
    const legs: Leg[] = [{ account: account.holds, amount: -input.fanAmount }, ...fees];
    if (input.earnerCents > 0) legs.push({ account: account.earnings(beneficiaryId), amount: input.earnerCents });
    const request: TransferInput = {
      key: input.key,
      kind: 'hold-settle',
      userId: hold.userId,
      counterpartyId: beneficiaryId,
      // The affiliate's share named as `pay` names it, so earnings list it as an affiliate line.
      meta: { ...input.meta, holdId: hold.id, ...(affiliate > 0 ? { affiliateId: fan?.referrerId ?? null, affiliateCents: affiliate } : {}) },
      legs,
      fingerprint: ['settle', hold.id, input.fanAmount, input.earnerCents, sortedMeta(input.meta)],
    };
    // The hold row is locked, so what remains cannot change under us. The key is looked at
    // first: replaying a settlement that emptied (or preceded the closing of) the hold is fine.
    if (hold.status !== 'open' || hold.remaining < input.fanAmount) {
      const existing = await findTransfer(t, input.key);
      if (!existing) throw new AppError('noMoney');
      if (existing.requestHash !== requestHash(request)) throw new AppError('idempotency-conflict');
      return { transferId: existing.id, replayed: true };
    }
    const result = await transfer(t, request);
    if (!result.replayed) {
      await t.update(ledgerHolds).set({ remaining: sql`${ledgerHolds.remaining} - ${input.fanAmount}` }).where(eq(ledgerHolds.id, hold.id));
      // A minute is spent where its hold was taken: the origin the reserve recorded.
      const [reserved] = await t.select({ site: sql<string | null>`${ledgerTransfers.meta}->>'site'` }).from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, `hold:${hold.key}`));
      const via = { channel: 'hold' as const, at: new Date(), origin: reserved?.site ?? null };
      await recordAttribution(t, { transferId: result.transferId, kind: hold.purpose, fanId: hold.userId, creatorId: beneficiaryId, earnedCents: input.earnerCents, via });
    }
    return result;
  });
}

/**
 * Returns what remains of a hold to the wallet (transfer `hold-release:{id}`) and closes it.
 * Closing a closed hold does nothing. Returns the credits given back.
 */
export async function release(tx: Tx, holdId: number, now: Date = new Date()): Promise<number> {
  return withinTransaction(tx, async (t) => {
    const hold = await openHold(t, holdId);
    if (hold.status !== 'open') return 0;
    if (hold.remaining > 0) {
      await transfer(t, {
        key: `hold-release:${hold.id}`,
        kind: 'hold-release',
        userId: hold.userId,
        counterpartyId: hold.beneficiaryId,
        meta: { holdId: hold.id },
        legs: [
          { account: account.holds, amount: -hold.remaining },
          { account: account.wallet(hold.userId), amount: hold.remaining },
        ],
      });
      await releaseSpend(t, hold.id, hold.remaining);
    }
    await t.update(ledgerHolds).set({ remaining: 0, status: 'closed', closedAt: now }).where(eq(ledgerHolds.id, hold.id));
    return hold.remaining;
  });
}

/**
 * Releases open holds past their expiry (run by the scheduler), up to 500 a run, each in its
 * own transaction. Returns how many were released.
 */
export async function releaseLapsedHolds(db: Database, now: Date): Promise<number> {
  const lapsed = await db
    .select({ id: ledgerHolds.id })
    .from(ledgerHolds)
    .where(and(eq(ledgerHolds.status, 'open'), lte(ledgerHolds.expiresAt, now)))
    .orderBy(asc(ledgerHolds.id))
    .limit(500);
  for (const { id } of lapsed) await inTransaction(db, (tx) => release(tx, id, now));
  return lapsed.length;
}

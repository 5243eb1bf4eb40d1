import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '../db';
import { ledgerHolds, ledgerTransfers, users } from '../db/schema';
import { AppError } from '../errors';
import { feeLegs } from './pay';
import { account, transfer, type Leg, type Tx } from './transfer';

export interface ReserveInput {
  key: string;
  userId: number;
  beneficiaryId: number | null;
  amount: number;
  purpose: string;
  expiresAt: Date;
}

/**
 * Sets money aside from a wallet (a paid call's next minute): the wallet gives `amount` to the
 * platform's holds account and a hold row remembers whose it is. Refused with `noMoney`.
 * Returns the hold's id; the same key returns the same hold.
 */
export async function reserve(tx: Tx, input: ReserveInput): Promise<number> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error(`A hold needs a positive amount, got ${input.amount}`);
  const [hold] = await tx
    .insert(ledgerHolds)
    .values({ key: input.key, userId: input.userId, beneficiaryId: input.beneficiaryId, amount: input.amount, remaining: input.amount, purpose: input.purpose, expiresAt: input.expiresAt })
    .onConflictDoNothing()
    .returning({ id: ledgerHolds.id });
  if (!hold) {
    const [existing] = await tx.select({ id: ledgerHolds.id, userId: ledgerHolds.userId, amount: ledgerHolds.amount }).from(ledgerHolds).where(eq(ledgerHolds.key, input.key));
    if (!existing) throw new Error(`Hold ${input.key} conflicted but cannot be read`);
    if (existing.userId !== input.userId || existing.amount !== input.amount) throw new AppError('idempotency-conflict');
    return existing.id;
  }
  await transfer(tx, {
    key: `hold:${input.key}`,
    kind: 'hold',
    userId: input.userId,
    counterpartyId: input.beneficiaryId,
    meta: { purpose: input.purpose, holdId: hold.id },
    legs: [
      { account: account.wallet(input.userId), amount: -input.amount },
      { account: account.holds, amount: input.amount },
    ],
  });
  return hold.id;
}

async function openHold(tx: Tx, holdId: number) {
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

/** Pays part (or all) of a hold to its beneficiary. What remains stays held. */
export async function settle(tx: Tx, input: SettleInput): Promise<void> {
  const hold = await openHold(tx, input.holdId);
  if (input.fanAmount <= 0 || input.earnerCents < 0 || input.earnerCents > input.fanAmount) throw new Error('A settlement needs 0 <= earnerCents <= fanAmount');
  if (hold.beneficiaryId === null) throw new Error('The hold has no beneficiary');
  const beneficiaryId = hold.beneficiaryId;
  const [fan] = await tx.select({ referrerId: users.referrerId }).from(users).where(eq(users.id, hold.userId));
  const { legs: fees } = feeLegs(hold.userId, input.fanAmount - input.earnerCents, fan?.referrerId ?? null);
  const legs: Leg[] = [{ account: account.holds, amount: -input.fanAmount }, ...fees];
  if (input.earnerCents > 0) legs.push({ account: account.earnings(beneficiaryId), amount: input.earnerCents });
  // Checked before moving money, but after the key: a replay of a settlement that emptied the hold is fine.
  const wouldExceed = hold.status !== 'open' || hold.remaining < input.fanAmount;
  const result = wouldExceed
    ? await replayOnly(tx, input.key)
    : await transfer(tx, { key: input.key, kind: 'hold-settle', userId: hold.userId, counterpartyId: beneficiaryId, meta: { ...input.meta, holdId: hold.id }, legs });
  if (result === null) throw new AppError('noMoney');
  if (!result.replayed) {
    await tx.update(ledgerHolds).set({ remaining: sql`${ledgerHolds.remaining} - ${input.fanAmount}` }).where(eq(ledgerHolds.id, hold.id));
  }
}

async function replayOnly(tx: Tx, key: string): Promise<{ replayed: true } | null> {
  const [existing] = await tx.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, key));
  return existing ? { replayed: true } : null;
}

/** Returns what remains of a hold to the wallet and closes it. Closing a closed hold does nothing. */
export async function release(tx: Tx, holdId: number, now: Date = new Date()): Promise<number> {
  const hold = await openHold(tx, holdId);
  if (hold.status !== 'open') return 0;
  if (hold.remaining > 0) {
    await transfer(tx, {
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
  }
  await tx.update(ledgerHolds).set({ remaining: 0, status: 'closed', closedAt: now }).where(eq(ledgerHolds.id, hold.id));
  return hold.remaining;
}

/** Releases every open hold past its expiry (run by the scheduler). Returns how many. */
export async function releaseLapsedHolds(db: Database, now: Date): Promise<number> {
  const lapsed = await db
    .select({ id: ledgerHolds.id })
    .from(ledgerHolds)
    .where(and(eq(ledgerHolds.status, 'open'), lte(ledgerHolds.expiresAt, now)))
    .orderBy(asc(ledgerHolds.id))
    .limit(500);
  for (const { id } of lapsed) await db.transaction((tx) => release(tx, id, now));
  return lapsed.length;
}

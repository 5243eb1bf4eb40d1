import { createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db';
import { ledgerAccounts, ledgerEntries, ledgerTransfers } from '../db/schema';
import { AppError } from '../errors';

/** A database handle inside a transaction (or the database itself for reads). */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

/**
 * The accounts of the ledger. Users own a credit wallet (what fans spend) and earnings (what
 * creators are paid); the platform owns the rest. `processor`, `promotions` and `payouts-sent`
 * stand for the world outside: money comes in through them and leaves through them, so they
 * are the only ones that may go negative.
 */
export type AccountRef =
  | { kind: 'wallet'; userId: number }
  | { kind: 'earnings'; userId: number }
  | { kind: 'fees' }
  | { kind: 'holds' }
  | { kind: 'payouts-pending' }
  | { kind: 'payouts-sent' }
  | { kind: 'promotions' }
  | { kind: 'processor'; processor: string };

const outsideWorld = new Set<AccountRef['kind']>(['processor', 'promotions', 'payouts-sent']);

export const account = {
  wallet: (userId: number): AccountRef => ({ kind: 'wallet', userId }),
  earnings: (userId: number): AccountRef => ({ kind: 'earnings', userId }),
  fees: { kind: 'fees' } as AccountRef,
  holds: { kind: 'holds' } as AccountRef,
  payoutsPending: { kind: 'payouts-pending' } as AccountRef,
  payoutsSent: { kind: 'payouts-sent' } as AccountRef,
  promotions: { kind: 'promotions' } as AccountRef,
  processor: (processor: string): AccountRef => ({ kind: 'processor', processor }),
};

function ownerOf(ref: AccountRef): { userId: number | null; processor: string | null } {
  if (ref.kind === 'wallet' || ref.kind === 'earnings') return { userId: ref.userId, processor: null };
  if (ref.kind === 'processor') return { userId: null, processor: ref.processor };
  return { userId: null, processor: null };
}

/** The id of an account, opened on first use. Concurrent first uses agree on one row. */
export async function accountId(tx: Tx, ref: AccountRef): Promise<number> {
  const { userId, processor } = ownerOf(ref);
  const where = and(
    eq(ledgerAccounts.kind, ref.kind),
    userId === null ? isNull(ledgerAccounts.userId) : eq(ledgerAccounts.userId, userId),
    processor === null ? isNull(ledgerAccounts.processor) : eq(ledgerAccounts.processor, processor),
  );
  const [found] = await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(where).limit(1);
  if (found) return found.id;
  await tx
    .insert(ledgerAccounts)
    .values({ kind: ref.kind, userId, processor, allowNegative: outsideWorld.has(ref.kind) })
    .onConflictDoNothing();
  const [created] = await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(where).limit(1);
  if (!created) throw new Error(`Ledger account ${JSON.stringify(ref)} could not be opened`);
  return created.id;
}

/** The balance of an account, 0 when it was never opened. */
export async function balanceOf(tx: Tx, ref: AccountRef): Promise<number> {
  const { userId, processor } = ownerOf(ref);
  const [found] = await tx
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.kind, ref.kind),
        userId === null ? isNull(ledgerAccounts.userId) : eq(ledgerAccounts.userId, userId),
        processor === null ? isNull(ledgerAccounts.processor) : eq(ledgerAccounts.processor, processor),
      ),
    )
    .limit(1);
  return found?.balance ?? 0;
}

export interface Leg {
  account: AccountRef;
  /** Cents: positive adds to the account, negative takes from it. */
  amount: number;
}

export interface TransferInput {
  /**
   * Names the business event, so that doing it twice does it once: `topup:{orderId}`,
   * `unlock:{userId}:{mediaId}`, `subscription:{id}:{period}`, `gift:{clientKey}` …
   */
  key: string;
  kind: string;
  userId?: number | null;
  counterpartyId?: number | null;
  meta?: Record<string, string | number | null>;
  legs: Leg[];
}

export interface TransferResult {
  transferId: number;
  /** True when the key had been used by an identical request: nothing moved this time. */
  replayed: boolean;
}

function assertBalanced(legs: readonly Leg[]): void {
  if (legs.length < 2) throw new Error('A transfer needs at least two legs');
  let sum = 0;
  for (const leg of legs) {
    if (!Number.isSafeInteger(leg.amount) || leg.amount === 0) throw new Error(`A leg must be a non-zero integer of cents, got ${leg.amount}`);
    sum += leg.amount;
  }
  if (sum !== 0) throw new Error(`The legs of a transfer must sum to zero, got ${sum}`);
}

function requestHash(input: TransferInput): string {
  const legs = input.legs.map((leg) => [JSON.stringify(leg.account), leg.amount]).sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1]));
  const meta = Object.entries(input.meta ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify([input.kind, input.userId ?? null, input.counterpartyId ?? null, meta, legs]))
    .digest('base64url');
}

/**
 * Moves money: one transfer whose legs sum to zero, written with its entries and the new
 * balances in the caller's transaction, so it lands with whatever it paid for or not at all.
 *
 * - The same `key` with the same request returns the first transfer (`replayed`); with a
 *   different request it is refused with `idempotency-conflict`.
 * - A leg that would take an account below zero refuses the whole transfer with `noMoney`.
 *   The check is part of the UPDATE, which holds the row lock, so concurrent spending from one
 *   wallet can never overspend; accounts are locked in id order, so transfers never deadlock.
 */
export async function transfer(tx: Tx, input: TransferInput): Promise<TransferResult> {
  assertBalanced(input.legs);
  const hash = requestHash(input);
  const [inserted] = await tx
    .insert(ledgerTransfers)
    .values({
      idempotencyKey: input.key,
      requestHash: hash,
      kind: input.kind,
      userId: input.userId ?? null,
      counterpartyId: input.counterpartyId ?? null,
      meta: input.meta ?? {},
    })
    .onConflictDoNothing()
    .returning({ id: ledgerTransfers.id });
  if (!inserted) {
    const [existing] = await tx
      .select({ id: ledgerTransfers.id, requestHash: ledgerTransfers.requestHash })
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.idempotencyKey, input.key));
    if (!existing) throw new Error(`Transfer ${input.key} conflicted but cannot be read`);
    if (existing.requestHash !== hash) throw new AppError('idempotency-conflict');
    return { transferId: existing.id, replayed: true };
  }

  const resolved = await Promise.all(input.legs.map(async (leg) => ({ id: await accountId(tx, leg.account), amount: leg.amount })));
  // One update per account, in id order.
  const perAccount = new Map<number, number>();
  for (const leg of resolved) perAccount.set(leg.id, (perAccount.get(leg.id) ?? 0) + leg.amount);
  for (const [id, amount] of [...perAccount].sort(([a], [b]) => a - b)) {
    if (amount === 0) continue;
    const updated = await tx
      .update(ledgerAccounts)
      .set({ balance: sql`${ledgerAccounts.balance} + ${amount}` })
      .where(and(eq(ledgerAccounts.id, id), sql`(${ledgerAccounts.allowNegative} or ${ledgerAccounts.balance} + ${amount} >= 0)`))
      .returning({ id: ledgerAccounts.id });
    if (updated.length === 0) throw new AppError('noMoney');
  }
  await tx.insert(ledgerEntries).values(resolved.map((leg) => ({ transferId: inserted.id, accountId: leg.id, amount: leg.amount })));
  return { transferId: inserted.id, replayed: false };
}

/**
 * The ledger's accounts: the references callers name them by (`account.wallet(id)`, …), which
 * may go negative and which take credits as pending, opening an account on first use, its
 * balance with its pending credits, and folding those credits into the stored balances.
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { ledgerAccounts, ledgerPendingCredits } from '../db/schema';
import type { Tx } from '../db/tx';

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

export const outsideWorld = new Set<AccountRef['kind']>(['processor', 'promotions', 'payouts-sent']);
/**
 * Accounts whose credits are posted as pending (`ledger_pending_credits`) rather than added to
 * the stored balance in the transfer's transaction: every payment credits the platform's fees
 * and a creator's earnings, and a row lock held on those until each payment commits would put
 * every payment on the platform — or to one creator — in one line. Only credits: between two
 * folds such an account can only grow, so no check of it is skipped.
 */
export const pendingCreditKinds = new Set<AccountRef['kind']>(['fees', 'earnings']);
const accountKinds = new Set<AccountRef['kind']>(['wallet', 'earnings', 'fees', 'holds', 'payouts-pending', 'payouts-sent', 'promotions', 'processor']);

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

export interface Owner {
  kind: AccountRef['kind'];
  userId: number | null;
  processor: string | null;
}

export function ownerOf(ref: AccountRef): Owner {
  if (!accountKinds.has(ref.kind)) throw new Error(`Unknown ledger account kind ${JSON.stringify(ref.kind)}`);
  if (ref.kind === 'wallet' || ref.kind === 'earnings') {
    if (!Number.isSafeInteger(ref.userId) || ref.userId <= 0) throw new Error(`A ${ref.kind} account needs a user id, got ${ref.userId}`);
    return { kind: ref.kind, userId: ref.userId, processor: null };
  }
  if (ref.kind === 'processor') {
    if (typeof ref.processor !== 'string' || ref.processor === '') throw new Error('A processor account needs the processor’s name');
    return { kind: ref.kind, userId: null, processor: ref.processor };
  }
  return { kind: ref.kind, userId: null, processor: null };
}

/**
 * One text per account, the same whichever way the reference object was built. It is also
 * what the request hash is made of, so it keeps the shape `JSON.stringify(account.wallet(5))`
 * has always had.
 */
export function accountKey(owner: Owner): string {
  if (owner.userId !== null) return JSON.stringify({ kind: owner.kind, userId: owner.userId });
  if (owner.processor !== null) return JSON.stringify({ kind: owner.kind, processor: owner.processor });
  return JSON.stringify({ kind: owner.kind });
}

function ownerWhere(owner: Owner): SQL | undefined {
  return and(
    eq(ledgerAccounts.kind, owner.kind),
    owner.userId === null ? isNull(ledgerAccounts.userId) : eq(ledgerAccounts.userId, owner.userId),
    owner.processor === null ? isNull(ledgerAccounts.processor) : eq(ledgerAccounts.processor, owner.processor),
  );
}

/** The id of an account, opened on first use. Concurrent first uses agree on one row. */
export async function accountId(tx: Tx, ref: AccountRef): Promise<number> {
  const owner = ownerOf(ref);
  const where = ownerWhere(owner);
  const [found] = await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(where).limit(1);
  if (found) return found.id;
  await tx
    .insert(ledgerAccounts)
    .values({ kind: owner.kind, userId: owner.userId, processor: owner.processor, allowNegative: outsideWorld.has(owner.kind) })
    .onConflictDoNothing();
  const [created] = await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(where).limit(1);
  if (!created) throw new Error(`Ledger account ${JSON.stringify(ref)} could not be opened`);
  return created.id;
}

/** The credits posted to an account and not yet added to its stored balance. */
const pendingOf = (accountIdColumn: SQL) =>
  sql`coalesce((select sum(${ledgerPendingCredits.amount}) from ${ledgerPendingCredits} where ${ledgerPendingCredits.accountId} = ${accountIdColumn}), 0)`;

/** The balance of an account — its stored balance and its pending credits — 0 when it was never opened. */
export async function balanceOf(tx: Tx, ref: AccountRef): Promise<number> {
  const [found] = await tx
    .select({ balance: sql<number>`(${ledgerAccounts.balance} + ${pendingOf(sql`${ledgerAccounts.id}`)})::bigint`.mapWith(Number) })
    .from(ledgerAccounts)
    .where(ownerWhere(ownerOf(ref)))
    .limit(1);
  return found?.balance ?? 0;
}

/**
 * Adds the pending credits of `accountIds` to their stored balances and removes them; the
 * accounts must be locked by the caller, so no fold of the same rows runs beside it. Answers
 * the new stored balances of the accounts that had any.
 */
export async function foldPending(tx: Tx, accountIds: readonly number[]): Promise<Map<number, number>> {
  if (accountIds.length === 0) return new Map();
  const folded = rows<{ id: number; balance: number }>(
    await tx.execute(sql`
      with folded as (
        delete from ${ledgerPendingCredits} where ${ledgerPendingCredits.accountId} in (${sql.join(
          accountIds.map((id) => sql`${id}::integer`),
          sql`, `,
        )})
        returning account_id, amount
      ), sums as (select account_id, sum(amount) as amount from folded group by account_id)
      update ${ledgerAccounts} as a set balance = a.balance + s.amount from sums s where a.id = s.account_id
      returning a.id, a.balance`),
  );
  return new Map(folded.map((row) => [Number(row.id), Number(row.balance)]));
}

/** The rows of a raw statement's result, whether the driver answers an array or an object holding `rows`. */
export const rows = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []));

/**
 * A transfer between ledger accounts: its legs summing to zero under an idempotency key, the
 * request hash that tells a replay from a conflict, and the one statement that locks (or opens)
 * its accounts, checks the balances and writes the entries and pending credits. The accounts
 * themselves are in `accounts.ts`.
 */
import { createHash } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { ledgerAccounts, ledgerEntries, ledgerPendingCredits, ledgerTransfers } from '../db/schema';
import { AppError } from '../errors';
import type { Tx } from '../db/tx';
import { accountKey, foldPending, outsideWorld, ownerOf, pendingCreditKinds, rows, type AccountRef, type Owner } from './accounts';
import { withinTransaction } from './retry';

/** A database handle inside a transaction (or the database itself for reads). */
export type { Tx };

export { account, accountId, balanceOf, foldPending, type AccountRef } from './accounts';

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
  /**
   * What makes a second request under the key the same request. By default the kind, the
   * people, the meta and the legs; `pay` gives the payment as asked (people, amounts, meta),
   * so a replay stays a replay even if the fan's affiliate changed since and the legs would
   * now be split differently.
   */
  fingerprint?: unknown;
  /**
   * Rows that belong with the transfer, written by its own statement when it is made (never on
   * a replay): inserts whose `select` may use `t.id`, the new transfer's id, from `t`. A round
   * trip fewer for each thing a payment records beside its money (its spend, where it happened).
   */
  alongside?: SQL | readonly SQL[];
}

export interface TransferResult {
  transferId: number;
  /** True when the key had been used by an identical request: nothing moved this time. */
  replayed: boolean;
}

function assertBalanced(input: TransferInput): void {
  if (typeof input.key !== 'string' || input.key === '') throw new Error('A transfer needs an idempotency key');
  const { legs } = input;
  if (legs.length < 2) throw new Error('A transfer needs at least two legs');
  let sum = 0;
  for (const leg of legs) {
    if (!Number.isSafeInteger(leg.amount) || leg.amount === 0) throw new Error(`A leg must be a non-zero integer of cents, got ${leg.amount}`);
    ownerOf(leg.account);
    sum += leg.amount;
  }
  if (sum !== 0) throw new Error(`The legs of a transfer must sum to zero, got ${sum}`);
}

/** Meta as a list sorted by name, so the order its fields were written in does not matter. */
export const sortedMeta = (meta: Record<string, string | number | null> | undefined) => Object.entries(meta ?? {}).sort(([a], [b]) => a.localeCompare(b));

/** What makes two requests with one key the same request: the fingerprint, or kind, people, meta and legs in any order. */
export function requestHash(input: TransferInput): string {
  if (input.fingerprint !== undefined) return createHash('sha256').update(JSON.stringify(['fingerprint', input.fingerprint])).digest('base64url');
  const legs = input.legs
    .map((leg) => [accountKey(ownerOf(leg.account)), leg.amount] as const)
    .sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]);
  return createHash('sha256')
    .update(JSON.stringify([input.kind, input.userId ?? null, input.counterpartyId ?? null, sortedMeta(input.meta), legs]))
    .digest('base64url');
}

/** The transfer recorded under `key`, if any. */
export async function findTransfer(tx: Tx, key: string): Promise<{ id: number; requestHash: string } | undefined> {
  const [existing] = await tx
    .select({ id: ledgerTransfers.id, requestHash: ledgerTransfers.requestHash })
    .from(ledgerTransfers)
    .where(eq(ledgerTransfers.idempotencyKey, key));
  return existing;
}

function replayOf(existing: { id: number; requestHash: string }, hash: string): TransferResult {
  if (existing.requestHash !== hash) throw new AppError('idempotency-conflict');
  return { transferId: existing.id, replayed: true };
}

/** The `alongside` inserts as the transfer statement's CTEs `x0`, `x1`, … (each followed by a comma). */
function alongsideOf(alongside: SQL | readonly SQL[] | undefined): SQL {
  const list = alongside === undefined ? [] : Array.isArray(alongside) ? alongside : [alongside as SQL];
  return sql.join(
    list.map((insert, i) => sql`${sql.raw(`x${i}`)} as (${insert}),`),
    sql` `,
  );
}

interface LockedAccount {
  id: number;
  balance: number;
  allowNegative: boolean;
}


/** Matches any of `owners` through the expression the accounts' unique index is built on. */
export function anyOwner(owners: Owner[]): SQL {
  const tuples = owners.map((o) => sql`(${o.kind}::text, ${o.userId ?? 0}::integer, ${o.processor ?? ''}::text)`);
  return sql`(${ledgerAccounts.kind}, coalesce(${ledgerAccounts.userId}, 0), coalesce(${ledgerAccounts.processor}, '')) in (${sql.join(tuples, sql`, `)})`;
}

interface Locked {
  accounts: Map<string, LockedAccount>;
  /**
   * The transfer already recorded under the key, as of the start of the locking statement:
   * it may miss one committed while the statement waited for a lock, never the other way round.
   */
  existing: { id: number; requestHash: string } | undefined;
}

interface AccountRow {
  id: number;
  kind: string;
  user_id: number | null;
  processor: string | null;
  balance: number;
  allow_negative: boolean;
  existing: string | null;
}

/**
 * Opens (on first use) and locks the accounts of a transfer, lowest id first, and returns
 * their balances as of the lock, together with the transfer recorded under `key` if any: one
 * statement when every account exists already. The accounts in `credited` (which only take
 * pending credits) are read, not locked.
 */
async function lockAccounts(tx: Tx, owners: Map<string, Owner>, credited: ReadonlySet<string>, key: string): Promise<Locked> {
  const locked: Locked = { accounts: new Map(), existing: undefined };
  const columns = sql`id, kind, user_id, processor, balance, allow_negative`;
  const take = async (wanted: [string, Owner][]) => {
    const toLock = wanted.filter(([k]) => !credited.has(k)).map(([, owner]) => owner);
    const toRead = wanted.filter(([k]) => credited.has(k)).map(([, owner]) => owner);
    const found = rows<AccountRow>(
      await tx.execute(sql`
        with l as (
          select ${columns} from ${ledgerAccounts} where ${toLock.length > 0 ? anyOwner(toLock) : sql`false`} order by id for no key update
        ), r as (
          select ${columns} from ${ledgerAccounts} where ${toRead.length > 0 ? anyOwner(toRead) : sql`false`}
        ), k as (
          select ${ledgerTransfers.id} || ':' || ${ledgerTransfers.requestHash} as existing from ${ledgerTransfers} where ${ledgerTransfers.idempotencyKey} = ${key}
        )
        select x.*, (select existing from k) as existing from (select * from l union all select * from r) x`),
    );
    for (const row of found) {
      locked.accounts.set(accountKey({ kind: row.kind as AccountRef['kind'], userId: row.user_id, processor: row.processor }), {
        id: Number(row.id),
        balance: Number(row.balance),
        allowNegative: row.allow_negative,
      });
      if (row.existing !== null) {
        const cut = row.existing.indexOf(':');
        locked.existing = { id: Number(row.existing.slice(0, cut)), requestHash: row.existing.slice(cut + 1) };
      }
    }
  };
  await take([...owners]);
  const missing = [...owners].filter(([k]) => !locked.accounts.has(k));
  if (missing.length > 0) {
    // Concurrent first uses of one account meet on the unique index: the later insert waits
    // for the earlier transaction and then does nothing, and the lock below finds its row.
    await tx
      .insert(ledgerAccounts)
      .values(missing.map(([, o]) => ({ kind: o.kind, userId: o.userId, processor: o.processor, allowNegative: outsideWorld.has(o.kind) })))
      .onConflictDoNothing();
    await take(missing);
  }
  for (const [k] of owners) if (!locked.accounts.has(k)) throw new Error(`Ledger account ${k} could not be opened`);
  return locked;
}

/**
 * Moves money: one transfer whose legs sum to zero, written with its entries and the new
 * balances in the caller's transaction, so it lands with whatever it paid for or not at all.
 * Given the database itself rather than a transaction, it runs in a transaction of its own.
 *
 * - The same `key` with the same request returns the first transfer (`replayed`); with a
 *   different request it is refused with `idempotency-conflict`.
 * - A leg that would take an account below zero refuses the whole transfer with `noMoney`
 *   before anything is written: no transfer row, no balance touched, the key still free. A
 *   caller may therefore catch `noMoney` and go on with its transaction (mark a renewal as
 *   failed, say) without leaving half a transfer behind.
 * - The accounts are locked (`SELECT … FOR NO KEY UPDATE`, lowest id first, in one statement)
 *   before the balances are checked, so concurrent spending from one wallet is serialised and
 *   can never overspend, and two transfers never wait for each other's accounts in opposite
 *   orders. A concurrent request with the same key waits for the first and then replays.
 * - A credit to fees or earnings is a pending credit (`pendingCreditKinds`): that account is
 *   read, not locked, and its stored balance is left to the ledger-pending-credits job.
 *
 * Two statements when the accounts exist: the lock (with the key's lookup) and one that
 * writes the transfer, its entries and the balances together; a third, a fresh look at the
 * key, only on a refusal or a race.
 */
export async function transfer(tx: Tx, input: TransferInput): Promise<TransferResult> {
  assertBalanced(input);
  return withinTransaction(tx, async (t) => {
    const hash = requestHash(input);
    const owners = new Map<string, Owner>();
    const net = new Map<string, number>();
    const legKeys: string[] = [];
    for (const leg of input.legs) {
      const owner = ownerOf(leg.account);
      const k = accountKey(owner);
      owners.set(k, owner);
      net.set(k, (net.get(k) ?? 0) + leg.amount);
      legKeys.push(k);
    }
    // Credits to fees and earnings are posted as pending: those rows are read, never locked.
    const credited = new Set([...net].filter(([k, amount]) => amount > 0 && pendingCreditKinds.has(owners.get(k)!.kind)).map(([k]) => k));
    const { accounts, existing } = await lockAccounts(t, owners, credited, input.key);
    if (existing) return replayOf(existing, hash);
    // A debit of such an account counts its pending credits: they are added to its balance first.
    const debited = [...net].filter(([k, amount]) => amount < 0 && pendingCreditKinds.has(owners.get(k)!.kind)).map(([k]) => k);
    const folded = await foldPending(
      t,
      debited.map((k) => accounts.get(k)!.id),
    );
    for (const k of debited) {
      const row = accounts.get(k)!;
      row.balance = folded.get(row.id) ?? row.balance;
    }

    const short = [...net].some(([k, amount]) => {
      const row = accounts.get(k)!;
      return !credited.has(k) && !row.allowNegative && row.balance + amount < 0;
    });
    if (short) {
      // The key's lookup above predates the lock: a twin of this request may have committed
      // (and spent the money) while we waited. Then this is a replay, not a refusal.
      const twin = await findTransfer(t, input.key);
      if (twin) return replayOf(twin, hash);
      throw new AppError('noMoney');
    }

    const changed = [...net].filter(([k, amount]) => amount !== 0 && !credited.has(k));
    const changes = changed.map(([k, amount]) => sql`(${accounts.get(k)!.id}::integer, ${amount}::bigint)`);
    const pending = [...credited].map((k) => sql`(${accounts.get(k)!.id}::integer, ${net.get(k)!}::bigint)`);
    const entries = input.legs.map((leg, i) => sql`(${accounts.get(legKeys[i]!)!.id}::integer, ${leg.amount}::bigint)`);
    const updates =
      changes.length === 0
        ? sql`select null::integer as id where false`
        : sql`update ${ledgerAccounts} as a set balance = a.balance + v.amount
            from (values ${sql.join(changes, sql`, `)}) as v(id, amount)
            where a.id = v.id and exists (select 1 from t)
            returning a.id`;
    const credits =
      pending.length === 0
        ? sql`select null::integer as id where false`
        : sql`insert into ${ledgerPendingCredits} (transfer_id, account_id, amount)
            select t.id, v.account_id, v.amount from t, (values ${sql.join(pending, sql`, `)}) as v(account_id, amount)
            returning 1`;
    const written = rows<{ id: number; updated: number; entries: number; pending: number }>(
      await t.execute(sql`
        with t as (
          insert into ${ledgerTransfers} (idempotency_key, request_hash, kind, user_id, counterparty_id, meta)
          values (${input.key}, ${hash}, ${input.kind}, ${input.userId ?? null}::integer, ${input.counterpartyId ?? null}::integer, ${JSON.stringify(input.meta ?? {})}::jsonb)
          on conflict do nothing
          returning id
        ), u as (${updates}), p as (${credits}), ${alongsideOf(input.alongside)} e as (
          insert into ${ledgerEntries} (transfer_id, account_id, amount)
          select t.id, l.account_id, l.amount from t, (values ${sql.join(entries, sql`, `)}) as l(account_id, amount)
          returning 1
        )
        select t.id, (select count(*) from u)::integer as updated, (select count(*) from e)::integer as entries, (select count(*) from p)::integer as pending from t`),
    )[0];
    if (!written) {
      // The key was taken meanwhile: by a twin that committed while we waited for the locks
      // (our lookup predates it), or by a different request on other accounts.
      const winner = await findTransfer(t, input.key);
      if (!winner) throw new Error(`Transfer ${input.key} conflicted but cannot be read`);
      return replayOf(winner, hash);
    }
    if (Number(written.updated) !== changes.length || Number(written.entries) !== entries.length || Number(written.pending) !== pending.length) {
      throw new Error(
        `Transfer ${input.key} wrote ${written.updated} of ${changes.length} balances, ${written.pending} of ${pending.length} pending credits and ${written.entries} of ${entries.length} entries`,
      );
    }
    return { transferId: Number(written.id), replayed: false };
  });
}

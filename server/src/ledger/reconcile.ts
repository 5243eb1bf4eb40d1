import { sql } from 'drizzle-orm';
import type { Database } from '../db';

export interface ReconciliationReport {
  accounts: number;
  transfers: number;
  /** Accounts whose stored balance differs from the sum of their entries. */
  balanceMismatches: { accountId: number; kind: string; userId: number | null; stored: number; fromEntries: number }[];
  /** Transfers whose entries do not sum to zero. */
  unbalancedTransfers: { transferId: number; sum: number }[];
  /** Accounts below zero that may not be. */
  negativeAccounts: { accountId: number; kind: string; userId: number | null; balance: number }[];
  /** The sum of every balance: always zero. */
  total: number;
  /** The holds account against the open holds' remaining amounts. */
  holds: { account: number; open: number };
  ok: boolean;
}

const rows = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []));

/**
 * Recomputes every balance from the entries and reports any difference. Read-only: a
 * difference is a finding to investigate and to correct with a new transfer, never an edit.
 */
export async function reconcile(db: Database): Promise<ReconciliationReport> {
  const [mismatches, unbalanced, negative, totals, holds] = await Promise.all([
    db.execute(sql`
      select a.id as "accountId", a.kind, a.user_id as "userId", a.balance::bigint as stored, coalesce(sum(e.amount), 0)::bigint as "fromEntries"
      from ledger_accounts a left join ledger_entries e on e.account_id = a.id
      group by a.id having a.balance <> coalesce(sum(e.amount), 0)`),
    db.execute(sql`select transfer_id as "transferId", sum(amount)::bigint as sum from ledger_entries group by transfer_id having sum(amount) <> 0`),
    db.execute(sql`select id as "accountId", kind, user_id as "userId", balance::bigint as balance from ledger_accounts where balance < 0 and not allow_negative`),
    db.execute(sql`select (select count(*) from ledger_accounts)::int as accounts, (select count(*) from ledger_transfers)::int as transfers, (select coalesce(sum(balance), 0) from ledger_accounts)::bigint as total`),
    db.execute(sql`select (select coalesce(sum(balance), 0) from ledger_accounts where kind = 'holds')::bigint as account, (select coalesce(sum(remaining), 0) from ledger_holds where status = 'open')::bigint as open`),
  ]);
  const num = (value: unknown) => Number(value);
  const balanceMismatches = rows<ReconciliationReport['balanceMismatches'][number]>(mismatches).map((r) => ({ ...r, stored: num(r.stored), fromEntries: num(r.fromEntries) }));
  const unbalancedTransfers = rows<ReconciliationReport['unbalancedTransfers'][number]>(unbalanced).map((r) => ({ ...r, sum: num(r.sum) }));
  const negativeAccounts = rows<ReconciliationReport['negativeAccounts'][number]>(negative).map((r) => ({ ...r, balance: num(r.balance) }));
  const summary = rows<{ accounts: number; transfers: number; total: unknown }>(totals)[0] ?? { accounts: 0, transfers: 0, total: 0 };
  const held = rows<{ account: unknown; open: unknown }>(holds)[0] ?? { account: 0, open: 0 };
  const report = {
    accounts: summary.accounts,
    transfers: summary.transfers,
    balanceMismatches,
    unbalancedTransfers,
    negativeAccounts,
    total: num(summary.total),
    holds: { account: num(held.account), open: num(held.open) },
  };
  return {
    ...report,
    ok: balanceMismatches.length === 0 && unbalancedTransfers.length === 0 && negativeAccounts.length === 0 && report.total === 0 && report.holds.account === report.holds.open,
  };
}

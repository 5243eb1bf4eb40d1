import { sql } from 'drizzle-orm';
import type { Tx } from './transfer';

export interface ReconciliationReport {
  accounts: number;
  transfers: number;
  /** Accounts whose balance (stored, with its pending credits) differs from the sum of their entries. */
  balanceMismatches: { accountId: number; kind: string; userId: number | null; stored: number; fromEntries: number }[];
  /** Transfers whose entries do not sum to zero. */
  unbalancedTransfers: { transferId: number; sum: number }[];
  /** Transfers without a single entry (a transfer always has two legs or more). */
  emptyTransfers: { transferId: number; key: string }[];
  /** Accounts below zero that may not be. */
  negativeAccounts: { accountId: number; kind: string; userId: number | null; balance: number }[];
  /**
   * Holds whose `remaining` differs from what their own transfers left in the holds account
   * (reserved − settled − released), or that are closed with something remaining.
   */
  holdMismatches: { holdId: number; status: string; amount: number; remaining: number; fromEntries: number }[];
  /** Pending credits that differ from what their transfer's entries put in the account. */
  pendingMismatches: { transferId: number; accountId: number; pending: number; fromEntries: number }[];
  /** The sum of every balance: always zero. */
  total: number;
  /** The holds account against the open holds' remaining amounts. */
  holds: { account: number; open: number };
  ok: boolean;
}

const rows = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []));
const num = (value: unknown) => Number(value);
const list = <T>(value: unknown): T[] => (typeof value === 'string' ? (JSON.parse(value) as T[]) : ((value as T[] | null) ?? []));

/**
 * Every check in one statement, so all of them read one snapshot (a transfer committing
 * meanwhile is wholly in every figure or in none) at the cost of one round trip.
 */
const checks = sql`
  with entry_sums as (
    select account_id, sum(amount) as sum from ledger_entries group by account_id
  ), pending_sums as (
    select account_id, sum(amount) as sum from ledger_pending_credits group by account_id
  ), holdings as (
    select a.id, a.kind, a.user_id, a.allow_negative, (a.balance + coalesce(p.sum, 0))::bigint as balance
    from ledger_accounts a left join pending_sums p on p.account_id = a.id
  ), balance_mismatches as (
    select a.id as "accountId", a.kind, a.user_id as "userId", a.balance as stored, coalesce(e.sum, 0)::bigint as "fromEntries"
    from holdings a left join entry_sums e on e.account_id = a.id
    where a.balance <> coalesce(e.sum, 0)
  ), pending_mismatches as (
    select p.transfer_id as "transferId", p.account_id as "accountId", p.amount::bigint as pending, coalesce(sum(e.amount), 0)::bigint as "fromEntries"
    from ledger_pending_credits p left join ledger_entries e on e.transfer_id = p.transfer_id and e.account_id = p.account_id
    group by p.transfer_id, p.account_id, p.amount
    having p.amount <> coalesce(sum(e.amount), 0)
  ), unbalanced_transfers as (
    select transfer_id as "transferId", sum(amount)::bigint as sum from ledger_entries group by transfer_id having sum(amount) <> 0
  ), empty_transfers as (
    select t.id as "transferId", t.idempotency_key as key from ledger_transfers t
    where not exists (select 1 from ledger_entries e where e.transfer_id = t.id)
  ), negative_accounts as (
    select id as "accountId", kind, user_id as "userId", balance from holdings where balance < 0 and not allow_negative
  ), hold_sums as (
    select (t.meta->>'holdId') as hold_id, sum(e.amount) as sum
    from ledger_transfers t
    join ledger_entries e on e.transfer_id = t.id
    join ledger_accounts a on a.id = e.account_id and a.kind = 'holds'
    where t.kind in ('hold', 'hold-settle', 'hold-release')
    group by 1
  ), hold_mismatches as (
    select h.id as "holdId", h.status, h.amount, h.remaining, coalesce(m.sum, 0)::bigint as "fromEntries"
    from ledger_holds h left join hold_sums m on m.hold_id = h.id::text
    where h.remaining <> coalesce(m.sum, 0) or (h.status <> 'open' and h.remaining <> 0) or h.remaining > h.amount
  )
  select
    (select count(*) from ledger_accounts)::int as accounts,
    (select count(*) from ledger_transfers)::int as transfers,
    (select coalesce(sum(balance), 0) from holdings)::bigint as total,
    (select coalesce(sum(balance), 0) from holdings where kind = 'holds')::bigint as "holdsAccount",
    (select coalesce(sum(remaining), 0) from ledger_holds where status = 'open')::bigint as "holdsOpen",
    (select coalesce(json_agg(r order by r."accountId"), '[]') from balance_mismatches r) as "balanceMismatches",
    (select coalesce(json_agg(r order by r."transferId", r."accountId"), '[]') from pending_mismatches r) as "pendingMismatches",
    (select coalesce(json_agg(r order by r."transferId"), '[]') from unbalanced_transfers r) as "unbalancedTransfers",
    (select coalesce(json_agg(r order by r."transferId"), '[]') from empty_transfers r) as "emptyTransfers",
    (select coalesce(json_agg(r order by r."accountId"), '[]') from negative_accounts r) as "negativeAccounts",
    (select coalesce(json_agg(r order by r."holdId"), '[]') from hold_mismatches r) as "holdMismatches"`;

interface Summary {
  accounts: unknown;
  transfers: unknown;
  total: unknown;
  holdsAccount: unknown;
  holdsOpen: unknown;
  balanceMismatches: unknown;
  unbalancedTransfers: unknown;
  emptyTransfers: unknown;
  negativeAccounts: unknown;
  holdMismatches: unknown;
  pendingMismatches: unknown;
}

/**
 * Recomputes every balance from the entries and reports any difference, from one consistent
 * snapshot, so it may run while money moves. Read-only: a difference is a finding to
 * investigate and to correct with a new transfer of kind `correction`, never an edit.
 */
export async function reconcile(db: Tx): Promise<ReconciliationReport> {
  const summary = rows<Summary>(await db.execute(checks))[0];
  if (!summary) throw new Error('The reconciliation query returned nothing');
  const balanceMismatches = list<ReconciliationReport['balanceMismatches'][number]>(summary.balanceMismatches).map((r) => ({
    ...r,
    stored: num(r.stored),
    fromEntries: num(r.fromEntries),
  }));
  const unbalancedTransfers = list<ReconciliationReport['unbalancedTransfers'][number]>(summary.unbalancedTransfers).map((r) => ({ ...r, sum: num(r.sum) }));
  const emptyTransfers = list<ReconciliationReport['emptyTransfers'][number]>(summary.emptyTransfers);
  const negativeAccounts = list<ReconciliationReport['negativeAccounts'][number]>(summary.negativeAccounts).map((r) => ({ ...r, balance: num(r.balance) }));
  const holdMismatches = list<ReconciliationReport['holdMismatches'][number]>(summary.holdMismatches).map((r) => ({
    ...r,
    amount: num(r.amount),
    remaining: num(r.remaining),
    fromEntries: num(r.fromEntries),
  }));
  const pendingMismatches = list<ReconciliationReport['pendingMismatches'][number]>(summary.pendingMismatches).map((r) => ({
    ...r,
    pending: num(r.pending),
    fromEntries: num(r.fromEntries),
  }));
  const total = num(summary.total);
  const holds = { account: num(summary.holdsAccount), open: num(summary.holdsOpen) };
  return {
    accounts: num(summary.accounts),
    transfers: num(summary.transfers),
    balanceMismatches,
    unbalancedTransfers,
    emptyTransfers,
    negativeAccounts,
    holdMismatches,
    pendingMismatches,
    total,
    holds,
    ok:
      balanceMismatches.length === 0 &&
      unbalancedTransfers.length === 0 &&
      emptyTransfers.length === 0 &&
      negativeAccounts.length === 0 &&
      holdMismatches.length === 0 &&
      pendingMismatches.length === 0 &&
      total === 0 &&
      holds.account === holds.open,
  };
}

function accountName(kind: string, userId: number | null): string {
  return userId === null ? `the ${kind} account` : `the ${kind} of user ${userId}`;
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

/** The report as a person reads it: one line per check, then one line per difference. */
export function describeReport(report: ReconciliationReport): string {
  const mark = (good: boolean) => (good ? 'ok' : 'DIFFERENCE');
  const lines = [
    `Accounts: ${report.accounts}, transfers: ${report.transfers}`,
    `Sum of all balances: ${report.total} cents (${mark(report.total === 0)})`,
    `Holds account: ${report.holds.account}, open holds: ${report.holds.open} (${mark(report.holds.account === report.holds.open)})`,
    `Balances differing from their entries: ${report.balanceMismatches.length}`,
    ...report.balanceMismatches.map(
      (m) => `  account ${m.accountId}, ${accountName(m.kind, m.userId)}: stored ${m.stored}, entries sum to ${m.fromEntries} (${signed(m.stored - m.fromEntries)})`,
    ),
    `Transfers whose entries do not sum to zero: ${report.unbalancedTransfers.length}`,
    ...report.unbalancedTransfers.map((t) => `  transfer ${t.transferId}: entries sum to ${t.sum}`),
    `Transfers without entries: ${report.emptyTransfers.length}`,
    ...report.emptyTransfers.map((t) => `  transfer ${t.transferId} (${t.key})`),
    `Accounts below zero that may not be: ${report.negativeAccounts.length}`,
    ...report.negativeAccounts.map((a) => `  account ${a.accountId}, ${accountName(a.kind, a.userId)}: ${a.balance}`),
    `Holds differing from their transfers: ${report.holdMismatches.length}`,
    ...report.holdMismatches.map((h) => `  hold ${h.holdId} (${h.status}, ${h.amount} reserved): remaining ${h.remaining}, its transfers left ${h.fromEntries}`),
    `Pending credits differing from their entries: ${report.pendingMismatches.length}`,
    ...report.pendingMismatches.map((p) => `  transfer ${p.transferId}, account ${p.accountId}: pending ${p.pending}, its entries there sum to ${p.fromEntries}`),
    report.ok ? 'The ledger reconciles.' : 'The ledger does NOT reconcile: find the cause of each difference, then correct it as docs/ledger.md (Corrections) says.',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Payments in a batch (group commit, docs/performance.md "Group commit"): the payments that
 * arrived together are checked and written by set-based statements in one transaction, each
 * under its own key and with its own refusal, instead of taking the round trips of `pay` one
 * after the other. Two steps, so the caller can store what the money pays for in between:
 *
 * 1. `planPayments` takes the locks `pay` takes, in the same order — every fan's spending
 *    controls (lowest user id first), then every fan's wallet (lowest account id first) — and
 *    decides each payment from what it read, as `pay` would one after the other: replayed
 *    (its key was used by the same request), refused (`noMoney`, `spending-cooldown`,
 *    `spending-limit`, `idempotency-conflict`) or accepted. A refusal writes nothing and leaves
 *    the others alone. Two statements for the whole batch.
 * 2. `writePayments` writes the accepted ones the caller keeps: the transfers, their entries,
 *    the wallets' new balances, the pending credits, the spends and where each happened. One
 *    statement for the whole batch.
 *
 * Only spends on the platform's own pages are batched (`batchable`); a site's spend (an
 * allowance, a confirmation) goes through `pay`.
 */
import { sql } from 'drizzle-orm';
import { pgArray } from '../db/arrays';
import { ledgerAccounts, ledgerEntries, ledgerPendingCredits, ledgerTransfers, spendAttributions, spendingControls, spends, users } from '../db/schema';
import { AppError } from '../errors';
import { accountKey, outsideWorld, ownerOf, rows, type Owner } from './accounts';
import { linkOfFanSql } from './attribution';
import { feeLegs, type PaymentInput } from './pay';
import { limitsAt, startOfUtcDay, startOfUtcMonth } from './spend-guard';
import { account, anyOwner, requestHash, sortedMeta, type Leg, type Tx } from './transfer';

/** Whether `pay` may be done in a batch: a spend on the platform's own pages. */
export function batchable(input: PaymentInput): boolean {
  return input.via.channel === 'platform';
}

interface Accepted {
  status: 'accepted';
  input: PaymentInput;
  legs: Leg[];
  /** Meta as written: the caller's, and the affiliate's share. */
  meta: Record<string, string | number | null>;
  /** The fan's wallet once this payment (and the batch's earlier ones) is made. */
  walletAfter: number;
}

/** What the batch decided for one payment. */
export type PlannedPayment =
  | Accepted
  | { status: 'replayed'; transferId: number }
  | { status: 'refused'; error: AppError }
  /** Not decided here (its key twice in the batch, a fan's limits across midnight): the caller runs it with `pay`. */
  | { status: 'alone' };

export interface PaymentPlan {
  items: PlannedPayment[];
  /** Account ids by `accountKey`, for the accounts of the accepted payments. */
  accountIds: Map<string, number>;
}

const fingerprintOf = (input: PaymentInput) => ['pay', input.kind, input.fanId, input.earnerId, input.fanAmount, input.earnerCents, sortedMeta(input.meta)];

interface ControlsRow {
  user_id: number;
  cooldown_until: Date | string | null;
  daily_limit: number | null;
  monthly_limit: number | null;
  daily_limit_next: number | null;
  daily_limit_next_at: Date | string | null;
  monthly_limit_next: number | null;
  monthly_limit_next_at: Date | string | null;
  referrer_id: number | null;
  spent_day: string | number | null;
  spent_month: string | number | null;
}

const dateOrNull = (value: Date | string | null) => (value === null ? null : value instanceof Date ? value : new Date(value));

/**
 * Locks the fans' spending controls (opening them on a first spend), lowest user id first,
 * and reads each one's limits, cool-down and referrer, and — for a fan with a limit — what he
 * spent this UTC day and month: one statement.
 */
async function lockControls(tx: Tx, fanIds: number[], at: Date): Promise<Map<number, ControlsRow>> {
  const day = startOfUtcDay(at).toISOString();
  const month = startOfUtcMonth(at).toISOString();
  const found = rows<ControlsRow>(
    await tx.execute(sql`
      insert into ${spendingControls} as c (user_id)
      select id from unnest(${pgArray(fanIds)}::int[]) as f(id) order by id
      on conflict (user_id) do update set user_id = excluded.user_id
      returning c.user_id, c.cooldown_until, c.daily_limit, c.monthly_limit, c.daily_limit_next, c.daily_limit_next_at, c.monthly_limit_next, c.monthly_limit_next_at,
        (select u.referrer_id from ${users} u where u.id = c.user_id) as referrer_id,
        case when coalesce(c.daily_limit, c.monthly_limit, c.daily_limit_next, c.monthly_limit_next) is null then null else
          (select coalesce(sum(s.amount) filter (where s.created_at >= ${day}::timestamptz), 0) from ${spends} s where s.user_id = c.user_id and s.created_at >= ${month}::timestamptz) end as spent_day,
        case when coalesce(c.daily_limit, c.monthly_limit, c.daily_limit_next, c.monthly_limit_next) is null then null else
          (select coalesce(sum(s.amount), 0) from ${spends} s where s.user_id = c.user_id and s.created_at >= ${month}::timestamptz) end as spent_month`),
  );
  return new Map(found.map((row) => [Number(row.user_id), row]));
}

interface AccountRow {
  id: number | null;
  kind: string | null;
  user_id: number | null;
  processor: string | null;
  balance: string | number | null;
  key: string | null;
  transfer_id: number | null;
  request_hash: string | null;
}

/**
 * Locks the wallets (lowest id first) and reads the accounts that only take pending credits,
 * with the transfers already made under any of `keys`: one statement. Accounts never used are
 * opened first (a second statement, then this one again).
 */
async function lockAccounts(tx: Tx, wallets: Owner[], credited: Owner[], keys: string[]) {
  const balances = new Map<string, { id: number; balance: number }>();
  const existing = new Map<string, { id: number; requestHash: string }>();
  const take = async (toLock: Owner[], toRead: Owner[]) => {
    const found = rows<AccountRow>(
      await tx.execute(sql`
        with l as (
          select id, kind, user_id, processor, balance from ${ledgerAccounts} where ${toLock.length > 0 ? anyOwner(toLock) : sql`false`} order by id for no key update
        ), r as (
          select id, kind, user_id, processor, balance from ${ledgerAccounts} where ${toRead.length > 0 ? anyOwner(toRead) : sql`false`}
        )
        select id, kind, user_id, processor, balance, null::text as key, null::integer as transfer_id, null::text as request_hash from l
        union all select id, kind, user_id, processor, balance, null, null, null from r
        union all select null, null, null, null, null, ${ledgerTransfers.idempotencyKey}, ${ledgerTransfers.id}, ${ledgerTransfers.requestHash}
          from ${ledgerTransfers} where ${ledgerTransfers.idempotencyKey} = any(${pgArray(keys)}::text[])`),
    );
    for (const row of found) {
      if (row.key !== null) existing.set(row.key, { id: Number(row.transfer_id), requestHash: row.request_hash! });
      else balances.set(accountKey({ kind: row.kind as Owner['kind'], userId: row.user_id === null ? null : Number(row.user_id), processor: row.processor }), { id: Number(row.id), balance: Number(row.balance) });
    }
  };
  await take(wallets, credited);
  const missing = [...wallets, ...credited].filter((owner) => !balances.has(accountKey(owner)));
  if (missing.length > 0) {
    // As `transfer` does: concurrent first uses meet on the unique index, the later one waits.
    await tx
      .insert(ledgerAccounts)
      .values(missing.map((o) => ({ kind: o.kind, userId: o.userId, processor: o.processor, allowNegative: outsideWorld.has(o.kind) })))
      .onConflictDoNothing();
    const keyOf = new Set(missing.map(accountKey));
    await take(
      wallets.filter((o) => keyOf.has(accountKey(o))),
      credited.filter((o) => keyOf.has(accountKey(o))),
    );
  }
  for (const owner of [...wallets, ...credited]) if (!balances.has(accountKey(owner))) throw new Error(`Ledger account ${accountKey(owner)} could not be opened`);
  return { balances, existing };
}

/**
 * Checks a batch of payments (each as `pay` would, in the order given) and takes their locks,
 * in the caller's transaction. Nothing is written: `writePayments` writes the accepted ones.
 */
export async function planPayments(tx: Tx, inputs: readonly PaymentInput[]): Promise<PaymentPlan> {
  for (const input of inputs) {
    const { fanAmount, earnerCents } = input;
    if (!Number.isSafeInteger(fanAmount) || !Number.isSafeInteger(earnerCents) || earnerCents < 0 || fanAmount < earnerCents || fanAmount <= 0) {
      throw new Error(`A payment needs 0 < earnerCents <= fanAmount, got ${earnerCents} of ${fanAmount}`);
    }
    if (!batchable(input)) throw new Error('Only spends on the platform are paid in a batch');
  }
  if (inputs.length === 0) return { items: [], accountIds: new Map() };
  const at = inputs[0]!.via.at;
  const fanIds = [...new Set(inputs.map((input) => input.fanId))].sort((a, b) => a - b);
  const controls = await lockControls(tx, fanIds, at);

  const wallets = fanIds.map((id) => ownerOf(account.wallet(id)));
  const creditedKeys = new Map<string, Owner>();
  for (const input of inputs) {
    const referrer = controls.get(input.fanId)?.referrer_id;
    for (const ref of [account.earnings(input.earnerId), account.fees, ...(referrer === null || referrer === undefined ? [] : [account.earnings(Number(referrer))])]) {
      const owner = ownerOf(ref);
      creditedKeys.set(accountKey(owner), owner);
    }
  }
  const { balances, existing } = await lockAccounts(
    tx,
    wallets,
    [...creditedKeys.values()],
    inputs.map((input) => input.key),
  );

  // Each fan's wallet and spending as the payments before this one in the batch left them.
  const wallet = new Map(fanIds.map((id) => [id, balances.get(accountKey(ownerOf(account.wallet(id))))!.balance]));
  const spent = new Map(fanIds.map((id) => [id, { day: Number(controls.get(id)?.spent_day ?? 0), month: Number(controls.get(id)?.spent_month ?? 0) }]));
  const keysTaken = new Set<string>();
  const dayStart = startOfUtcDay(at).getTime();
  const items = inputs.map((input): PlannedPayment => {
    const made = existing.get(input.key);
    if (made !== undefined) {
      if (made.requestHash !== requestHash({ key: input.key, kind: input.kind, legs: [], fingerprint: fingerprintOf(input) })) return { status: 'refused', error: new AppError('idempotency-conflict') };
      return { status: 'replayed', transferId: made.id };
    }
    // The same key twice in one batch: `pay` answers the second once the batch committed.
    if (keysTaken.has(input.key)) return { status: 'alone' };
    const row = controls.get(input.fanId);
    if (row === undefined) throw new Error(`Spending controls of user ${input.fanId} could not be read`);
    const cooldown = dateOrNull(row.cooldown_until);
    if (cooldown !== null && cooldown.getTime() > input.via.at.getTime()) return { status: 'refused', error: new AppError('spending-cooldown', { body: { until: cooldown.getTime() } }) };
    const limits = limitsAt(
      {
        dailyLimit: row.daily_limit,
        monthlyLimit: row.monthly_limit,
        dailyLimitNext: row.daily_limit_next,
        dailyLimitNextAt: dateOrNull(row.daily_limit_next_at),
        monthlyLimitNext: row.monthly_limit_next,
        monthlyLimitNextAt: dateOrNull(row.monthly_limit_next_at),
      },
      input.via.at,
    );
    const sums = spent.get(input.fanId)!;
    if (limits.daily !== null || limits.monthly !== null) {
      // The sums were read for the batch's day: a payment made on another (a batch across midnight) is left to `pay`.
      if (startOfUtcDay(input.via.at).getTime() !== dayStart) return { status: 'alone' };
      if (limits.daily !== null && sums.day + input.fanAmount > limits.daily) {
        return { status: 'refused', error: new AppError('spending-limit', { body: { period: 'day', limit: limits.daily, remaining: Math.max(0, limits.daily - sums.day) } }) };
      }
      if (limits.monthly !== null && sums.month + input.fanAmount > limits.monthly) {
        return { status: 'refused', error: new AppError('spending-limit', { body: { period: 'month', limit: limits.monthly, remaining: Math.max(0, limits.monthly - sums.month) } }) };
      }
    }
    const balance = wallet.get(input.fanId)!;
    if (balance - input.fanAmount < 0) return { status: 'refused', error: new AppError('noMoney') };
    wallet.set(input.fanId, balance - input.fanAmount);
    sums.day += input.fanAmount;
    sums.month += input.fanAmount;
    keysTaken.add(input.key);
    const referrerId = row.referrer_id === null ? null : Number(row.referrer_id);
    const { legs: fees, affiliate } = feeLegs(input.fanId, input.fanAmount - input.earnerCents, referrerId);
    const legs: Leg[] = [{ account: account.wallet(input.fanId), amount: -input.fanAmount }];
    if (input.earnerCents > 0) legs.push({ account: account.earnings(input.earnerId), amount: input.earnerCents });
    legs.push(...fees);
    return { status: 'accepted', input, legs, meta: { ...input.meta, ...(affiliate > 0 ? { affiliateId: referrerId, affiliateCents: affiliate } : {}) }, walletAfter: balance - input.fanAmount };
  });
  return { items, accountIds: new Map([...balances].map(([k, row]) => [k, row.id])) };
}

/**
 * Writes the accepted payments of a plan that `keep` names (by index), with the meta the caller
 * adds to each (`extraMeta`, such as the message it paid for, which only exists once stored):
 * one statement. Answers each written payment's transfer id by index. Throws (and the caller's
 * transaction rolls back) if any of them could not be written whole.
 */
export async function writePayments(
  tx: Tx,
  plan: PaymentPlan,
  keep: Iterable<number>,
  extraMeta: (index: number) => Record<string, string | number | null> = () => ({}),
): Promise<Map<number, number>> {
  const written = new Map<number, number>();
  const chosen = [...keep].filter((i) => plan.items[i]?.status === 'accepted');
  if (chosen.length === 0) return written;
  const t = { ord: [] as number[], key: [] as string[], hash: [] as string[], kind: [] as string[], fan: [] as number[], earner: [] as number[], meta: [] as string[], at: [] as string[], amount: [] as number[], earned: [] as number[] };
  const entries = { ord: [] as number[], account: [] as number[], amount: [] as number[] };
  const pending = { ord: [] as number[], account: [] as number[], amount: [] as number[] };
  const debits = new Map<number, number>();
  for (const i of chosen) {
    const item = plan.items[i] as Accepted;
    const { input } = item;
    const extra = extraMeta(i);
    t.ord.push(i);
    t.key.push(input.key);
    // The request as `pay` hashes it: the caller's meta with what it adds, never the affiliate's share.
    t.hash.push(requestHash({ key: input.key, kind: input.kind, legs: [], fingerprint: fingerprintOf({ ...input, meta: { ...input.meta, ...extra } }) }));
    t.kind.push(input.kind);
    t.fan.push(input.fanId);
    t.earner.push(input.earnerId);
    t.meta.push(JSON.stringify({ ...item.meta, ...extra }));
    t.at.push(input.via.at.toISOString());
    t.amount.push(input.fanAmount);
    t.earned.push(input.earnerCents);
    const net = new Map<number, number>();
    for (const leg of item.legs) {
      const id = plan.accountIds.get(accountKey(ownerOf(leg.account)))!;
      entries.ord.push(i);
      entries.account.push(id);
      entries.amount.push(leg.amount);
      net.set(id, (net.get(id) ?? 0) + leg.amount);
    }
    for (const [id, amount] of net) {
      // The wallet is debited in its stored balance; earnings and fees take pending credits.
      if (amount < 0) debits.set(id, (debits.get(id) ?? 0) + amount);
      else if (amount > 0) {
        pending.ord.push(i);
        pending.account.push(id);
        pending.amount.push(amount);
      }
    }
  }
  const link = linkOfFanSql(sql`tv.user_id`, sql`tv.counterparty_id`, sql`tv.at`);
  const [result] = rows<{ transfers: number; entries: number; pending: number; updated: number; spends: number; ids: string | { ord: number; id: number }[] | null }>(
    await tx.execute(sql`
      with v as (
        select * from unnest(${pgArray(t.ord)}::int[], ${pgArray(t.key)}::text[], ${pgArray(t.hash)}::text[], ${pgArray(t.kind)}::text[], ${pgArray(t.fan)}::int[],
          ${pgArray(t.earner)}::int[], ${pgArray(t.meta)}::jsonb[], ${pgArray(t.at)}::timestamptz[], ${pgArray(t.amount)}::int[], ${pgArray(t.earned)}::bigint[])
          as v(ord, key, hash, kind, user_id, counterparty_id, meta, at, amount, earned)
      ), t as (
        insert into ${ledgerTransfers} (idempotency_key, request_hash, kind, user_id, counterparty_id, meta)
        select key, hash, kind, user_id, counterparty_id, meta from v order by ord
        on conflict do nothing
        returning id, idempotency_key
      ), tv as (
        select t.id, v.* from t join v on v.key = t.idempotency_key
      ), u as (
        update ${ledgerAccounts} as a set balance = a.balance + w.amount
        from unnest(${pgArray([...debits.keys()])}::int[], ${pgArray([...debits.values()])}::bigint[]) as w(id, amount)
        where a.id = w.id
        returning a.id
      ), e as (
        insert into ${ledgerEntries} (transfer_id, account_id, amount)
        select tv.id, l.account_id, l.amount from unnest(${pgArray(entries.ord)}::int[], ${pgArray(entries.account)}::int[], ${pgArray(entries.amount)}::bigint[]) as l(ord, account_id, amount)
        join tv on tv.ord = l.ord
        returning 1
      ), p as (
        insert into ${ledgerPendingCredits} (transfer_id, account_id, amount)
        select tv.id, c.account_id, c.amount from unnest(${pgArray(pending.ord)}::int[], ${pgArray(pending.account)}::int[], ${pgArray(pending.amount)}::bigint[]) as c(ord, account_id, amount)
        join tv on tv.ord = c.ord
        returning 1
      ), s as (
        insert into ${spends} (user_id, kind, amount, creator_id, origin, confirmed, transfer_key, hold_id, created_at)
        select tv.user_id, tv.kind, tv.amount, tv.counterparty_id, null, false, tv.key, null, tv.at from tv
        on conflict do nothing
        returning 1
      ), x as (
        insert into ${spendAttributions} (transfer_id, creator_id, fan_id, kind, earned_cents, origin, link_id, created_at)
        select tv.id, tv.counterparty_id, tv.user_id, tv.kind, tv.earned, null, ${link}, tv.at from tv
        on conflict do nothing
        returning 1
      )
      select (select count(*) from t)::integer as transfers, (select count(*) from e)::integer as entries, (select count(*) from p)::integer as pending,
        (select count(*) from u)::integer as updated, (select count(*) from s)::integer as spends,
        (select json_agg(json_build_object('ord', tv.ord, 'id', tv.id)) from tv) as ids`),
  );
  const counts = result!;
  if (
    Number(counts.transfers) !== chosen.length ||
    Number(counts.entries) !== entries.ord.length ||
    Number(counts.pending) !== pending.ord.length ||
    Number(counts.updated) !== debits.size ||
    Number(counts.spends) !== chosen.length
  ) {
    throw new Error(
      `A batch of ${chosen.length} payments wrote ${counts.transfers} transfers, ${counts.entries} of ${entries.ord.length} entries, ${counts.pending} of ${pending.ord.length} pending credits, ${counts.updated} of ${debits.size} balances and ${counts.spends} spends`,
    );
  }
  const ids = typeof counts.ids === 'string' ? (JSON.parse(counts.ids) as { ord: number; id: number }[]) : (counts.ids ?? []);
  for (const { ord, id } of ids) written.set(Number(ord), Number(id));
  return written;
}

import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Balance, Card, CreditPackage, Transaction } from '../../../../lib/contract/payments';
import type { AppContext } from '../../context';
import { rowsOf } from '../../db';
import { creditPackages, ledgerAccounts, ledgerEntries, ledgerHolds, ledgerPendingCredits, ledgerTransfers, paymentCards, paymentOrders, payoutRequests, users } from '../../db/schema';
import { AppError } from '../../errors';
import { moneyUsersById } from './people';

/** The credit packages offered on the top-up screen: `cValue` credits for `gValue` cents; the larger ones carry a bonus. */
export const creditPackageCatalogue: readonly { cValue: number; gValue: number }[] = [
  { cValue: 500, gValue: 500 },
  { cValue: 1000, gValue: 1000 },
  { cValue: 2100, gValue: 2000 },
  { cValue: 5500, gValue: 5000 },
  { cValue: 11500, gValue: 10000 },
];

/** A paid call's money: the holds of its minutes (and their settlements, on the earnings side). */
export function isCallTransfer(row: { kind: string; meta: Record<string, string | number | null> } | undefined): boolean {
  if (row === undefined) return false;
  return row.kind === 'call' || (['hold', 'hold-settle', 'hold-release'].includes(row.kind) && row.meta.purpose === 'call');
}

/** Wallet history page size (SPEC §9). */
export const TRANSACTIONS_PAGE = 30;

/** Reference data, not demo content: the packages are created whenever the table is empty. */
export async function ensureCreditPackages(ctx: AppContext): Promise<void> {
  const [{ count } = { count: 0 }] = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(creditPackages);
  if (count > 0) return;
  await ctx.db.insert(creditPackages).values(creditPackageCatalogue.map((pkg, index) => ({ ...pkg, sortOrder: index })));
}

export function createPaymentService(ctx: AppContext) {
  const db = ctx.db;

  async function packages(): Promise<CreditPackage[]> {
    return db
      .select({ id: creditPackages.id, cValue: creditPackages.cValue, gValue: creditPackages.gValue })
      .from(creditPackages)
      .where(eq(creditPackages.active, true))
      .orderBy(asc(creditPackages.sortOrder), asc(creditPackages.id));
  }

  async function creditPackage(id: number): Promise<CreditPackage> {
    const [found] = await db
      .select({ id: creditPackages.id, cValue: creditPackages.cValue, gValue: creditPackages.gValue })
      .from(creditPackages)
      .where(and(eq(creditPackages.id, id), eq(creditPackages.active, true)));
    if (!found) throw new AppError('package-not-found');
    return found;
  }

  /**
   * A user's balances in one statement (it runs after every payment, for each side with a
   * socket open): the wallet and earnings with their pending credits, the payouts asked for,
   * the time of the latest ledger entry, whether a top-up was ever paid, and the earnings
   * acknowledged. The latest entry is looked for among each account's newest entries by id
   * (its index), not in all of them: an entry's time is its transaction's start, so a newer id
   * can carry an older time, but never behind 64 others of one account.
   */
  /**
   * The balances of `userIds`, one statement for them all: the wallet and earnings with their
   * pending credits, the payout asked for, the latest entry's time, whether credits were ever
   * bought, and the earnings acknowledged. A user never seen reads as all zeros.
   */
  async function balances(userIds: readonly number[]): Promise<Map<number, Balance>> {
    const found = rowsOf<{ user_id: number; wallet: string | null; earnings: string | null; payout: string; latest: Date | string | null; paid: boolean; acked: number | string | null; seen: Date | string | null }>(
      await db.execute(sql`
        select q.user_id,
          (select (a.balance + coalesce((select sum(p.amount) from ${ledgerPendingCredits} p where p.account_id = a.id), 0))::bigint
            from ${ledgerAccounts} a where a.user_id = q.user_id and a.kind = 'wallet') as wallet,
          (select (a.balance + coalesce((select sum(p.amount) from ${ledgerPendingCredits} p where p.account_id = a.id), 0))::bigint
            from ${ledgerAccounts} a where a.user_id = q.user_id and a.kind = 'earnings') as earnings,
          (select coalesce(sum(${payoutRequests.amount}), 0)::bigint from ${payoutRequests} where ${payoutRequests.userId} = q.user_id and ${payoutRequests.status} = 'requested') as payout,
          (select max(e.created_at) from ${ledgerAccounts} la cross join lateral (
            select created_at from ${ledgerEntries} where ${ledgerEntries.accountId} = la.id order by ${ledgerEntries.id} desc limit 64) e
            where la.user_id = q.user_id) as latest,
          exists (select 1 from ${paymentOrders} where ${paymentOrders.userId} = q.user_id and ${paymentOrders.purpose} = 'credits' and ${paymentOrders.status} = 'paid') as paid,
          u.earnings_acked as acked, u.first_earnings_seen_at as seen
        from unnest(${`{${[...new Set(userIds)].map((id) => Math.trunc(id)).join(',')}}`}::int[]) as q(user_id) left join ${users} u on u.id = q.user_id`),
    );
    return new Map(
      found.map((row) => {
        const gBalance = Number(row.wallet ?? 0);
        const cBalance = Number(row.earnings ?? 0);
        const latest = row.latest ?? null;
        const balance: Balance = {
          gBalance,
          cBalance,
          cPayout: Number(row.payout ?? 0),
          ts: latest === null ? 0 : new Date(latest).getTime(),
          isFirst: !(row.paid ?? false),
          myCbalance: cBalance,
          myCbalance_acked: Math.max(0, Math.min(Number(row.acked ?? 0), cBalance)),
          firstEarningsSeen: (row.seen ?? null) !== null,
        };
        return [Number(row.user_id), balance];
      }),
    );
  }

  async function balance(userId: number): Promise<Balance> {
    return (await balances([userId])).get(userId)!;
  }

  async function cards(userId: number): Promise<Card[]> {
    const rows = await db
      .select()
      .from(paymentCards)
      .where(and(eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt)))
      .orderBy(desc(paymentCards.createdAt), desc(paymentCards.id));
    return rows.map((row) => ({
      id: row.id,
      cardId: `${row.brand} •••• ${row.last4}`,
      brand: row.brand,
      last4: row.last4,
      expMonth: row.expMonth,
      expYear: row.expYear,
      pgw: row.processor,
    }));
  }

  async function deleteCard(userId: number, cardId: number): Promise<void> {
    const deleted = await db
      .update(paymentCards)
      .set({ deletedAt: ctx.clock.now() })
      .where(and(eq(paymentCards.id, cardId), eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt)))
      .returning({ id: paymentCards.id });
    if (deleted.length === 0) throw new AppError('card-not-found');
  }

  /**
   * The viewer's wallet lines, newest first: one line per transfer, signed from the viewer's side.
   *
   * Money set aside (a paid call's minute is held from the wallet, then paid to the creator or
   * given back) shows as what it came to: a hold given back in full leaves no line, neither the
   * hold nor its release; a hold that was paid — or is still held, during the call — is one line,
   * a `call` for a call's minute. So the lines add up to the wallet at every moment.
   */
  async function transactions(userId: number, options: { ts?: number; limit?: number }): Promise<Transaction[]> {
    const [wallet] = await db
      .select({ id: ledgerAccounts.id })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.kind, 'wallet'), eq(ledgerAccounts.userId, userId)))
      .limit(1);
    if (!wallet) return [];
    const walletId = wallet.id;
    const limit = options.limit ?? TRANSACTIONS_PAGE;
    const at = sql<Date>`max(${ledgerEntries.createdAt})`;
    const lines = await db
      .select({
        transferId: ledgerEntries.transferId,
        amount: sql<string>`sum(${ledgerEntries.amount})`,
        at: sql<string>`max(${ledgerEntries.createdAt})`,
      })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.accountId, walletId),
          options.ts === undefined ? undefined : lt(ledgerEntries.createdAt, new Date(options.ts)),
          sql`not exists (
            select 1 from ${ledgerTransfers} t
            join ${ledgerHolds} h on h.id = (case when t.kind in ('hold', 'hold-release') then (t.meta->>'holdId')::integer end)
            join ${ledgerTransfers} r on r.idempotency_key = 'hold-release:' || h.id
            join ${ledgerEntries} re on re.transfer_id = r.id and re.account_id = ${walletId} and re.amount = h.amount
            where t.id = ${ledgerEntries.transferId})`,
        ),
      )
      .groupBy(ledgerEntries.transferId)
      .orderBy(desc(at), desc(ledgerEntries.transferId))
      .limit(limit);
    if (lines.length === 0) return [];
    const transfers = await db
      .select({ id: ledgerTransfers.id, kind: ledgerTransfers.kind, userId: ledgerTransfers.userId, counterpartyId: ledgerTransfers.counterpartyId, meta: ledgerTransfers.meta })
      .from(ledgerTransfers)
      .where(
        inArray(
          ledgerTransfers.id,
          lines.map((line) => line.transferId),
        ),
      );
    const byId = new Map(transfers.map((row) => [row.id, row]));
    const otherOf = (row: (typeof transfers)[number] | undefined) => {
      if (!row) return null;
      const other = row.userId === userId ? row.counterpartyId : row.userId;
      return other === userId ? null : other;
    };
    const otherIds = [...new Set(lines.map((line) => otherOf(byId.get(line.transferId))).filter((id): id is number => id !== null))];
    const personById = await moneyUsersById(db, otherIds);
    // A top-up line shows the money its card was charged beside the credits it bought.
    const orderIds = transfers.filter((row) => row.kind === 'topup' && typeof row.meta?.orderId === 'string').map((row) => String(row.meta!.orderId));
    const charged = new Map(
      orderIds.length === 0
        ? []
        : (await db.select({ id: paymentOrders.id, amount: paymentOrders.amount }).from(paymentOrders).where(inArray(paymentOrders.id, orderIds))).map((o) => [o.id, o.amount] as const),
    );
    const integerOf = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null);
    return lines.map((line) => {
      const row = byId.get(line.transferId);
      const other = otherOf(row);
      const meta = row?.meta ?? {};
      const mediaId = integerOf(meta.mediaId);
      return {
        id: line.transferId,
        transactionType: isCallTransfer(row) ? 'call' : (row?.kind ?? 'correction'),
        transferType: isCallTransfer(row) ? 'call' : 'credits',
        amountCents: Number(line.amount),
        user: other === null ? null : (personById.get(other) ?? null),
        giftId: integerOf(meta.giftId),
        postId: integerOf(meta.postId),
        media: mediaId === null ? null : { mediaId },
        site: typeof meta.site === 'string' ? meta.site : null,
        chargedCents: row?.kind === 'topup' && typeof meta.orderId === 'string' ? (charged.get(meta.orderId) ?? null) : null,
        ts: new Date(line.at).getTime(),
      };
    });
  }

  return { packages, creditPackage, balance, balances, cards, deleteCard, transactions };
}

export type PaymentService = ReturnType<typeof createPaymentService>;

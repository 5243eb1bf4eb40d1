import { and, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { EarningsAckBody, Payout, PayoutBody, Transaction } from '../../../../lib/contract/payments';
import type { PublicProfile } from '../../../../lib/contract/users';
import type { AppContext } from '../../context';
import { blocks, ledgerAccounts, ledgerEntries, ledgerTransfers, media, payoutRequests, users } from '../../db/schema';
import { AppError } from '../../errors';
import { account, accountId, balanceOf, inTransaction, transfer } from '../../ledger';
import { toPublicProfile } from '../users/domain';
import { profileColumns } from '../users/service';
import { MIN_PAYOUT_CENTS, PAYOUT_RESEND_WINDOW_MS, toEarningsLine } from './domain';

type PayoutRow = typeof payoutRequests.$inferSelect;

function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    amount: row.amount,
    method: row.method as Payout['method'],
    status: row.status as Payout['status'],
    ts: row.createdAt.getTime(),
  };
}

/**
 * A creator's earnings (SPEC §7 Payments and earnings): the history of the earnings account,
 * payout requests the platform pays by PayPal or card, the earnings badge acknowledgement and
 * the affiliate programme.
 */
export function createEarningsService(ctx: AppContext) {
  const { db } = ctx;

  /** Lines of `viewerId`'s earnings account matching `where`, newest first (the owner matched as the accounts' owner index has it). */
  async function earningsLines(viewerId: number, where: SQL | undefined, limit: number, offset: number): Promise<Transaction[]> {
    const rows = await db
      .select({
        entryId: ledgerEntries.id,
        amount: ledgerEntries.amount,
        createdAt: ledgerEntries.createdAt,
        kind: ledgerTransfers.kind,
        meta: ledgerTransfers.meta,
        payerId: ledgerTransfers.userId,
        counterpartyId: ledgerTransfers.counterpartyId,
        payerUsername: users.username,
        payerDisplayName: users.displayName,
        payerAvatarHash: media.hash,
        payerAvatarFormat: media.format,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, and(eq(ledgerAccounts.id, ledgerEntries.accountId), eq(ledgerAccounts.kind, 'earnings'), sql`coalesce(${ledgerAccounts.userId}, 0) = ${viewerId}`))
      .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
      .leftJoin(users, eq(users.id, ledgerTransfers.userId))
      .leftJoin(media, eq(media.id, users.avatarMediaId))
      .where(where)
      .orderBy(desc(ledgerEntries.id))
      .limit(limit)
      .offset(offset);
    return rows.map((row) => toEarningsLine(row, viewerId));
  }

  return {
    /** The viewer's earnings lines, newest first. */
    list: (viewerId: number, limit: number, offset: number) => earningsLines(viewerId, undefined, limit, offset),

    /** The fee shares the viewer earned as an affiliate, optionally only those from one referred user. */
    affiliateLines(viewerId: number, fromUserId: number | undefined, limit: number, offset: number) {
      return earningsLines(
        viewerId,
        and(sql`${ledgerTransfers.meta}->>'affiliateId' = ${String(viewerId)}`, fromUserId === undefined ? undefined : eq(ledgerTransfers.userId, fromUserId)),
        limit,
        offset,
      );
    },

    /**
     * Asks for `cPayout` cents of the earnings to be paid out: the request row and the move of
     * the money from earnings to payouts-pending land together or not at all. The creator's
     * earnings account is locked first, so two requests of one creator run one after the
     * other; an identical request within the resend window answers the first instead.
     */
    async requestPayout(viewerId: number, body: PayoutBody): Promise<Payout> {
      if (body.cPayout < MIN_PAYOUT_CENTS) throw new AppError('payout-too-small', { body: { minimum: MIN_PAYOUT_CENTS } });
      const method = body.method ?? 'paypal';
      return inTransaction(db, async (tx) => {
        const earnings = await accountId(tx, account.earnings(viewerId));
        await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.id, earnings)).for('update');
        const now = ctx.clock.now();
        const [recent] = await tx
          .select()
          .from(payoutRequests)
          .where(
            and(
              eq(payoutRequests.userId, viewerId),
              eq(payoutRequests.amount, body.cPayout),
              eq(payoutRequests.method, method),
              gt(payoutRequests.createdAt, new Date(now.getTime() - PAYOUT_RESEND_WINDOW_MS)),
            ),
          )
          .orderBy(desc(payoutRequests.id))
          .limit(1);
        if (recent !== undefined) return toPayout(recent);
        const [created] = await tx.insert(payoutRequests).values({ userId: viewerId, amount: body.cPayout, method, createdAt: now }).returning();
        if (created === undefined) throw new Error('The payout request was not recorded');
        await transfer(tx, {
          key: `payout:${created.id}`,
          kind: 'payout',
          userId: viewerId,
          meta: { payoutId: created.id },
          legs: [
            { account: account.earnings(viewerId), amount: -body.cPayout },
            { account: account.payoutsPending, amount: body.cPayout },
          ],
        });
        return toPayout(created);
      });
    },

    /** The viewer's payout requests, newest first. */
    async payouts(viewerId: number, limit: number, offset: number): Promise<Payout[]> {
      const rows = await db
        .select()
        .from(payoutRequests)
        .where(eq(payoutRequests.userId, viewerId))
        .orderBy(desc(payoutRequests.createdAt), desc(payoutRequests.id))
        .limit(limit)
        .offset(offset);
      return rows.map(toPayout);
    },

    /** The platform paid a request: its money leaves payouts-pending, once however often this is called. */
    async markPayoutSent(payoutId: number): Promise<Payout> {
      return inTransaction(db, async (tx) => {
        const [row] = await tx.select().from(payoutRequests).where(eq(payoutRequests.id, payoutId)).for('update');
        if (row === undefined) throw new AppError('not-found');
        if (row.status === 'sent') return toPayout(row);
        if (row.status !== 'requested') throw new AppError('invalid-request', { body: { status: row.status } });
        await transfer(tx, {
          key: `payout-sent:${row.id}`,
          kind: 'payout-sent',
          userId: row.userId,
          meta: { payoutId: row.id },
          legs: [
            { account: account.payoutsPending, amount: -row.amount },
            { account: account.payoutsSent, amount: row.amount },
          ],
        });
        const [sent] = await tx.update(payoutRequests).set({ status: 'sent', sentAt: ctx.clock.now() }).where(eq(payoutRequests.id, row.id)).returning();
        return toPayout(sent ?? row);
      });
    },

    /** The creator saw earnings up to `cBalance` (never more than the balance), and maybe dismissed the first-earnings popup. */
    async acknowledge(viewerId: number, body: EarningsAckBody): Promise<void> {
      const balance = await balanceOf(db, account.earnings(viewerId));
      await db
        .update(users)
        .set({
          earningsAcked: Math.min(body.cBalance, balance),
          ...(body.firstEarningsSeen ? { firstEarningsSeenAt: sql`coalesce(${users.firstEarningsSeenAt}, ${ctx.clock.now().toISOString()}::timestamptz)` } : {}),
        })
        .where(eq(users.id, viewerId));
    },

    /** Records who brought the viewer: once, never oneself, and only someone who exists. */
    async setReferrer(viewerId: number, code: string): Promise<void> {
      const [referrer] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.username}) = lower(${code})`, isNull(users.deletedAt), isNull(users.bannedAt)))
        .limit(1);
      if (referrer === undefined) throw new AppError('user-not-found');
      if (referrer.id === viewerId) throw new AppError('cannot-target-self');
      await db
        .update(users)
        .set({ referrerId: referrer.id })
        .where(and(eq(users.id, viewerId), isNull(users.referrerId)));
    },

    /**
     * The public profile behind an affiliate code (the referrer's username). As on every
     * profile read, someone who blocked the viewer has vanished for them (user-not-found),
     * unless the viewer blocked them too.
     */
    async affiliateProfile(code: string, viewerId: number | null = null): Promise<PublicProfile> {
      const [row] = await db
        .select(profileColumns)
        .from(users)
        .leftJoin(media, eq(media.id, users.avatarMediaId))
        .where(
          and(
            sql`lower(${users.username}) = lower(${code})`,
            isNull(users.deletedAt),
            isNull(users.bannedAt),
            viewerId === null
              ? undefined
              : sql`not (exists(select 1 from ${blocks} where ${blocks.blockerId} = ${users.id} and ${blocks.blockedId} = ${viewerId})
                    and not exists(select 1 from ${blocks} where ${blocks.blockerId} = ${viewerId} and ${blocks.blockedId} = ${users.id}))`,
          ),
        )
        .limit(1);
      if (row === undefined) throw new AppError('user-not-found');
      return toPublicProfile(row, ctx.clock.now().getTime());
    },
  };
}

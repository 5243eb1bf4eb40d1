import { and, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { AdminPayout, EarningsAckBody, Payout, PayoutBody, PayoutDestination, PayoutDestinationBody, Transaction } from '../../../../lib/contract/payments';
import type { AppContext } from '../../context';
import { ledgerAccounts, ledgerEntries, ledgerTransfers, media, paymentCards, payoutDestinations, payoutRequests, users } from '../../db/schema';
import { AppError } from '../../errors';
import { account, accountId, balanceOf, inTransaction, transfer } from '../../ledger';
import { emailPattern } from '../settings/domain';
import { cardLabel, MIN_PAYOUT_CENTS, PAYOUT_RESEND_WINDOW_MS, toEarningsLine } from './domain';

type PayoutRow = typeof payoutRequests.$inferSelect;

function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    amount: row.amount,
    method: row.method as Payout['method'],
    status: row.status as Payout['status'],
    ts: row.createdAt.getTime(),
    destination: row.destination,
  };
}

const payoutEmail = new RegExp(emailPattern);

/**
 * A creator's earnings (SPEC §7 Payments and earnings): the history of the earnings account,
 * payout requests the platform pays by PayPal or card, the earnings badge acknowledgement and
 * the affiliate lines (the relation itself: features/invites).
 */
export function createEarningsService(ctx: AppContext) {
  const { db } = ctx;

  /**
   * A creator who invited the fan who pays her gets two entries in her earnings from one
   * transfer: her price and her affiliate share. This names the share's entry (the last entry
   * of the transfer in that account for the `affiliateCents` of its meta); null for every
   * other transfer, whose affiliate share is the only entry the affiliate has in it.
   */
  const ownAffiliateEntryId = (viewerId: number) =>
    sql<number | null>`case when ${ledgerTransfers.counterpartyId} = ${viewerId} and ${ledgerTransfers.meta}->>'affiliateId' = ${String(viewerId)} then (
      select max(e2.id) from ledger_entries e2
      where e2.transfer_id = ${ledgerEntries.transferId} and e2.account_id = ${ledgerEntries.accountId} and e2.amount::text = ${ledgerTransfers.meta}->>'affiliateCents'
    ) end`.mapWith((value: unknown) => (value === null ? null : Number(value)));

  /** Lines of `viewerId`'s earnings account matching `where`, newest first (the owner matched as the accounts' owner index has it). */
  async function earningsLines(viewerId: number, where: SQL | undefined, limit: number, offset: number): Promise<Transaction[]> {
    const rows = await db
      .select({
        ownAffiliateEntryId: ownAffiliateEntryId(viewerId),
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

  /**
   * The viewer's payout destination as shown to them. A card removed from their saved cards
   * no longer counts: the destination is then to be chosen again.
   */
  async function destinationOf(tx: Pick<typeof db, 'select'>, viewerId: number): Promise<PayoutDestination> {
    const [row] = await tx
      .select({ method: payoutDestinations.method, paypalEmail: payoutDestinations.paypalEmail, cardId: paymentCards.id, brand: paymentCards.brand, last4: paymentCards.last4 })
      .from(payoutDestinations)
      .leftJoin(paymentCards, and(eq(paymentCards.id, payoutDestinations.cardId), eq(paymentCards.userId, viewerId), isNull(paymentCards.deletedAt)))
      .where(eq(payoutDestinations.userId, viewerId))
      .limit(1);
    const card = row?.cardId != null && row.brand !== null && row.last4 !== null ? { id: row.cardId, brand: row.brand, last4: row.last4 } : null;
    const method = row?.method === 'paypal' && row.paypalEmail ? 'paypal' : row?.method === 'card' && card ? 'card' : null;
    return { method, paypalEmail: row?.paypalEmail ?? null, card: method === 'card' ? card : null, minimumCents: MIN_PAYOUT_CENTS };
  }

  return {
    /** Where the viewer's payouts go, and the smallest payout. */
    destination: (viewerId: number) => destinationOf(db, viewerId),

    /**
     * Keeps where the viewer's payouts go: a PayPal e-mail (invalid-email), or one of the
     * viewer's own saved cards (card-not-found for anyone else's).
     */
    async setDestination(viewerId: number, body: PayoutDestinationBody): Promise<PayoutDestination> {
      const now = ctx.clock.now();
      if (body.method === 'paypal') {
        const email = body.paypalEmail?.trim() ?? '';
        if (!payoutEmail.test(email)) throw new AppError('invalid-email', { body: { field: 'paypalEmail' } });
        await db
          .insert(payoutDestinations)
          .values({ userId: viewerId, method: 'paypal', paypalEmail: email, cardId: null, updatedAt: now })
          .onConflictDoUpdate({ target: payoutDestinations.userId, set: { method: 'paypal', paypalEmail: email, cardId: null, updatedAt: now } });
      } else {
        if (body.cardId === undefined) throw new AppError('card-not-found');
        const [card] = await db
          .select({ id: paymentCards.id })
          .from(paymentCards)
          .where(and(eq(paymentCards.id, body.cardId), eq(paymentCards.userId, viewerId), isNull(paymentCards.deletedAt)))
          .limit(1);
        if (card === undefined) throw new AppError('card-not-found');
        // The PayPal address is kept, so switching back needs no typing.
        await db
          .insert(payoutDestinations)
          .values({ userId: viewerId, method: 'card', cardId: card.id, updatedAt: now })
          .onConflictDoUpdate({ target: payoutDestinations.userId, set: { method: 'card', cardId: card.id, updatedAt: now } });
      }
      return destinationOf(db, viewerId);
    },

    /** The viewer's earnings lines, newest first. */
    list: (viewerId: number, limit: number, offset: number) => earningsLines(viewerId, undefined, limit, offset),

    /** The fee shares the viewer earned as an affiliate, optionally only those from one referred user. */
    affiliateLines(viewerId: number, fromUserId: number | undefined, limit: number, offset: number) {
      return earningsLines(
        viewerId,
        and(
          sql`${ledgerTransfers.meta}->>'affiliateId' = ${String(viewerId)}`,
          // From a fan of the viewer's own, only the share's entry, not the price she earned.
          sql`(${ledgerTransfers.counterpartyId} is distinct from ${viewerId} or ${ledgerEntries.id} = ${ownAffiliateEntryId(viewerId)})`,
          fromUserId === undefined ? undefined : eq(ledgerTransfers.userId, fromUserId),
        ),
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
      return inTransaction(db, async (tx) => {
        // The money goes where the creator said, as it is now; the request keeps that address.
        const kept = await destinationOf(tx, viewerId);
        const method = body.method ?? kept.method ?? 'paypal';
        const destination = method === 'paypal' && kept.method === 'paypal' ? kept.paypalEmail : method === 'card' && kept.card ? cardLabel(kept.card) : null;
        if (destination === null) throw new AppError('payout-destination-required', { body: { method } });
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
        const [created] = await tx.insert(payoutRequests).values({ userId: viewerId, amount: body.cPayout, method, destination, createdAt: now }).returning();
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

    /** Administrators: payout requests with who asked; `requested` oldest first (the order to pay them), `all` newest first. */
    async adminPayouts(status: 'requested' | 'all', limit: number, offset: number): Promise<AdminPayout[]> {
      const rows = await db
        .select({ payout: payoutRequests, username: users.username, displayName: users.displayName })
        .from(payoutRequests)
        .innerJoin(users, eq(users.id, payoutRequests.userId))
        .where(status === 'requested' ? eq(payoutRequests.status, 'requested') : undefined)
        .orderBy(...(status === 'requested' ? [payoutRequests.createdAt, payoutRequests.id] : [desc(payoutRequests.createdAt), desc(payoutRequests.id)]))
        .limit(limit)
        .offset(offset);
      return rows.map(({ payout, username, displayName }) => ({
        ...toPayout(payout),
        sentAt: payout.sentAt?.getTime() ?? null,
        user: { id: payout.userId, username, displayName },
      }));
    },

    /** The platform paid a request: its money leaves payouts-pending, once however often this is called. */
    /**
     * An administrator paid a payout request: its money leaves the pending payouts. The ledger's
     * transfer (append-only) names who decided it, as every decision of the moderation is logged.
     */
    async markPayoutSent(payoutId: number, adminId: number): Promise<Payout> {
      return inTransaction(db, async (tx) => {
        const [row] = await tx.select().from(payoutRequests).where(eq(payoutRequests.id, payoutId)).for('update');
        if (row === undefined) throw new AppError('not-found');
        if (row.status === 'sent') return toPayout(row);
        if (row.status !== 'requested') throw new AppError('invalid-request', { body: { status: row.status } });
        await transfer(tx, {
          key: `payout-sent:${row.id}`,
          kind: 'payout-sent',
          userId: row.userId,
          meta: { payoutId: row.id, adminId },
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
  };
}

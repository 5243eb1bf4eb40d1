import { eq } from 'drizzle-orm';
import { balancesChanged } from '../../realtime/after-commit';
import { SubscriptionStatus, type NotificationType } from '../../../../lib/contract/constants';
import type { AppContext } from '../../context';
import { subscriptions, type SubscriptionRow } from '../../db/schema';
import { pay, type SpendVia, type Tx } from '../../ledger';
import { recordNotification } from '../notifications/service';
import { recordDiscount, type FirstMonthDiscount } from '../links/discounts';
import { isRunning, isWaitingFirstPayment, nextPeriodEnd, periodKey } from './domain';

/** A subscription row, locked for the rest of the transaction. */
export async function lockSubscription(tx: Tx, id: number): Promise<SubscriptionRow | undefined> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
  return row;
}

/**
 * Whether a payment arriving now is due: the first payment, a resubscribe after an expiry, or
 * a renewal whose period has ended. A running subscription whose period is already paid is
 * not charged again.
 */
export function paymentDue(row: SubscriptionRow, now: Date): boolean {
  if (isWaitingFirstPayment(row.status) || row.status === SubscriptionStatus.expired) return true;
  if (row.status === SubscriptionStatus.active || row.status === SubscriptionStatus.paymentFailed) {
    return row.periodEnd === null || row.periodEnd.getTime() <= now.getTime();
  }
  return false;
}

export interface PeriodPayment {
  /** Credits taken from the fan's wallet (the offer's price with the salt). */
  fanAmount: number;
  /** Extra references for the ledger line (the card order that brought the credits). */
  meta?: Record<string, string | number | null>;
  /** Where the fan pays and on whose word: a renewal or a card payment is one he agreed to before. */
  via: SpendVia;
  /** What a confirmation popup shows of the offer (its name). */
  offerName?: string;
  /**
   * A tracking link's first-month discount the server found for this payment
   * (links/discounts.ts): she earns its cents, the fan pays them with the salt (`fanAmount`).
   */
  discount?: FirstMonthDiscount | null;
}

/**
 * Pays the next period of a locked subscription from the fan's wallet and makes it active
 * until one calendar month later (at a link's first-month discount when one is given). The ledger key `subscription:{id}:{period}` makes a second
 * payment of the same period move nothing and change nothing. Refused with `noMoney` (the
 * caller's transaction rolls back) when the wallet cannot pay.
 */
export async function payPeriod(tx: Tx, ctx: AppContext, row: SubscriptionRow, payment: PeriodPayment): Promise<{ replayed: boolean; row: SubscriptionRow }> {
  const now = ctx.clock.now();
  const period = row.periodsPaid + 1;
  const { replayed, transferId } = await pay(tx, {
    key: periodKey(row.id, period),
    kind: 'subscription',
    fanId: row.subscriberId,
    earnerId: row.creatorId,
    fanAmount: payment.fanAmount,
    earnerCents: payment.discount?.earnerCents ?? row.priceCents,
    meta: { offerId: row.offerId, subscriptionId: row.id, ...(payment.discount ? { discountPercent: payment.discount.percent } : {}), ...payment.meta },
    via: payment.via,
    subject: `offer:${row.offerId}`,
    details: { offerId: row.offerId, offerName: payment.offerName ?? null },
  });
  if (replayed) return { replayed, row };
  if (payment.discount) await recordDiscount(tx, row, payment.discount, transferId, now);
  balancesChanged(tx, [row.subscriberId, row.creatorId]);
  const starting = !isRunning(row.status);
  const [updated] = await tx
    .update(subscriptions)
    .set({ status: SubscriptionStatus.active, periodEnd: nextPeriodEnd(row.status, row.periodEnd, now), periodsPaid: period, failedAt: null, updatedAt: now })
    .where(eq(subscriptions.id, row.id))
    .returning();
  if (starting) await recordNotification(tx, { userId: row.creatorId, type: 'subscriptionNewSubscriber', fromUserId: row.subscriberId });
  return { replayed, row: updated ?? row };
}

/**
 * Records that a payment of a locked subscription did not go through. A first payment leaves
 * it waiting (the fan may try again); a renewal turns an active subscription into 23, which
 * stays active until its end date plus the grace while the renewal is retried, and tells the
 * fan once (`notify`: subscriptionPaymentFailed, or subscriptionWaitingPayment when the card
 * asks for the fan's confirmation).
 */
export async function recordPaymentFailure(tx: Tx, ctx: AppContext, row: SubscriptionRow, notify: NotificationType = 'subscriptionPaymentFailed'): Promise<void> {
  const now = ctx.clock.now();
  if (isWaitingFirstPayment(row.status)) {
    await tx.update(subscriptions).set({ status: SubscriptionStatus.waitingPayment, failedAt: now, updatedAt: now }).where(eq(subscriptions.id, row.id));
    return;
  }
  if (row.status === SubscriptionStatus.active) {
    await tx.update(subscriptions).set({ status: SubscriptionStatus.paymentFailed, failedAt: now, updatedAt: now }).where(eq(subscriptions.id, row.id));
    await recordNotification(tx, { userId: row.subscriberId, type: notify, fromUserId: row.creatorId });
    return;
  }
  if (row.status === SubscriptionStatus.paymentFailed) {
    // A retry during the grace failed again: remember when, so the next retry waits.
    await tx.update(subscriptions).set({ failedAt: now, updatedAt: now }).where(eq(subscriptions.id, row.id));
  }
}

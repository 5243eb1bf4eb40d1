import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import { SubscriptionStatus } from '../../../../lib/contract/constants';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { subscriptionOffers, subscriptions, type PaymentOrderRow, type SubscriptionRow } from '../../db/schema';
import { isSpendRefusal, type Tx } from '../../ledger';
import { lockSubscription, payPeriod, paymentDue, recordPaymentFailure } from './billing';
import { inBlock } from './blocking';
import { askOf, firstMonthDiscount } from '../links/discounts';

/**
 * Whether the subscription may still take this payment: a period is due, the order covers the
 * price, the offer stands, no block stands between the two, and (for an expired row paid late)
 * no other subscription to the creator has started meanwhile.
 */
async function mayTake(tx: Tx, ctx: AppContext, row: SubscriptionRow, order: PaymentOrderRow, fanAmount: number): Promise<boolean> {
  if (!paymentDue(row, ctx.clock.now())) return false;
  if (order.credits < fanAmount) return false;
  const [offer] = await tx.select({ id: subscriptionOffers.id }).from(subscriptionOffers).where(and(eq(subscriptionOffers.id, row.offerId), isNull(subscriptionOffers.deletedAt)));
  if (!offer || (await inBlock(tx, row.subscriberId, row.creatorId))) return false;
  if (row.status !== SubscriptionStatus.expired) return true;
  const running = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.subscriberId, row.subscriberId),
        eq(subscriptions.creatorId, row.creatorId),
        ne(subscriptions.id, row.id),
        inArray(subscriptions.status, [SubscriptionStatus.active, SubscriptionStatus.paymentFailed, SubscriptionStatus.cancelled]),
      ),
    )
    .limit(1);
  return running.length === 0;
}

/**
 * Settles a card payment made for a subscription (an order with purpose `subscription`), in
 * the transaction that decided the order.
 *
 * - `paid`: the order's credits have just reached the fan's wallet; the next period is paid
 *   from it to the creator (ledger key `subscription:{id}:{period}`) and the subscription
 *   becomes active or is extended by a month. The card the order used is kept for renewals.
 *   When the subscription cannot take the payment (its period was already paid, it was
 *   cancelled or its offer withdrawn meanwhile) nothing is taken: the credits stay in the
 *   fan's wallet.
 * - `declined`: a first payment leaves the subscription waiting for payment; a renewal marks
 *   it failed (23) and tells the fan.
 */
export async function settleSubscriptionOrder(tx: Tx, ctx: AppContext, order: PaymentOrderRow, outcome: 'paid' | 'declined'): Promise<void> {
  if (order.subscriptionId === null) return;
  const row = await lockSubscription(tx, order.subscriptionId);
  if (!row || row.subscriberId !== order.userId) return;
  if (outcome === 'declined') {
    await recordPaymentFailure(tx, ctx, row);
    return;
  }
  // A first payment brought by a link with a first-month discount on this offer pays its cents.
  const discount = await firstMonthDiscount(tx, askOf(row), { id: row.offerId, priceCents: row.priceCents }, ctx.clock.now());
  const fanAmount = fanPriceCents(discount?.earnerCents ?? row.priceCents, ctx.config.priceSalt);
  if (!(await mayTake(tx, ctx, row, order, fanAmount))) return;
  let current = row;
  if (order.cardId !== null && (order.cardId !== row.cardId || row.payWith !== 'card')) {
    const [updated] = await tx.update(subscriptions).set({ cardId: order.cardId, payWith: 'card' }).where(eq(subscriptions.id, row.id)).returning();
    current = updated ?? row;
  }
  try {
    // The card was charged on the platform's own page: a payment the fan made himself.
    await payPeriod(tx, ctx, current, { fanAmount, meta: { orderId: order.id }, via: { channel: 'recurring', at: ctx.clock.now() }, discount });
  } catch (error) {
    // His own limits or cool-down refuse it (checked before anything moved): the credits the card
    // bought stay in his wallet, and the payment failed as a declined one does.
    if (!isSpendRefusal(error)) throw error;
    await recordPaymentFailure(tx, ctx, current);
  }
}

import { and, eq, inArray, isNotNull, isNull, lt, lte, ne, or } from 'drizzle-orm';
import { SubscriptionStatus } from '../../../../lib/contract/constants';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { subscriptions, type SubscriptionRow } from '../../db/schema';
import { AppError } from '../../errors';
import { inTransaction, isSpendRefusal } from '../../ledger';
import { recordNotification } from '../notifications/service';
import { chargeSavedCard } from '../payments/orders';
import { lockSubscription, payPeriod, recordPaymentFailure } from './billing';
import { CREDITS_RENEWAL_RETRY_MS, FIRST_PAYMENT_TIMEOUT_MS, RENEWAL_GRACE_MS, RENEWAL_RETRY_MS } from './domain';

/** How many subscriptions one run looks at per kind of work, so a run stays short; the next run continues. */
const BATCH = 200;

/**
 * The key of a card renewal charge: one per period and retry day, so a run repeated in the
 * same day charges the card once, and the daily retries during the grace are new charges.
 */
function cardChargeKey(row: SubscriptionRow, now: Date): string {
  const since = row.periodEnd === null ? 0 : Math.max(0, now.getTime() - row.periodEnd.getTime());
  return `subscription:${row.id}:${row.periodsPaid + 1}:day${Math.floor(since / RENEWAL_RETRY_MS)}`;
}

/** Whether a subscription is due a renewal attempt now (a failed one is retried once a day during the grace). */
function renewalDue(row: SubscriptionRow, now: Date): boolean {
  if (row.periodEnd === null || row.periodEnd.getTime() > now.getTime()) return false;
  if (row.status === SubscriptionStatus.active) return true;
  if (row.status !== SubscriptionStatus.paymentFailed) return false;
  return row.failedAt === null || now.getTime() - row.failedAt.getTime() >= retryAfter(row.payWith);
}

function retryAfter(payWith: string): number {
  return payWith === 'card' ? RENEWAL_RETRY_MS : CREDITS_RENEWAL_RETRY_MS;
}

/** Renews one subscription from the wallet or the saved card; a failure is recorded on it. */
async function renew(ctx: AppContext, id: number): Promise<void> {
  const now = ctx.clock.now();
  const [row] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (!row || !renewalDue(row, now)) return;
  const fanAmount = fanPriceCents(row.priceCents, ctx.config.priceSalt);
  let failure: 'subscriptionPaymentFailed' | 'subscriptionWaitingPayment' = 'subscriptionPaymentFailed';

  if (row.payWith === 'card') {
    // The charge settles the subscription itself (settleSubscriptionOrder) when it is decided.
    let status = 'failed';
    if (row.cardId !== null) {
      try {
        const order = await chargeSavedCard(ctx, { userId: row.subscriberId, cardId: row.cardId, purpose: 'subscription', subscriptionId: row.id, amount: fanAmount, credits: fanAmount, key: cardChargeKey(row, now) });
        status = order.status;
      } catch (error) {
        // A card removed since, or refused by the processor's rules: the renewal failed.
        if (!(error instanceof AppError)) throw error;
      }
    }
    if (status === 'paid') return;
    if (status === 'challenge') failure = 'subscriptionWaitingPayment';
  } else {
    try {
      await inTransaction(ctx.db, async (tx) => {
        const locked = await lockSubscription(tx, id);
        if (!locked || !renewalDue(locked, now)) return;
        await payPeriod(tx, ctx, locked, { fanAmount, via: { channel: 'recurring', at: now } });
      });
      return;
    } catch (error) {
      // No money, or the fan's own limits or cool-down: the renewal failed as when the wallet is short.
      if (!isSpendRefusal(error)) throw error;
    }
  }

  await inTransaction(ctx.db, async (tx) => {
    const locked = await lockSubscription(tx, id);
    if (!locked || !renewalDue(locked, now)) return;
    await recordPaymentFailure(tx, ctx, locked, failure);
  });
}

/** Ends a subscription whose paid time is over: the fan loses access, the creator is told (and the fan, when the renewal failed). */
async function expire(ctx: AppContext, id: number, from: readonly number[], deadline: (row: SubscriptionRow) => boolean): Promise<boolean> {
  return inTransaction(ctx.db, async (tx) => {
    const row = await lockSubscription(tx, id);
    if (!row || !from.includes(row.status) || !deadline(row)) return false;
    await tx.update(subscriptions).set({ status: SubscriptionStatus.expired, updatedAt: ctx.clock.now() }).where(eq(subscriptions.id, id));
    if (row.status === SubscriptionStatus.paymentFailed) {
      await recordNotification(tx, { userId: row.subscriberId, type: 'subscriptionExpiredDuePayment', fromUserId: row.creatorId });
    }
    if (row.periodEnd !== null) await recordNotification(tx, { userId: row.creatorId, type: 'subscriptionSubscriberLost', fromUserId: row.subscriberId });
    return true;
  });
}

/**
 * The `subscription-renewals` job, at `ctx.clock.now()`:
 * - active subscriptions whose period ended are paid again (wallet or saved card) and run a
 *   month longer; a failed payment makes them 23, retried during a grace of three days;
 * - 23 past the grace, and cancelled ones past their end date, expire (50);
 * - subscriptions never paid a day after they were started expire without an end date.
 * Every step is keyed and re-checked under the row's lock, so running it twice does it once.
 */
export async function runRenewals(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  let handled = 0;

  const graceOver = new Date(now.getTime() - RENEWAL_GRACE_MS);
  const failedOut = await ctx.db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.status, SubscriptionStatus.paymentFailed), lte(subscriptions.periodEnd, graceOver)))
    .limit(BATCH);
  for (const { id } of failedOut) {
    if (await expire(ctx, id, [SubscriptionStatus.paymentFailed], (row) => row.periodEnd !== null && row.periodEnd.getTime() <= graceOver.getTime())) handled++;
  }

  const cancelledOut = await ctx.db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.status, SubscriptionStatus.cancelled), lte(subscriptions.periodEnd, now)))
    .limit(BATCH);
  for (const { id } of cancelledOut) {
    if (await expire(ctx, id, [SubscriptionStatus.cancelled], (row) => row.periodEnd !== null && row.periodEnd.getTime() <= now.getTime())) handled++;
  }

  const abandoned = new Date(now.getTime() - FIRST_PAYMENT_TIMEOUT_MS);
  const neverPaid = await ctx.db
    .update(subscriptions)
    .set({ status: SubscriptionStatus.expired, updatedAt: now })
    .where(and(inArray(subscriptions.status, [SubscriptionStatus.waitingPayment, SubscriptionStatus.processing]), lt(subscriptions.updatedAt, abandoned)))
    .returning({ id: subscriptions.id });
  handled += neverPaid.length;

  // Renewals of withdrawn offers do not happen: those subscriptions were cancelled with the offer.
  // Failed ones wait for their retry time here, so they never crowd out the active ones due.
  const retryBefore = (payWith: string) => new Date(now.getTime() - retryAfter(payWith));
  const due = await ctx.db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        isNotNull(subscriptions.periodEnd),
        lte(subscriptions.periodEnd, now),
        or(
          eq(subscriptions.status, SubscriptionStatus.active),
          and(
            eq(subscriptions.status, SubscriptionStatus.paymentFailed),
            or(
              isNull(subscriptions.failedAt),
              and(eq(subscriptions.payWith, 'card'), lte(subscriptions.failedAt, retryBefore('card'))),
              and(ne(subscriptions.payWith, 'card'), lte(subscriptions.failedAt, retryBefore('credits'))),
            ),
          ),
        ),
      ),
    )
    .orderBy(subscriptions.periodEnd)
    .limit(BATCH);
  // One subscription's trouble does not hold up the others; it is reported after the run.
  const errors: unknown[] = [];
  for (const { id } of due) {
    try {
      await renew(ctx, id);
      handled++;
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, `${errors.length} subscription renewals failed`);
  return handled;
}

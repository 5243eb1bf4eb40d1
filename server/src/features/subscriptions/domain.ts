import { SubscriptionStatus } from '../../../../lib/contract/constants';

/** Subscriptions and their lists page by this many (SPEC §9). */
export const SUBSCRIPTIONS_PAGE_SIZE = 30;

/** How long a subscription whose renewal failed stays active after its end date while the renewal is retried. */
export const RENEWAL_GRACE_MS = 3 * 24 * 60 * 60 * 1000;

/** How often, at most, a failed card renewal is charged again during the grace. */
export const RENEWAL_RETRY_MS = 24 * 60 * 60 * 1000;

/** How often, at most, a failed renewal from the wallet is tried again during the grace (a top-up renews it soon). */
export const CREDITS_RENEWAL_RETRY_MS = 60 * 60 * 1000;

/** A subscription still waiting for its first payment after this long is given up. */
export const FIRST_PAYMENT_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** How often the renewal job runs. */
export const RENEWAL_JOB_EVERY_MS = 60_000;

export const RENEWAL_JOB_NAME = 'subscription-renewals';

/** Statuses under which a subscription is running (paid or about to be): another subscribe is refused. */
export function isRunning(status: number): boolean {
  return status > 20 && status < 50;
}

/** Statuses with a first payment still outstanding. */
export function isWaitingFirstPayment(status: number): boolean {
  return status === SubscriptionStatus.waitingPayment || status === SubscriptionStatus.processing;
}

/**
 * One calendar month later, in UTC: the same day of the next month, or that month's last day
 * when it is shorter (31 January → 28 or 29 February).
 */
export function addMonth(date: Date): Date {
  const next = new Date(date.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

/**
 * The end of the period a payment made `now` buys: a running subscription continues from its
 * current end (a renewal, or a resubscribe during the grace), anything else starts now.
 */
export function nextPeriodEnd(status: number, periodEnd: Date | null, now: Date): Date {
  const base = periodEnd !== null && isRunning(status) ? periodEnd : now;
  const next = addMonth(base);
  return next.getTime() > now.getTime() ? next : addMonth(now);
}

/** The idempotency key of the payment for a subscription's `period`-th period (1-based). */
export function periodKey(subscriptionId: number, period: number): string {
  return `subscription:${subscriptionId}:${period}`;
}

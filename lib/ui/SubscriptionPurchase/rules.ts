import { SubscriptionStatus } from '../../contract/constants';
import type { Offer } from '../../contract';

/**
 * How the purchase screen treats the viewer's subscription to an offer (SPEC §4):
 * 11 (waiting for payment) and 23 (renewal failed) are paid again on the same offer;
 * 12 is being processed; above 20 and below 50 is active or pending, so no new offer is
 * started; 50 (expired) or none may subscribe.
 */
export type OfferStanding = 'none' | 'resubscribe' | 'processing' | 'active' | 'cancelled';

export function standingOf(status: number | null | undefined): OfferStanding {
  if (status == null || status >= SubscriptionStatus.expired) return 'none';
  if (status === SubscriptionStatus.waitingPayment || status === SubscriptionStatus.paymentFailed) return 'resubscribe';
  if (status === SubscriptionStatus.processing) return 'processing';
  if (status === SubscriptionStatus.cancelled) return 'cancelled';
  if (status > 20 && status < 50) return 'active';
  return 'none';
}

/** A subscription that already exists with the creator: 11 and 12 count, as do 21 to 49 (SPEC §4). */
export function holdsSubscription(status: number | null | undefined): boolean {
  if (status == null) return false;
  return status === SubscriptionStatus.waitingPayment || status === SubscriptionStatus.processing || (status > 20 && status < 50);
}

/** The offer the viewer already holds with this creator, if any; while it exists no other offer is started. */
export function heldOffer(offers: readonly Offer[]): Offer | null {
  return offers.find((offer) => holdsSubscription(offer.subscription?.subscriptionStatus)) ?? null;
}

/**
 * The subscription service, put together from its parts: the creator's offers (`offers.ts`) and
 * the fans' subscriptions with their payments and lists (`subscribing.ts`).
 */
import type { AppContext } from '../../context';
import { offerSide } from './offers';
import { subscriptionSide } from './subscribing';

export function createSubscriptionService(ctx: AppContext) {
  return { ...subscriptionSide(ctx), ...offerSide(ctx) };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;

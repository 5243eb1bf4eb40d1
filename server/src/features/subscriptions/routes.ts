import type { App, AppContext } from '../../context';
import type { Jobs } from '../../jobs';

/** Subscription offers, subscribing, renewals (SPEC §7 Subscriptions). */
export function registerSubscriptionRoutes(_app: App, _ctx: AppContext, _jobs: Jobs): void {}

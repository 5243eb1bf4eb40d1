import type { App, AppContext } from '../../context';
import type { Jobs } from '../../jobs';

/** Card payments, the wallet and its history (SPEC §7 Payments). */
export function registerPaymentRoutes(_app: App, _ctx: AppContext, _jobs: Jobs): void {}

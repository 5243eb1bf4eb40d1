import type { App, AppContext } from '../../context';

/** Gifts, tips, media unlocks, earnings and payouts (SPEC §7). */
export function registerSpendingRoutes(_app: App, _ctx: AppContext): void {}

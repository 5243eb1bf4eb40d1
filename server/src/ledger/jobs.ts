import type { Jobs } from '../jobs';
import { releaseLapsedHolds } from './holds';

/** Holds whose time ran out go back to their wallets. */
export function registerLedgerJobs(jobs: Jobs): void {
  jobs.add({ name: 'lapsed-holds', everyMs: 30_000, run: (ctx) => releaseLapsedHolds(ctx.db, ctx.clock.now()) });
}

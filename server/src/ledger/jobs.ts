import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../db';
import { ledgerAccounts, ledgerPendingCredits } from '../db/schema';
import type { Jobs } from '../jobs';
import { releaseLapsedHolds } from './holds';
import { inTransaction } from './retry';
import { foldPending } from './transfer';
import type { App } from '../context';
import type { FeatureOptions } from '../features/feature';

/**
 * The `ledger-pending-credits` job: adds pending credits to their accounts' stored balances, up
 * to `limit` accounts a run, each account locked first (lowest id first, as transfers lock
 * them), so a debit of the same account waits for it or it for the debit, never both.
 * Answers how many accounts it brought up to date.
 */
export async function foldPendingCredits(db: Database, limit = 500): Promise<number> {
  return inTransaction(db, async (tx) => {
    const locked = rowsOf<{ id: number }>(
      await tx.execute(sql`
        select a.id from ${ledgerAccounts} a
        where a.id in (select distinct ${ledgerPendingCredits.accountId} from ${ledgerPendingCredits} limit ${limit})
        order by a.id
        for no key update of a skip locked`),
    ).map((row) => Number(row.id));
    return (await foldPending(tx, locked)).size;
  });
}

/** Holds whose time ran out go back to their wallets; pending credits are added to their balances. */
export function registerLedgerJobs(jobs: Jobs): void {
  jobs.add({ name: 'lapsed-holds', everyMs: 30_000, run: (ctx) => releaseLapsedHolds(ctx.db, ctx.clock.now()) });
  jobs.add({ name: 'ledger-pending-credits', everyMs: 1_000, run: (ctx) => foldPendingCredits(ctx.db) });
}

/** The ledger as a feature of the server: its jobs; it has no routes of its own. */
export async function ledgerFeature(_app: App, { jobs }: FeatureOptions): Promise<void> {
  registerLedgerJobs(jobs);
}


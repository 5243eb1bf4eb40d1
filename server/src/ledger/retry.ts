import type { Database } from '../db';
import { isDatabaseUnavailable } from '../db/availability';
import type { Tx } from '../db/tx';

/** PostgreSQL's serialization_failure and deadlock_detected: the transaction may simply be run again. */
const retryable = new Set(['40001', '40P01']);

function sqlState(error: unknown): string | undefined {
  for (let current: unknown = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** Whether an error is one that running the same transaction again may cure. */
export function isRetryable(error: unknown): boolean {
  return retryable.has(sqlState(error) ?? '');
}

/** How often, and after how long, a transaction whose connection broke before its commit is run again. */
const reconnectDelaysMs = [100, 400, 1_000];

/**
 * Runs `work` in one database transaction, and runs it again when running it again is safe:
 * - PostgreSQL reported a serialisation failure or a deadlock (up to `attempts` times): the
 *   transaction was rolled back;
 * - the connection broke (a restart, a terminated backend, a failover) while `work` was still
 *   running, so the commit was never sent and PostgreSQL rolled everything back: tried again after
 *   a short wait, a few times, on a fresh connection from the pool.
 * A connection that breaks after `work` finished may have taken the commit with it — or not; that
 * is never run again here. It fails as `service-unavailable` and the client resends with its
 * idempotency key, which finds the transfer if the commit happened and makes it if not.
 * Everything `work` does must be safe to redo, which the ledger's idempotency keys make it.
 */
export async function inTransaction<T>(db: Database, work: (tx: Tx) => Promise<T>, attempts = 5): Promise<T> {
  let conflicts = 0;
  let reconnects = 0;
  for (;;) {
    let committing = false;
    try {
      return await db.transaction(async (tx) => {
        const result = await work(tx);
        committing = true;
        return result;
      });
    } catch (error) {
      if (isRetryable(error) && ++conflicts < attempts) {
        await new Promise((resolve) => setTimeout(resolve, 5 * conflicts + Math.random() * 20));
        continue;
      }
      if (!committing && isDatabaseUnavailable(error) && reconnects < reconnectDelaysMs.length) {
        await new Promise((resolve) => setTimeout(resolve, reconnectDelaysMs[reconnects++]));
        continue;
      }
      throw error;
    }
  }
}

/** Whether `tx` is a transaction already (drizzle's transactions can be rolled back; the database cannot). */
export function isTransaction(tx: Tx): boolean {
  return typeof (tx as { rollback?: unknown }).rollback === 'function';
}

/**
 * Runs `work` in the caller's transaction, or — when handed the database itself — in a
 * transaction of its own, so the ledger's locks and checks always share one transaction.
 */
export function withinTransaction<T>(tx: Tx, work: (tx: Tx) => Promise<T>): Promise<T> {
  return isTransaction(tx) ? work(tx) : inTransaction(tx as Database, work);
}

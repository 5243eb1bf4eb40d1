import type { Database } from '../db';
import type { Tx } from './transfer';

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

/**
 * Runs `work` in one database transaction, again (up to `attempts` times) when PostgreSQL
 * reports a serialisation failure or a deadlock. Everything `work` does must be safe to redo,
 * which the ledger's idempotency keys make it.
 */
export async function inTransaction<T>(db: Database, work: (tx: Tx) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 20));
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

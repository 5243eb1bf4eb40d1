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
      if (attempt >= attempts || !retryable.has(sqlState(error) ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 20));
    }
  }
}

/**
 * Idempotency keys. Every request that spends money or sends a message carries a key of its own
 * (a chat message's `msgId`, a spend's `idempotencyKey`); the server does the thing once per key.
 * So a try whose answer was lost goes again with the same key (harmless if it was done), and any
 * try after a final answer takes a fresh one (it is a new action).
 */
import { SdkError } from '../../errors';

/** A fresh key for one action (a UUID; 32 hex characters where `randomUUID` is missing). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Keys held per slot (what the action is about, e.g. `user:12:3` for a tip of gift 3 to user 12)
 * for as long as the action's outcome is unknown.
 */
export interface RetryKeys {
  /**
   * Calls `send` with the slot's key: `key` when the caller brings one, else the key of the
   * slot's earlier try, else a fresh one. An answer, or a refusal that is not `retryable`, ends
   * the action and frees the slot; a retryable failure (no answer) keeps the key for the next try.
   */
  run<T>(slot: string, key: string | undefined, send: (key: string) => Promise<T>): Promise<T>;
  /** Forgets every slot (a logout). */
  clear(): void;
}

export function createRetryKeys(): RetryKeys {
  const held = new Map<string, string>();
  return {
    async run(slot, key, send) {
      const idempotencyKey = key ?? held.get(slot) ?? newIdempotencyKey();
      held.set(slot, idempotencyKey);
      try {
        const result = await send(idempotencyKey);
        held.delete(slot);
        return result;
      } catch (error) {
        // Only a lost answer may have been given already; any refusal makes the next try a new one.
        if (!(error instanceof SdkError && error.retryable)) held.delete(slot);
        throw error;
      }
    },
    clear() {
      held.clear();
    },
  };
}

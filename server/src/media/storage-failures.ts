import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../errors';
import type { MediaStorage } from './storage';

/**
 * What a media store's failures mean to the person who uploaded (docs/server.md, "When storage
 * fails"): a full disk or a spent quota is `storage-full` (507), a store that cannot be reached
 * or answers with an error of its own is `service-unavailable` (503 with Retry-After). Either
 * way the request is refused whole — nothing of it stays stored — and the next one after the
 * store recovers works; neither is the client's fault, nor a 500 of ours.
 */

/** errno codes of a disk that cannot take more: no space, or the user's quota spent. */
const fullErrnos: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);
/** What S3-compatible services call a full store or a spent quota (MinIO, Ceph, quotas of R2 and B2 buckets). */
const fullServiceNames: ReadonlySet<string> = new Set(['XMinioStorageFull', 'QuotaExceeded', 'StorageQuotaExceeded', 'InsufficientStorage']);
/** A store that could not be reached, or did not answer in time. */
const unreachableErrnos: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
const unreachableServiceNames: ReadonlySet<string> = new Set(['TimeoutError', 'RequestTimeout', 'SlowDown', 'ServiceUnavailable', 'InternalError']);

/** How long a client is asked to wait before sending again to a store that is away. */
export const storageRetryAfterSeconds = 5;

type Failure = 'full' | 'unreachable';

/** `full`, `unreachable` or null (anything else: a bug, answered 500) for an error and its causes. */
export function storageFailureOf(error: unknown): Failure | null {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  let found: Failure | null = null;
  while (pending.length > 0) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, name, cause, errors, $metadata } = current as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown; $metadata?: { httpStatusCode?: unknown } };
    const status = $metadata?.httpStatusCode;
    if ((typeof code === 'string' && fullErrnos.has(code)) || (typeof name === 'string' && fullServiceNames.has(name)) || status === 507) return 'full';
    if (
      (typeof code === 'string' && unreachableErrnos.has(code)) ||
      (typeof name === 'string' && unreachableServiceNames.has(name)) ||
      (typeof status === 'number' && status >= 500)
    ) {
      found = 'unreachable';
    }
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return found;
}

/** The catalogued answer for a storage failure, or null when the error is something else. */
export function storageFailureAnswer(error: unknown): AppError | null {
  const failure = storageFailureOf(error);
  if (failure === 'full') return new AppError('storage-full');
  if (failure === 'unreachable') return new AppError('service-unavailable', { retryAfter: storageRetryAfterSeconds });
  return null;
}

/**
 * The store with its failures turned into their answers, each logged once for the operator
 * (a full disk does not mend itself). Reads and deletes of missing keys keep their meaning.
 */
export function guardStorage(storage: MediaStorage, log: FastifyBaseLogger): MediaStorage {
  const guarded = async <T>(operation: string, key: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      const answer = storageFailureAnswer(error);
      if (answer === null) throw error;
      const { code, name } = error as { code?: unknown; name?: unknown };
      log.error({ operation, key, code: code ?? name, reason: error instanceof Error ? error.message : String(error) }, answer.key === 'storage-full' ? 'media storage is full' : 'media storage unreachable');
      throw answer;
    }
  };
  return {
    put: (key, data) => guarded('put', key, () => storage.put(key, data)),
    putFile: (key, file) => guarded('put', key, () => storage.putFile(key, file)),
    open: (key, range) => guarded('open', key, () => storage.open(key, range)),
    size: (key) => guarded('size', key, () => storage.size(key)),
    exists: (key) => guarded('exists', key, () => storage.exists(key)),
    copy: (from, to) => guarded('copy', to, () => storage.copy(from, to)),
    delete: (key) => guarded('delete', key, () => storage.delete(key)),
  };
}

import type { ErrorKey } from '../../../lib/contract/errors';

/** Success without a body (statusCode 1). Frozen and shared: nothing to build per request. */
export const ok = Object.freeze({ statusCode: 1 as const });

/** Success with a body (statusCode 2). */
export function withBody<T>(body: T): { statusCode: 2; body: T } {
  return { statusCode: 2, body };
}

/** Failure with a message key (statusCode -1, or another negative code). */
export function failure(key: ErrorKey, body?: unknown, statusCode = -1) {
  return body === undefined ? { statusCode, statusText: key } : { statusCode, statusText: key, body };
}

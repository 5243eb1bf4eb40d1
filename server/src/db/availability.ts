/**
 * Whether a failure means "the database cannot be reached right now" rather than "this request
 * is wrong" or "the code is wrong": the connection was refused, reset or cut, PostgreSQL is
 * shutting down, restarting or terminated our backend (57P01 on `pg_ctl restart -m fast` and
 * `pg_terminate_backend`), or the pool could not get a connection in time. Such a failure is
 * answered 503 `service-unavailable` with `Retry-After` (docs/server.md "When the database is
 * away"), never 500, and a transaction that failed this way before its commit was sent may be
 * run again.
 */

/** SQLSTATEs of a connection that is gone or a server that will not take one. */
const unavailableStates = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '08006', // connection_failure
]);

/** Socket errors of a peer that is not there or went away. */
const unavailableErrnos = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** node-postgres says these in words only (no code). */
const unavailableMessages = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Client has encountered a connection error/,
  /^Query read timeout/,
];

/** How long a client is asked to wait before trying again while the database is away. */
export const retryAfterSeconds = 2;

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && (unavailableStates.has(code) || unavailableErrnos.has(code))) return true;
    if (typeof message === 'string' && unavailableMessages.some((pattern) => pattern.test(message))) return true;
    pending.push(cause);
    // Node reports a refused dual-stack connect as an AggregateError of both attempts.
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return false;
}

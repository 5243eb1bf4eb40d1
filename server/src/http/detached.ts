import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a route starts but does not wait for, so its answer cannot tell how long the work took
 * (a password-reset mail: looking the address up and mailing must not show whether it exists).
 * Failures are logged, never thrown into nowhere; `drain` lets the server finish the work in
 * flight before it closes the database under it.
 */
export function createDetached(log: FastifyBaseLogger) {
  const pending = new Set<Promise<void>>();
  return {
    run(work: () => Promise<unknown>, failureMessage: string): void {
      const task: Promise<void> = Promise.resolve()
        .then(work)
        .then(
          () => undefined,
          (error: unknown) => log.error({ err: error }, failureMessage),
        )
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async drain(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

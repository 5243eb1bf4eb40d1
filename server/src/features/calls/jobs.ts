import type { Jobs } from '../../jobs';
import type { CallRuntime } from './runtime';

/** How often the sweeper looks for lapsed leases and calls rung too long. */
export const CALL_SWEEP_MS = 5_000;

/**
 * The calls' sweeper (docs/calls.md "Crash safety"): live calls whose node died (their lease
 * lapsed) are closed — the minutes begun before the lease was last renewed paid once, the rest
 * of the holds given back — and ringing calls past their timeout are missed, or cancelled when
 * the caller is long gone. Idempotent: each call is closed under its row's lock, its money under
 * the ledger's keys.
 */
export function registerCallJobs(jobs: Jobs, runtime: CallRuntime): void {
  jobs.add({
    name: 'calls-sweep',
    everyMs: CALL_SWEEP_MS,
    async run() {
      const closed = [...(await runtime.service.closeLapsed()), ...(await runtime.service.sweepRinging())];
      for (const call of closed) {
        runtime.clock.forget(call.id);
        await runtime.notices.ended(call);
      }
      return closed.length;
    },
  });
}

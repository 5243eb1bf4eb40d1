/**
 * The server's notion of now. Everything that depends on time passing (subscription renewals,
 * lapsed holds, expired orders) asks the clock, so tests can move it forward instead of waiting.
 */
export interface Clock {
  now(): Date;
  /** Moves this clock forward (tests and the benchmark only; production never calls it). */
  advance(ms: number): void;
}

export function createClock(): Clock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`The clock only moves forward, got ${ms} ms`);
      offset += ms;
    },
  };
}

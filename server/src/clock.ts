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

/**
 * A clock that stands still until it is advanced: for tests whose outcome depends on how much
 * time has passed (a throttle's delay running out), where the wall clock moving on while the
 * test runs would make the answer depend on the machine's speed.
 */
export function createStoppedClock(start: number = Date.now()): Clock {
  let now = start;
  return {
    now: () => new Date(now),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`The clock only moves forward, got ${ms} ms`);
      now += ms;
    },
  };
}

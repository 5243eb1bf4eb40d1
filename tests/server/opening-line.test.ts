import { describe, expect, it } from 'vitest';
import { openingLine } from '../../server/src/realtime/opening';

/** Holds the event loop for `ms`, as a handshake's work does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // working
  }
}

describe('the sockets opening, a slice at a time (realtime/opening.ts)', () => {
  it('runs every step in order, and lets the event loop take other work between slices', async () => {
    const errors: unknown[] = [];
    const line = openingLine(4, (error) => errors.push(error));
    const ran: number[] = [];
    let ranBeforeOther = -1;
    for (let i = 0; i < 40; i++) {
      line(() => {
        // Work arriving while the crowd opens (a health probe): it waits for one slice, not for all 40 ms of steps.
        if (i === 0) setTimeout(() => (ranBeforeOther = ran.length), 0);
        busy(1);
        ran.push(i);
        if (i === 5) throw new Error('one socket failed');
      });
    }
    await new Promise<void>((resolve) => line(resolve));
    expect(ran).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(ranBeforeOther).toBeGreaterThan(0);
    expect(ranBeforeOther).toBeLessThan(10);
    expect(errors).toEqual([new Error('one socket failed')]);
  });
});

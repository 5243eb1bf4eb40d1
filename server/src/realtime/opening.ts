/**
 * The work of sockets opening, done in order a slice of the event loop at a time: a crowd
 * of thousands (a node restarted) would otherwise answer its handshakes in one go when their
 * accounts arrive together, and a health probe or a request arriving meanwhile would wait
 * behind all of them. Between slices the loop takes its I/O — the probe is answered within a
 * slice or so. A step does its work synchronously; what it waits for comes back as a new step.
 */
export function openingLine(sliceMs: number, onError: (error: unknown) => void): (step: () => void) => void {
  let steps: (() => void)[] = [];
  let next = 0;
  let scheduled = false;

  function drain(): void {
    scheduled = false;
    const until = performance.now() + sliceMs;
    while (next < steps.length) {
      const step = steps[next]!;
      next += 1;
      try {
        step();
      } catch (error) {
        onError(error);
      }
      if (performance.now() >= until) break;
    }
    if (next === steps.length) {
      steps = [];
      next = 0;
    } else {
      if (next > 1024) {
        steps = steps.slice(next);
        next = 0;
      }
      scheduled = true;
      setImmediate(drain);
    }
  }

  return (step) => {
    steps.push(step);
    if (!scheduled) {
      scheduled = true;
      setImmediate(drain);
    }
  };
}

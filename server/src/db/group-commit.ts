/**
 * Group commit (docs/performance.md "Group commit"): writes that arrive while a batch of them is
 * being written — or within the same turn of the event loop when none is — wait, and are then
 * written together by `write`, one batch at a time. A write alone therefore waits one turn at
 * most, and under load each batch takes what gathered during the last one, so its statements
 * and its commit are shared by many writes. `write` answers each item itself (each carries its
 * own promise's callbacks); a batch is at most `maxBatch` items, and two items with the same
 * `conflict` key never share one (the later waits for the next batch). Up to `concurrency`
 * batches are written at once (default 1): while one waits for its commit, the next gathers and
 * takes its first locks; batches must then take their locks in one order, as single writes do.
 */
export function groupCommit<T>(write: (batch: T[]) => Promise<void>, options: { maxBatch: number; concurrency?: number; conflict?: (item: T) => string; failed: (batch: T[], error: unknown) => void }): (item: T) => void {
  let queue: T[] = [];
  const concurrency = options.concurrency ?? 1;
  let running = 0;
  let scheduled = false;

  function schedule(): void {
    if (running >= concurrency || scheduled || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void run();
    });
  }

  async function run(): Promise<void> {
    if (running >= concurrency || queue.length === 0) return;
    running++;
    const taken = new Set<string>();
    const batch: T[] = [];
    const rest: T[] = [];
    for (const item of queue) {
      const key = options.conflict?.(item);
      if (batch.length < options.maxBatch && (key === undefined || !taken.has(key))) {
        if (key !== undefined) taken.add(key);
        batch.push(item);
      } else rest.push(item);
    }
    queue = rest;
    // The next batch may start gathering (and locking) while this one is written.
    schedule();
    try {
      await write(batch);
    } catch (error) {
      options.failed(batch, error);
    } finally {
      running--;
      schedule();
    }
  }

  return (item) => {
    queue.push(item);
    schedule();
  };
}

/**
 * Group commit (docs/performance.md "Group commit"): writes that arrive while a batch of them is
 * being written — or within the same turn of the event loop when none is — wait, and are then
 * written together by `write`, one batch at a time. A write alone therefore waits one turn at
 * most, and under load each batch takes what gathered during the last one, so its statements
 * and its commit are shared by many writes. `write` answers each item itself (each carries its
 * own promise's callbacks); a batch is at most `maxBatch` items, and two items with the same
 * `conflict` key never share one (the later waits for the next batch).
 */
export function groupCommit<T>(write: (batch: T[]) => Promise<void>, options: { maxBatch: number; conflict?: (item: T) => string; failed: (batch: T[], error: unknown) => void }): (item: T) => void {
  let queue: T[] = [];
  let running = false;
  let scheduled = false;

  function schedule(): void {
    if (running || scheduled || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void run();
    });
  }

  async function run(): Promise<void> {
    if (running || queue.length === 0) return;
    running = true;
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
    try {
      await write(batch);
    } catch (error) {
      options.failed(batch, error);
    } finally {
      running = false;
      schedule();
    }
  }

  return (item) => {
    queue.push(item);
    schedule();
  };
}

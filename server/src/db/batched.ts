/**
 * Work by key gathered into one statement: reads, or a write every key needs alike. The callers
 * of one turn of the event loop — a crowd of sockets opening at once after a node restarts, a
 * page's requests arriving together — share one round trip to the database instead of taking
 * one each, and a key asked twice in a turn is done once. Alone, a call waits only for the end
 * of the turn it was made in. `runMany` answers what it found for each key (a write: nothing).
 *
 * With `inFlight`, at most that many statements run at a time: keys asked while they run wait
 * for one to end and then go together, however many turns they came in — as a group commit
 * does. A crowd then costs a statement per round trip instead of one per turn. A key never
 * joins a statement that started before it was asked, so a read always begins after its ask.
 */
export function batched<K, V>(
  runMany: (keys: readonly K[]) => Promise<ReadonlyMap<K, V>>,
  { maxBatch = 500, inFlight = Infinity }: { maxBatch?: number; inFlight?: number } = {},
): (key: K) => Promise<V | undefined> {
  type Waiter = { resolve: (value: V | undefined) => void; reject: (error: unknown) => void };
  let pending = new Map<K, Waiter[]>();
  let scheduled = false;
  let running = 0;

  function schedule(): void {
    if (scheduled || pending.size === 0 || running >= inFlight) return;
    scheduled = true;
    setImmediate(flush);
  }

  function settled(): void {
    running -= 1;
    schedule();
  }

  function flush(): void {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    const keys = [...batch.keys()];
    let from = 0;
    for (; from < keys.length && running < inFlight; from += maxBatch) {
      const slice = keys.slice(from, from + maxBatch);
      running += 1;
      runMany(slice).then(
        (found) => {
          for (const key of slice) for (const waiter of batch.get(key)!) waiter.resolve(found.get(key));
          settled();
        },
        (error: unknown) => {
          for (const key of slice) for (const waiter of batch.get(key)!) waiter.reject(error);
          settled();
        },
      );
    }
    // What did not fit waits, first in line, for a statement to end.
    if (from < keys.length) {
      const rest = new Map<K, Waiter[]>();
      for (const key of keys.slice(from)) rest.set(key, batch.get(key)!);
      for (const [key, waiters] of pending) {
        const earlier = rest.get(key);
        if (earlier === undefined) rest.set(key, waiters);
        else earlier.push(...waiters);
      }
      pending = rest;
    }
  }

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiters = pending.get(key);
      if (waiters === undefined) pending.set(key, [{ resolve, reject }]);
      else waiters.push({ resolve, reject });
      schedule();
    });
}

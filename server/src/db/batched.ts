/**
 * Work by key gathered into one statement: reads, or a write every key needs alike. The callers
 * of one turn of the event loop — a crowd of sockets opening at once after a node restarts, a
 * page's requests arriving together — share one round trip to the database instead of taking
 * one each, and a key asked twice in a turn is done once. Alone, a call waits only for the end
 * of the turn it was made in. `runMany` answers what it found for each key (a write: nothing).
 */
export function batched<K, V>(runMany: (keys: readonly K[]) => Promise<ReadonlyMap<K, V>>, maxBatch = 500): (key: K) => Promise<V | undefined> {
  type Waiter = { resolve: (value: V | undefined) => void; reject: (error: unknown) => void };
  let pending = new Map<K, Waiter[]>();
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    const keys = [...batch.keys()];
    for (let from = 0; from < keys.length; from += maxBatch) {
      const slice = keys.slice(from, from + maxBatch);
      runMany(slice).then(
        (found) => {
          for (const key of slice) for (const waiter of batch.get(key)!) waiter.resolve(found.get(key));
        },
        (error: unknown) => {
          for (const key of slice) for (const waiter of batch.get(key)!) waiter.reject(error);
        },
      );
    }
  }

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiters = pending.get(key);
      if (waiters === undefined) pending.set(key, [{ resolve, reject }]);
      else waiters.push({ resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}

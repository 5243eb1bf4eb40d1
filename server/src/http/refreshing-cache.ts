/**
 * A cache for a few hot answers read far more often than they change (visitors' pages, the
 * account behind an access token).
 * A plain TTL cache makes every request that arrives while an entry is being rebuilt rebuild
 * it too — under load, each expiry turned into a burst of identical queries and a latency
 * spike. Here one load runs per key at a time, and an entry past its time is still answered
 * (for at most `staleMs` more) while that one load replaces it.
 */
export class RefreshingCache<K, V> {
  private readonly entries = new Map<K, { value: V; loadedAt: number }>();
  private readonly loading = new Map<K, Promise<V>>();

  constructor(
    private readonly freshMs: number,
    private readonly staleMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    const age = entry === undefined ? Infinity : this.now() - entry.loadedAt;
    if (entry !== undefined && age < this.freshMs) return entry.value;
    const pending = this.refresh(key, load);
    if (entry !== undefined && age < this.freshMs + this.staleMs) {
      // The refresh's failure is the next request's to see; this one has its answer.
      pending.catch(() => {});
      return entry.value;
    }
    return pending;
  }

  private refresh(key: K, load: () => Promise<V>): Promise<V> {
    let pending = this.loading.get(key);
    if (pending === undefined) {
      pending = load().then(
        (value) => {
          this.loading.delete(key);
          this.set(key, value);
          return value;
        },
        (error: unknown) => {
          this.loading.delete(key);
          throw error;
        },
      );
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** Drops every entry; loads under way still finish and are kept under their keys. */
  clear(): void {
    this.entries.clear();
  }

  private set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, loadedAt: this.now() });
  }
}

/**
 * A small in-process cache whose entries expire after `ttlMs` and which never holds more than
 * `maxEntries` (the oldest go first). It is meant for public reads that are hit far more often
 * than they change — a profile card embedded on a busy partner page asks for the same profile
 * with every visitor — where being a second or two behind is harmless. Writers on this node
 * call `delete`; other nodes catch up when the entry expires.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  /** Bumped by every removal: a read that began before one must not put back what it read. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Taken before reading what will be `set`: a write that removes entries while the read is on
   * its way (the read saw the row before the write committed, the writer's `delete` came
   * before the read's `set`) makes that `set` do nothing, so the old row is not kept.
   */
  mark(): number {
    return this.generation;
  }

  /** Keeps `value`; with a `mark` from before the read, only if nothing was removed since. */
  set(key: K, value: V, mark?: number): void {
    if (mark !== undefined && mark !== this.generation) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
  }

  delete(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches, e.g. a profile cached under its id and its username. */
  deleteWhere(predicate: (value: V) => boolean): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (predicate(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

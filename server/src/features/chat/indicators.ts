import { TtlCache } from '../../http/ttl-cache';

/** How long a node trusts a "these two may see each other's indicators" it read, at most. */
export const indicatorPairMs = 30_000;
const maxIndicatorPairs = 10_000;

/**
 * The pairs whose typing, upload and recording indicators a node relays without asking the
 * database again. A typist announces every few seconds, and every announcement would otherwise
 * read the conversation and the blocks. Only a yes is kept: a no is read afresh each time, so
 * the indicator works from the first stored message on; the way from yes to no (a block, a
 * deleted account, a moderator removing the pair's only message, a ban) passes through a write
 * the node answers or another node announces, or a logout, and each of those drops every pair
 * (`forget`); a change made outside the server is trusted for `indicatorPairMs` at most. A read
 * that began before a forget is not kept, so it cannot bring back what the forget dropped.
 */
export class IndicatorPairs {
  private epoch = 0;
  private readonly allowed: TtlCache<string, true>;

  constructor(
    private readonly read: (from: number, to: number) => Promise<boolean>,
    options: { ttlMs: number; maxEntries: number; now: () => number } = { ttlMs: indicatorPairMs, maxEntries: maxIndicatorPairs, now: Date.now },
  ) {
    this.allowed = new TtlCache(options.ttlMs, options.maxEntries, options.now);
  }

  forget(): void {
    this.epoch += 1;
    this.allowed.clear();
  }

  get size(): number {
    return this.allowed.size;
  }

  async allows(from: number, to: number): Promise<boolean> {
    const key = `${from}>${to}`;
    if (this.allowed.get(key) === true) return true;
    const epoch = this.epoch;
    const yes = await this.read(from, to);
    if (yes && epoch === this.epoch) this.allowed.set(key, true);
    return yes;
  }
}

import { TtlCache } from './ttl-cache';

/**
 * Where the pages of offset-paged lists ended, as this node served them. The API pages these
 * lists by `offset` (SPEC §7); a client scrolling asks for offset 0, then 15, then 30, and
 * counting each offset again would read every row above it. The page after one this node
 * served starts from that page's last row instead — a walk down the list's index from there —
 * and reads only its own rows however deep it is.
 *
 * An offset no page ended at here (another node served the one before, or it was long ago) is
 * counted from the top as before. A list that gained rows at its head meanwhile continues
 * where the reader left it rather than repeating rows pushed down.
 */
export class PageCursors<C> {
  private readonly ends: TtlCache<string, C>;

  constructor(ttlMs = 10 * 60_000, maxEntries = 20_000) {
    this.ends = new TtlCache(ttlMs, maxEntries);
  }

  /** The cursor the page at `offset` of `list` starts after, when this node served the page before it. */
  after(list: string, offset: number): C | undefined {
    return offset > 0 ? this.ends.get(`${list}|${offset}`) : undefined;
  }

  /** Notes where a full page at `offset` of `list` ended: the next page starts after `last`. */
  served(list: string, offset: number, limit: number, count: number, last: C | undefined): void {
    if (last !== undefined && count === limit) this.ends.set(`${list}|${offset + count}`, last);
  }
}

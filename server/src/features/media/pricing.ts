import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { media, type MediaRow } from '../../db/schema';
import { mediaKeys, newMediaHash } from '../../media/pipeline';
import type { Writer } from '../notifications/service';
import { needsNewAddress } from './domain';

/** What pricing needs to know of a media; callers read it under a row lock in their transaction. */
export type PricedMedia = Pick<MediaRow, 'id' | 'hash' | 'format' | 'mediaType' | 'price' | 'status'>;

/** The file work left once the transaction that priced media is over. */
export interface PriceChange {
  /** The new hash of each media that moved to one, by media id. */
  readonly newHashes: ReadonlyMap<number, string>;
  /** After commit: the free originals' files are removed, so their old addresses serve nothing. */
  settle(): Promise<void>;
  /** After a rollback: the copies made for the new addresses are removed again. */
  discard(): Promise<void>;
}

/**
 * Sets `price` on media inside `tx` — the one way every path that prices media goes (a new post
 * with a price, `PUT /api/media/{id}`), so none of them can forget the rule below.
 *
 * A free media's files were served as `public, immutable`: any cache on the way may keep them
 * for a year. A media that becomes priced therefore moves to a hash nobody has seen — its
 * files copied there now, the old ones deleted by `settle` once the new hash is committed (a
 * reader between the two still finds files under whichever hash it read). Unlock keys are
 * bound to the hash; a free media had none to lose.
 */
export async function priceMedia(ctx: AppContext, tx: Writer, rows: readonly PricedMedia[], price: number): Promise<PriceChange> {
  const moved: { row: PricedMedia; hash: string }[] = [];
  const keysOf = (row: PricedMedia, hash: string) => mediaKeys(hash, row.format, row.mediaType);
  const change: PriceChange = {
    newHashes: new Map(),
    async settle() {
      for (const { row } of moved) for (const key of keysOf(row, row.hash)) await ctx.storage.delete(key);
    },
    async discard() {
      for (const { row, hash } of moved) for (const key of keysOf(row, hash)) await ctx.storage.delete(key);
    },
  };
  try {
    for (const row of rows) {
      if (row.price === price) continue;
      if (!needsNewAddress(row.price, price, row.status)) {
        await tx.update(media).set({ price }).where(eq(media.id, row.id));
        continue;
      }
      const hash = newMediaHash();
      moved.push({ row, hash });
      const from = keysOf(row, row.hash);
      const to = keysOf(row, hash);
      // A media lacks the files of variants it has none of (a voice note's pictures): skipped.
      for (let i = 0; i < from.length; i++) await ctx.storage.copy(from[i]!, to[i]!);
      await tx.update(media).set({ price, hash }).where(eq(media.id, row.id));
      (change.newHashes as Map<number, string>).set(row.id, hash);
    }
  } catch (error) {
    await change.discard();
    throw error;
  }
  return change;
}

/** `priceMedia` inside the transaction of `withPricedMedia`: answers the new hashes by media id. */
export type PriceInTx = (rows: readonly PricedMedia[], price: number) => Promise<ReadonlyMap<number, string>>;

/**
 * Runs `work` as one transaction, in which `price` prices media (`priceMedia`), and finishes
 * their files: the old ones go after the commit, the copies after a rollback.
 */
export async function withPricedMedia<T>(ctx: AppContext, work: (tx: Writer, price: PriceInTx) => Promise<T>): Promise<T> {
  const changes: PriceChange[] = [];
  let result: T;
  try {
    result = await ctx.db.transaction((tx) =>
      work(tx, async (rows, price) => {
        const change = await priceMedia(ctx, tx, rows, price);
        changes.push(change);
        return change.newHashes;
      }),
    );
  } catch (error) {
    for (const change of changes) await change.discard();
    throw error;
  }
  for (const change of changes) await change.settle();
  return result;
}

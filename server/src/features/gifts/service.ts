import { asc, eq, sql } from 'drizzle-orm';
import type { Gift } from '../../../../lib/contract/gifts';
import type { AppContext } from '../../context';
import { gifts } from '../../db/schema';
import { renderPicture } from '../../media/images';
import { giftCatalogue, giftFolder, giftPrice, giftSvg } from './domain';

/**
 * The catalogue is reference data, not demo content: it is created whenever the table is
 * empty, and the pictures are (re)drawn whenever the media storage lacks them — a new node
 * with an empty disk in front of an existing database still serves every gift.
 */
export async function ensureGiftCatalogue(ctx: AppContext): Promise<void> {
  const [{ count } = { count: 0 }] = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(gifts);
  if (count === 0) {
    await ctx.db
      .insert(gifts)
      .values(
        giftCatalogue.map((gift, index) => ({
          name: gift.name,
          imageName: gift.imageName,
          cValue: gift.cValue,
          gValue: giftPrice(gift.cValue, ctx.config.priceSalt),
          sortOrder: index,
        })),
      )
      .onConflictDoNothing();
  }
  for (const gift of giftCatalogue) {
    const key = `${giftFolder}/${gift.imageName}`;
    if (!(await ctx.storage.exists(key))) await ctx.storage.put(key, await renderPicture(giftSvg(gift), 256));
  }
}

export function createGiftService(ctx: AppContext) {
  const list = ctx.db
    .select({ id: gifts.id, name: gifts.name, imageName: gifts.imageName, gValue: gifts.gValue, cValue: gifts.cValue })
    .from(gifts)
    .where(eq(gifts.active, true))
    .orderBy(asc(gifts.sortOrder), asc(gifts.id))
    .prepare('gifts_active');
  return {
    list: (): Promise<Gift[]> => list.execute(),
  };
}

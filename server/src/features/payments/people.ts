import { eq, inArray } from 'drizzle-orm';
import type { MoneyUser } from '../../../../lib/contract/payments';
import { media, users } from '../../db/schema';
import type { Tx } from '../../ledger';

/** The people of money lists (a wallet's lines, subscriptions, receipts, spend requests), by id. */
export async function moneyUsersById(db: Tx, ids: readonly number[]): Promise<Map<number, MoneyUser>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, username: users.username, displayName: users.displayName, hash: media.hash, format: media.format })
    .from(users)
    .leftJoin(media, eq(media.id, users.avatarMediaId))
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(
    rows.map((r) => [r.id, { id: r.id, username: r.username, displayName: r.displayName, avatarMedia: r.hash !== null && r.format !== null ? { mediaHash: r.hash, format: r.format } : null }]),
  );
}

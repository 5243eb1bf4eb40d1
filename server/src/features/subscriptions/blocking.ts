import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { SubscriptionStatus } from '../../../../lib/contract/constants';
import { blocks, subscriptions } from '../../db/schema';
import type { Tx } from '../../ledger';

/** Whether two people are in a block, either way. */
export async function inBlock(tx: Tx, a: number, b: number): Promise<boolean> {
  const found = await tx
    .select({ one: sql<number>`1` })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)), and(eq(blocks.blockerId, b), eq(blocks.blockedId, a))))
    .limit(1);
  return found.length > 0;
}

/**
 * Ends the running subscriptions between two people when one blocks the other (SPEC §4 "Block
 * confirmation: cancels subscription"): they become cancelled and are not renewed. Runs in the
 * block's transaction.
 */
export async function cancelSubscriptionsBetween(tx: Tx, a: number, b: number, now: Date): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ status: SubscriptionStatus.cancelled, updatedAt: now })
    .where(
      and(
        or(and(eq(subscriptions.subscriberId, a), eq(subscriptions.creatorId, b)), and(eq(subscriptions.subscriberId, b), eq(subscriptions.creatorId, a))),
        inArray(subscriptions.status, [SubscriptionStatus.active, SubscriptionStatus.paymentFailed]),
      ),
    );
  // Nothing was paid for these yet: they end now.
  await tx
    .update(subscriptions)
    .set({ status: SubscriptionStatus.expired, updatedAt: now })
    .where(
      and(
        or(and(eq(subscriptions.subscriberId, a), eq(subscriptions.creatorId, b)), and(eq(subscriptions.subscriberId, b), eq(subscriptions.creatorId, a))),
        inArray(subscriptions.status, [SubscriptionStatus.waitingPayment, SubscriptionStatus.processing]),
      ),
    );
}

import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { SubscriptionStatus } from '../../../../lib/contract/constants';
import type { AppContext } from '../../context';
import { linkTrials, linkVisits, subscriptionOffers, subscriptions, trackingLinks, users } from '../../db/schema';
import { AppError } from '../../errors';
import { inTransaction } from '../../ledger';
import { recordNotification } from '../notifications/service';
import { inBlock } from '../subscriptions/blocking';
import { isRunning } from '../subscriptions/domain';
import { trialOpen } from './service';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A fan takes the free trial a link carries: a subscription to its offer, running `days` days
 * with nothing paid. Once per fan and creator (`trial-used` the second time), within the link's
 * limit and time (`trial-unavailable`), never beside a running subscription to her. At its end
 * the renewal job pays the first month (`renew`: the subscription stays active) or lets it
 * expire (`end`: it is cancelled from the start, which the fan may revert to keep it).
 * Answers the subscription's id.
 */
export async function takeTrial(ctx: AppContext, fanId: number, code: string): Promise<number> {
  return inTransaction(ctx.db, async (tx) => {
    const now = ctx.clock.now();
    // The link's lock serialises the trials of one link, so its limit holds.
    const [link] = await tx.select().from(trackingLinks).where(and(eq(trackingLinks.code, code), isNull(trackingLinks.endedAt))).for('update');
    if (!link) throw new AppError('link-not-found');
    if (link.creatorId === fanId) throw new AppError('cannot-target-self');
    if (!trialOpen(link, now) || link.trialOfferId === null || link.trialDays === null) throw new AppError('trial-unavailable');
    const [offer] = await tx
      .select()
      .from(subscriptionOffers)
      .innerJoin(users, eq(users.id, subscriptionOffers.userId))
      .where(and(eq(subscriptionOffers.id, link.trialOfferId), isNull(subscriptionOffers.deletedAt), isNull(subscriptionOffers.archivedAt), isNull(users.deletedAt)));
    if (!offer || (await inBlock(tx, fanId, link.creatorId))) throw new AppError('trial-unavailable');
    if (link.trialLimit !== null) {
      const [{ taken } = { taken: 0 }] = await tx.select({ taken: sql<number>`count(*)::int` }).from(linkTrials).where(eq(linkTrials.linkId, link.id));
      if (taken >= link.trialLimit) throw new AppError('trial-unavailable');
    }
    // The fan's row first, as a subscribe locks it: a trial and a subscribe at once make one subscription.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, fanId)).for('update');
    const [used] = await tx.select({ fanId: linkTrials.fanId }).from(linkTrials).where(and(eq(linkTrials.creatorId, link.creatorId), eq(linkTrials.fanId, fanId)));
    if (used) throw new AppError('trial-used');
    const running = await tx
      .select({ status: subscriptions.status })
      .from(subscriptions)
      .where(and(eq(subscriptions.subscriberId, fanId), eq(subscriptions.creatorId, link.creatorId), ne(subscriptions.status, SubscriptionStatus.expired)));
    if (running.some((row) => isRunning(row.status))) throw new AppError('already-subscribed');
    const status = link.trialThen === 'renew' ? SubscriptionStatus.active : SubscriptionStatus.cancelled;
    const [created] = await tx
      .insert(subscriptions)
      .values({
        offerId: offer.subscription_offers.id,
        subscriberId: fanId,
        creatorId: link.creatorId,
        priceCents: offer.subscription_offers.priceCents,
        payWith: 'credits',
        status,
        periodsPaid: 0,
        periodEnd: new Date(now.getTime() + link.trialDays * DAY_MS),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: subscriptions.id });
    await tx.insert(linkTrials).values({ creatorId: link.creatorId, fanId, linkId: link.id, subscriptionId: created!.id, createdAt: now });
    // The trial counts as a visit through the link by a signed-in fan, so his later spends name it.
    await tx.insert(linkVisits).values({ linkId: link.id, visitor: `trial:${fanId}`, userId: fanId, createdAt: now });
    await recordNotification(tx, { userId: link.creatorId, type: 'subscriptionNewSubscriber', fromUserId: fanId });
    return created!.id;
  });
}

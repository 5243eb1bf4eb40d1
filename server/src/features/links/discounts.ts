import { eq, sql } from 'drizzle-orm';
import { discountedCents } from '../../../../lib/contract/rules/price';
import { and, isNull } from 'drizzle-orm';
import { linkDiscounts, subscriptionOffers, trackingLinks, type SubscriptionRow } from '../../db/schema';
import { linkThatBrought } from '../../ledger/attribution';
import type { Tx } from '../../ledger';
import { isRunning } from '../subscriptions/domain';

type LinkRow = typeof trackingLinks.$inferSelect;

/** A first-month discount the server found for a payment: the link, and the cents of the month with it. */
export interface FirstMonthDiscount {
  linkId: number;
  percent: number;
  /** What the creator earns of the discounted month (`discountedCents` of the offer's price). */
  earnerCents: number;
}

const rows = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []));

/** Whether a link's discount may still be used as to time (its count is checked under the link's lock). */
export function discountOpen(link: LinkRow, at: Date): boolean {
  return link.endedAt === null && link.discountPercent !== null && link.discountOfferId !== null && (link.discountUntil === null || link.discountUntil.getTime() > at.getTime());
}

/** The payment a discount is asked for: whose, to whom, and whether it is a subscription's first. */
export interface DiscountAsk {
  fanId: number;
  creatorId: number;
  /** A subscription's first payment: not a renewal, not the end of a free trial. */
  firstPayment: boolean;
}

/** For a subscription row about to be paid: its first payment is one never paid and not running (a trial runs). */
export function askOf(row: SubscriptionRow): DiscountAsk {
  return { fanId: row.subscriberId, creatorId: row.creatorId, firstPayment: row.periodsPaid === 0 && !isRunning(row.status) };
}

/**
 * The discount a first payment to offer `offer` gets, decided by the server alone: the tracking
 * link that brought the fan (the attribution's rule: his last visited link of hers within 30
 * days of his first visit through it) carries a first-month discount on this very offer, still
 * open (not ended, before its date, under its limit); the payment is the subscription's first;
 * and the fan never paid her a subscription nor used one of her discounts before. Nothing the
 * client sends is asked.
 *
 * With `lock` (a payment's transaction) the link's row is locked, so its limit holds against
 * fans paying at once; the caller holds the fan's row (as every subscribe does), so one fan
 * gets one discount. Without it, it only tells (a price shown before paying).
 */
export async function firstMonthDiscount(tx: Tx, ask: DiscountAsk, offer: { id: number; priceCents: number }, at: Date, lock = true): Promise<FirstMonthDiscount | null> {
  if (!ask.firstPayment) return null;
  const linkId = await linkThatBrought(tx, ask.fanId, ask.creatorId, at);
  if (linkId === null) return null;
  const query = tx.select().from(trackingLinks).where(eq(trackingLinks.id, linkId));
  const [link] = lock ? await query.for('update') : await query;
  if (!link || link.creatorId !== ask.creatorId || link.discountOfferId !== offer.id || !discountOpen(link, at)) return null;
  const [found] = rows<{ used: boolean; paid: boolean; taken: number }>(
    await tx.execute(sql`
      select
        exists (select 1 from link_discounts where creator_id = ${ask.creatorId}::integer and fan_id = ${ask.fanId}::integer) as used,
        exists (select 1 from ledger_transfers where user_id = ${ask.fanId}::integer and counterparty_id = ${ask.creatorId}::integer and kind = 'subscription') as paid,
        (select count(*)::int from link_discounts where link_id = ${link.id}::integer) as taken`),
  );
  if (!found || found.used || found.paid) return null;
  if (link.discountLimit !== null && Number(found.taken) >= link.discountLimit) return null;
  const percent = link.discountPercent!;
  return { linkId: link.id, percent, earnerCents: discountedCents(offer.priceCents, percent) };
}

/** Records that the fan used the discount, in the transaction of the payment it lowered. */
export async function recordDiscount(tx: Tx, row: SubscriptionRow, discount: FirstMonthDiscount, transferId: number, at: Date): Promise<void> {
  await tx
    .insert(linkDiscounts)
    .values({
      creatorId: row.creatorId,
      fanId: row.subscriberId,
      linkId: discount.linkId,
      subscriptionId: row.id,
      transferId,
      percent: discount.percent,
      earnedCents: discount.earnerCents,
      createdAt: at,
    })
    .onConflictDoNothing();
}

/** How many fans used each of a creator's links' discounts. */
export async function discountsTaken(tx: Tx, creatorId: number): Promise<Map<number, number>> {
  const found = await tx
    .select({ linkId: linkDiscounts.linkId, n: sql<number>`count(*)::int` })
    .from(linkDiscounts)
    .where(eq(linkDiscounts.creatorId, creatorId))
    .groupBy(linkDiscounts.linkId);
  return new Map(found.map((r) => [r.linkId, Number(r.n)]));
}

/**
 * The first-month discount `fanId`'s next subscription to `creatorId` would get now, for the
 * purchase dialog to show: the same rule as the payment's, without a lock. Null for none.
 */
export async function discountFor(tx: Tx, fanId: number, creatorId: number, at: Date): Promise<{ offerId: number; percent: number; priceCents: number; firstMonthCents: number } | null> {
  if (fanId === creatorId) return null;
  const linkId = await linkThatBrought(tx, fanId, creatorId, at);
  if (linkId === null) return null;
  const [link] = await tx.select({ offerId: trackingLinks.discountOfferId }).from(trackingLinks).where(eq(trackingLinks.id, linkId));
  if (!link || link.offerId === null) return null;
  const [offer] = await tx
    .select({ id: subscriptionOffers.id, priceCents: subscriptionOffers.priceCents })
    .from(subscriptionOffers)
    .where(and(eq(subscriptionOffers.id, link.offerId), isNull(subscriptionOffers.deletedAt), isNull(subscriptionOffers.archivedAt)));
  if (!offer) return null;
  const found = await firstMonthDiscount(tx, { fanId, creatorId, firstPayment: true }, offer, at, false);
  return found && { offerId: offer.id, percent: found.percent, priceCents: offer.priceCents, firstMonthCents: found.earnerCents };
}

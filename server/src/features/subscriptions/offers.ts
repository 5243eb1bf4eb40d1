/**
 * A creator's subscription offers: creating, changing, archiving and deleting them (a seller's
 * only, at a price step), the `offersSubscriptions` flag that follows them, and the list a
 * profile shows with what a subscriber saves on posts and the viewer's own subscription.
 */
import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { SubscriptionStatus } from '../../../../lib/contract/constants';
import type { CreateOfferBody, Offer, UpdateOfferBody } from '../../../../lib/contract/subscriptions';
import { fanPriceCents, isPriceStep } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { media, postMedia, posts, subscriptionOffers, subscriptions, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { Tx } from '../../ledger';
import { inBlock } from './blocking';

/** Statuses under which a subscriber still has the creator's content (until the end date). */
const liveStatuses = [SubscriptionStatus.active, SubscriptionStatus.paymentFailed, SubscriptionStatus.cancelled];

/** The creator's side of subscriptions: the offers. */
export function offerSide(ctx: AppContext) {
  const { db } = ctx;
  const salt = () => ctx.config.priceSalt;

  /** Offers are a seller's (SPEC §6): anyone else is asked to verify (-2 verify-required). */
  async function requireSeller(userId: number): Promise<void> {
    const [seller] = await db.select({ isSeller: users.isSeller }).from(users).where(eq(users.id, userId)).limit(1);
    if (!seller?.isSeller) throw new AppError('verify-required', { statusCode: -2, body: { field: 'subscriptionOffer' } });
  }

  /** A monthly price is a post-media price step above 0 (SPEC §9). */
  function checkOfferPrice(priceCents: number): void {
    if (priceCents <= 0 || !isPriceStep('postMedia', priceCents)) throw new AppError('invalid-price');
  }

  function offerName(raw: string): string {
    const name = raw.trim();
    if (name.length === 0) throw new AppError('invalid-request', { body: { location: 'body', field: 'name', reason: 'must not be blank' } });
    return name;
  }

  /** `offersSubscriptions` says whether the creator has an offer a fan can take (not deleted, not archived). */
  async function syncOffersFlag(tx: Tx, userId: number): Promise<void> {
    const [open] = await tx
      .select({ one: sql<number>`1` })
      .from(subscriptionOffers)
      .where(and(eq(subscriptionOffers.userId, userId), isNull(subscriptionOffers.deletedAt), isNull(subscriptionOffers.archivedAt)))
      .limit(1);
    await tx.update(users).set({ offersSubscriptions: open !== undefined }).where(eq(users.id, userId));
  }

  return {
    async createOffer(userId: number, body: CreateOfferBody): Promise<Offer> {
      await requireSeller(userId);
      checkOfferPrice(body.priceCents);
      const name = offerName(body.name);
      const now = ctx.clock.now();
      const id = await db.transaction(async (tx) => {
        const [created] = await tx.insert(subscriptionOffers).values({ userId, name, priceCents: body.priceCents, createdAt: now }).returning({ id: subscriptionOffers.id });
        await tx.update(users).set({ offersSubscriptions: true }).where(eq(users.id, userId));
        return created!.id;
      });
      const offers = await this.offers(userId, userId);
      return offers.find((offer) => offer.id === id)!;
    },

    /**
     * Changes the price and/or name of one's own offer (sellers only). New subscribers pay the
     * new price; those subscribed keep the price they subscribed at.
     */
    async updateOffer(userId: number, id: number, body: UpdateOfferBody): Promise<Offer> {
      await requireSeller(userId);
      // An update that sets nothing is a client's mistake, and the database has no empty UPDATE.
      if (body.priceCents === undefined && body.name === undefined) {
        throw new AppError('invalid-request', { body: { location: 'body', field: null, reason: 'nothing to change: give priceCents or name' } });
      }
      if (body.priceCents !== undefined) checkOfferPrice(body.priceCents);
      const name = body.name === undefined ? undefined : offerName(body.name);
      const [found] = await db
        .update(subscriptionOffers)
        .set({ ...(body.priceCents !== undefined ? { priceCents: body.priceCents } : {}), ...(name !== undefined ? { name } : {}) })
        .where(and(eq(subscriptionOffers.id, id), eq(subscriptionOffers.userId, userId), isNull(subscriptionOffers.deletedAt)))
        .returning({ id: subscriptionOffers.id });
      if (!found) throw new AppError('offer-not-found');
      return (await this.offers(userId, userId)).find((offer) => offer.id === id)!;
    },

    /**
     * Archives one's own offer (`archived` true) or offers it again (false): an archived offer
     * is shown to nobody but its creator and takes no new subscribers, while those subscribed
     * keep it and renew as before. `offersSubscriptions` follows whether any offer is open.
     */
    async archiveOffer(userId: number, id: number, archived: boolean): Promise<Offer> {
      if (!archived) await requireSeller(userId);
      const now = ctx.clock.now();
      await db.transaction(async (tx) => {
        const [offer] = await tx
          .select({ id: subscriptionOffers.id, archivedAt: subscriptionOffers.archivedAt })
          .from(subscriptionOffers)
          .where(and(eq(subscriptionOffers.id, id), eq(subscriptionOffers.userId, userId), isNull(subscriptionOffers.deletedAt)))
          .for('update');
        if (!offer) throw new AppError('offer-not-found');
        if ((offer.archivedAt !== null) !== archived) {
          await tx.update(subscriptionOffers).set({ archivedAt: archived ? now : null }).where(eq(subscriptionOffers.id, id));
        }
        await syncOffersFlag(tx, userId);
      });
      return (await this.offers(userId, userId)).find((offer) => offer.id === id)!;
    },

    /**
     * Withdraws an offer (its creator only). Its subscribers keep what they paid for until
     * their end date but are not renewed: they become cancelled (24), and those still waiting
     * for a first payment expire.
     */
    async deleteOffer(userId: number, id: number): Promise<void> {
      const now = ctx.clock.now();
      await db.transaction(async (tx) => {
        const [offer] = await tx
          .update(subscriptionOffers)
          .set({ deletedAt: now })
          .where(and(eq(subscriptionOffers.id, id), eq(subscriptionOffers.userId, userId), isNull(subscriptionOffers.deletedAt)))
          .returning({ id: subscriptionOffers.id });
        if (!offer) throw new AppError('offer-not-found');
        await tx
          .update(subscriptions)
          .set({ status: SubscriptionStatus.cancelled, updatedAt: now })
          .where(and(eq(subscriptions.offerId, id), inArray(subscriptions.status, [SubscriptionStatus.active, SubscriptionStatus.paymentFailed])));
        await tx
          .update(subscriptions)
          .set({ status: SubscriptionStatus.expired, updatedAt: now })
          .where(and(eq(subscriptions.offerId, id), inArray(subscriptions.status, [SubscriptionStatus.waitingPayment, SubscriptionStatus.processing])));
        await syncOffersFlag(tx, userId);
      });
    },

    /** A creator's active offers, with what a subscriber saves on posts and the viewer's own subscription. */
    async offers(creatorId: number, viewerId: number | null): Promise<Offer[]> {
      if (viewerId !== null && viewerId !== creatorId && (await inBlock(db, viewerId, creatorId))) return [];
      const own = viewerId === creatorId;
      const rows = await db
        .select()
        .from(subscriptionOffers)
        .innerJoin(users, eq(users.id, subscriptionOffers.userId))
        .where(
          and(
            eq(subscriptionOffers.userId, creatorId),
            isNull(subscriptionOffers.deletedAt),
            isNull(users.deletedAt),
            // Archived offers are their creator's to see (and to offer again).
            own ? undefined : isNull(subscriptionOffers.archivedAt),
          ),
        )
        .orderBy(subscriptionOffers.priceCents, subscriptionOffers.id);
      if (rows.length === 0) return [];
      const offerIds = rows.map((r) => r.subscription_offers.id);
      const now = ctx.clock.now();
      const counts = await db
        .select({ offerId: subscriptions.offerId, count: sql<number>`count(*)::int` })
        .from(subscriptions)
        .where(
          and(
            inArray(subscriptions.offerId, offerIds),
            // A failed renewal (23) still counts during its grace; the renewal job ends it afterwards.
            or(and(inArray(subscriptions.status, liveStatuses), gt(subscriptions.periodEnd, now)), eq(subscriptions.status, SubscriptionStatus.paymentFailed)),
          ),
        )
        .groupBy(subscriptions.offerId);
      const prices = await db
        .select({ price: media.price, count: sql<number>`count(*)::int` })
        .from(postMedia)
        .innerJoin(posts, eq(posts.id, postMedia.postId))
        .innerJoin(media, eq(media.id, postMedia.mediaId))
        .where(and(eq(posts.userId, creatorId), isNull(posts.deletedAt), sql`${posts.publishedAt} <= ${now}`, gt(media.price, 0)))
        .groupBy(media.price);
      const savedCents = prices.reduce((sum, p) => sum + p.price * p.count, 0);
      const savedG = prices.reduce((sum, p) => sum + fanPriceCents(p.price, salt()) * p.count, 0);
      const mine =
        viewerId === null
          ? []
          : await db
              .select()
              .from(subscriptions)
              .where(and(eq(subscriptions.subscriberId, viewerId), inArray(subscriptions.offerId, offerIds)))
              .orderBy(desc(subscriptions.id));
      return rows.map(({ subscription_offers: offer }) => {
        const held = mine.find((s) => s.offerId === offer.id);
        return {
          id: offer.id,
          userId: offer.userId,
          name: offer.name,
          priceCents: offer.priceCents,
          offerStatus: offer.archivedAt === null ? ('active' as const) : ('archived' as const),
          activeSubscribersCount: counts.find((c) => c.offerId === offer.id)?.count ?? 0,
          savedGForPosts: savedG,
          savedCentsForPosts: savedCents,
          subscription: held ? { id: held.id, subscriptionStatus: held.status, subscriptionEndDate: held.periodEnd?.getTime() ?? null } : null,
        };
      });
    },

  };
}

/**
 * A fan's subscriptions: taking an offer paid from the wallet or by card (new or saved), the
 * price quoted, cancelling and taking a cancellation back, and the lists of whom one subscribes
 * to and who subscribes to one, each subscription shown with its offer and the other person.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { SubscriptionStatus } from '../../../../lib/contract/constants';
import type { Subscription, SubscriptionCheckout, SubscriptionPayCardBody } from '../../../../lib/contract/subscriptions';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { subscriptionOffers, subscriptions, users, type SubscriptionRow } from '../../db/schema';
import { AppError } from '../../errors';
import { inTransaction, type SpendVia, type Tx } from '../../ledger';
import { chargeSavedCard, ownCard, processorsOf, startCardOrder } from '../payments/orders';
import { moneyUsersById } from '../payments/people';
import { askOf, firstMonthDiscount } from '../links/discounts';
import { payPeriod } from './billing';
import { inBlock } from './blocking';
import { isRunning, SUBSCRIPTIONS_PAGE_SIZE } from './domain';

type OfferRow = typeof subscriptionOffers.$inferSelect;

/** The columns a subscription is shown with: its offer and the other person. */
function subscriptionSelection(otherId: typeof subscriptions.creatorId | typeof subscriptions.subscriberId) {
  return {
    row: subscriptions,
    offerName: subscriptionOffers.name,
    offerDeletedAt: subscriptionOffers.deletedAt,
    otherId,
  };
}

/** The fan's side of subscriptions, and the views of them both parties read. */
export function subscriptionSide(ctx: AppContext) {
  const { db } = ctx;
  const salt = () => ctx.config.priceSalt;

  const usersById = (ids: number[]) => moneyUsersById(db, ids);

  async function present(rows: { row: SubscriptionRow; offerName: string; offerDeletedAt: Date | null; otherId: number }[]): Promise<Subscription[]> {
    const people = await usersById(rows.map((r) => r.otherId));
    return rows.map(({ row, offerName, offerDeletedAt, otherId }) => ({
      id: row.id,
      subscriptionId: row.id,
      offerId: row.offerId,
      offerUserId: row.creatorId,
      subscriberUserId: row.subscriberId,
      subscriptionStatus: row.status,
      subscriptionEndDate: row.periodEnd?.getTime() ?? null,
      offerStatus: offerDeletedAt === null ? ('active' as const) : ('deleted' as const),
      status: row.status,
      priceCents: row.priceCents,
      name: offerName,
      payWith: row.payWith === 'card' ? ('card' as const) : ('credits' as const),
      user: people.get(otherId) ?? { id: otherId, username: '', displayName: '', avatarMedia: null },
    }));
  }

  /** One subscription as `viewerId` sees it (the other person is the creator for the fan, the fan for the creator). */
  async function view(id: number, viewerId: number): Promise<Subscription> {
    const [found] = await db
      .select({ row: subscriptions, offerName: subscriptionOffers.name, offerDeletedAt: subscriptionOffers.deletedAt })
      .from(subscriptions)
      .innerJoin(subscriptionOffers, eq(subscriptionOffers.id, subscriptions.offerId))
      .where(eq(subscriptions.id, id))
      .limit(1);
    if (!found || (found.row.subscriberId !== viewerId && found.row.creatorId !== viewerId)) throw new AppError('subscription-not-found');
    const otherId = found.row.subscriberId === viewerId ? found.row.creatorId : found.row.subscriberId;
    const [shown] = await present([{ ...found, otherId }]);
    return shown!;
  }

  /** The active offer `offerId`, refused when it is the fan's own or its creator is in a block with the fan. */
  async function offerForFan(tx: Tx, fanId: number, offerId: number): Promise<OfferRow> {
    const [offer] = await tx
      .select()
      .from(subscriptionOffers)
      .innerJoin(users, eq(users.id, subscriptionOffers.userId))
      .where(and(eq(subscriptionOffers.id, offerId), isNull(subscriptionOffers.deletedAt), isNull(users.deletedAt)))
      .limit(1);
    if (!offer || (await inBlock(tx, fanId, offer.subscription_offers.userId))) throw new AppError('offer-not-found');
    // An archived offer takes no new subscribers; one already subscribed to it may pay again.
    if (offer.subscription_offers.archivedAt !== null) {
      const [held] = await tx
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(eq(subscriptions.offerId, offerId), eq(subscriptions.subscriberId, fanId), sql`${subscriptions.periodEnd} is not null`))
        .limit(1);
      if (!held) throw new AppError('offer-not-found');
    }
    if (offer.subscription_offers.userId === fanId) throw new AppError('cannot-target-self');
    return offer.subscription_offers;
  }

  /**
   * The row a new payment for `offer` goes to, locked: a subscription waiting for payment or
   * failed (23) continues; a running one (active, cancelled, failed on another offer) refuses
   * with `already-subscribed`; otherwise a new row waiting for payment. The fan's own row is
   * locked first, so two subscribes at once make one subscription.
   */
  async function rowForPayment(tx: Tx, fanId: number, offer: OfferRow, payWith: 'credits' | 'card', cardId: number | null): Promise<SubscriptionRow> {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, fanId)).for('update');
    const existing = await tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.subscriberId, fanId), eq(subscriptions.creatorId, offer.userId), ne(subscriptions.status, SubscriptionStatus.expired)))
      .orderBy(desc(subscriptions.id))
      .for('update');
    const now = ctx.clock.now();
    const mine = existing.find((row) => row.offerId === offer.id && (row.status === SubscriptionStatus.paymentFailed || !isRunning(row.status)));
    if (existing.some((row) => isRunning(row.status) && row !== mine)) throw new AppError('already-subscribed');
    // A failed subscription paid again stays 23 (still active) until the payment lands.
    const status =
      mine?.status === SubscriptionStatus.paymentFailed ? mine.status : payWith === 'card' ? SubscriptionStatus.processing : (mine?.status ?? SubscriptionStatus.waitingPayment);
    if (mine) {
      const [updated] = await tx
        .update(subscriptions)
        .set({ priceCents: offer.priceCents, payWith, cardId, status, updatedAt: now })
        .where(eq(subscriptions.id, mine.id))
        .returning();
      return updated!;
    }
    const [created] = await tx
      .insert(subscriptions)
      .values({ offerId: offer.id, subscriberId: fanId, creatorId: offer.userId, priceCents: offer.priceCents, payWith, cardId, status, createdAt: now, updatedAt: now })
      .returning();
    return created!;
  }


  async function ownSubscription(tx: Tx, viewerId: number, id: number): Promise<SubscriptionRow> {
    const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
    if (!row || row.subscriberId !== viewerId) throw new AppError('subscription-not-found');
    return row;
  }

  return {
    view,
    /**
     * Subscribes paying from the wallet: the first period (or the next one, for a failed
     * subscription paid again) is paid at once and the subscription is active for a month. A
     * first payment may be at a tracking link's first-month discount (links/discounts.ts).
     * `noMoney` leaves nothing behind.
     */
    async subscribeWithCredits(fanId: number, offerId: number, shownPriceCents: number | undefined, via: SpendVia): Promise<Subscription> {
      const id = await inTransaction(db, async (tx) => {
        const offer = await offerForFan(tx, fanId, offerId);
        const row = await rowForPayment(tx, fanId, offer, 'credits', null);
        // A link's first-month discount, found by the server; the client's shown price may be
        // the full one or the discounted one, but never less than what is charged.
        const discount = await firstMonthDiscount(tx, askOf(row), offer, ctx.clock.now());
        const charged = discount?.earnerCents ?? offer.priceCents;
        if (shownPriceCents !== undefined && shownPriceCents !== offer.priceCents && shownPriceCents !== charged) throw new AppError('price-changed');
        await payPeriod(tx, ctx, row, { fanAmount: fanPriceCents(charged, salt()), via, offerName: offer.name, discount });
        return row.id;
      });
      return view(id, fanId);
    },

    /**
     * The subscription a card payment is about to pay (status 12), locked in its own
     * transaction; the card order is made afterwards and decides it.
     */
    async prepareCardPayment(fanId: number, offerId: number, cardId: number | null): Promise<{ row: SubscriptionRow; fanAmount: number }> {
      return inTransaction(db, async (tx) => {
        const offer = await offerForFan(tx, fanId, offerId);
        const row = await rowForPayment(tx, fanId, offer, 'card', cardId);
        // The order asks for the discounted month; the order's settlement finds the discount again.
        const discount = await firstMonthDiscount(tx, askOf(row), offer, ctx.clock.now(), false);
        return { row, fanAmount: fanPriceCents(discount?.earnerCents ?? offer.priceCents, salt()) };
      });
    },

    /**
     * Subscribes paying with a new card: the subscription waits (12) for the card order, whose
     * processor page the fan is sent to; the card is kept for the renewals.
     */
    async payNewCard(fanId: number, body: SubscriptionPayCardBody, language: string): Promise<SubscriptionCheckout> {
      const processor = body.processor ?? processorsOf(ctx).default().name;
      processorsOf(ctx).get(processor);
      const { row, fanAmount } = await this.prepareCardPayment(fanId, body.offerId, null);
      const order = await startCardOrder(ctx, {
        userId: fanId,
        purpose: 'subscription',
        subscriptionId: row.id,
        amount: fanAmount,
        credits: fanAmount,
        processor,
        returnUrl: body.returnUrl ?? null,
        saveCard: true,
        language,
      });
      return { subscription: await view(row.id, fanId), order };
    },

    /**
     * Subscribes paying with a saved card, charged at once; renewals charge it again. A card
     * asking for a second step answers the order with the page to visit; a decline refuses
     * with `payment-declined`.
     */
    async payOldCard(fanId: number, body: SubscriptionPayCardBody): Promise<SubscriptionCheckout> {
      if (body.cardId === undefined) throw new AppError('card-not-found');
      const card = await ownCard(ctx, fanId, body.cardId);
      if (body.processor !== undefined && body.processor !== card.processor) throw new AppError('card-not-found');
      const { row, fanAmount } = await this.prepareCardPayment(fanId, body.offerId, card.id);
      const order = await chargeSavedCard(ctx, {
        userId: fanId,
        cardId: card.id,
        purpose: 'subscription',
        subscriptionId: row.id,
        amount: fanAmount,
        credits: fanAmount,
        // Each request is the fan's own new attempt.
        key: `subscription:${row.id}:${row.periodsPaid + 1}:card:${randomBytes(8).toString('hex')}`,
      });
      if (order.status === 'declined' || order.status === 'failed') throw new AppError('payment-declined');
      return { subscription: await view(row.id, fanId), order };
    },

    /** What a fan would pay for an offer by card, and to whom: what a site's card window shows. */
    async quote(fanId: number, offerId: number): Promise<{ creatorId: number; fanAmount: number; name: string }> {
      const offer = await offerForFan(db, fanId, offerId);
      const discount = await firstMonthDiscount(db, { fanId, creatorId: offer.userId, firstPayment: true }, offer, ctx.clock.now(), false);
      return { creatorId: offer.userId, fanAmount: fanPriceCents(discount?.earnerCents ?? offer.priceCents, salt()), name: offer.name };
    },

    /** Cancels (the subscriber only): active until the end date, not renewed. */
    async cancel(viewerId: number, id: number): Promise<Subscription> {
      await db.transaction(async (tx) => {
        const row = await ownSubscription(tx, viewerId, id);
        if (row.status === SubscriptionStatus.cancelled) return;
        if (row.status !== SubscriptionStatus.active && row.status !== SubscriptionStatus.paymentFailed) throw new AppError('subscription-not-found');
        await tx.update(subscriptions).set({ status: SubscriptionStatus.cancelled, updatedAt: ctx.clock.now() }).where(eq(subscriptions.id, id));
      });
      return view(id, viewerId);
    },

    /** Takes a cancellation back while the paid period lasts (and the offer and the relation still stand). */
    async revertCancel(viewerId: number, id: number): Promise<Subscription> {
      await db.transaction(async (tx) => {
        const row = await ownSubscription(tx, viewerId, id);
        const now = ctx.clock.now();
        if (row.status === SubscriptionStatus.active) return;
        if (row.status !== SubscriptionStatus.cancelled || row.periodEnd === null || row.periodEnd.getTime() <= now.getTime()) throw new AppError('subscription-not-found');
        const [offer] = await tx.select({ deletedAt: subscriptionOffers.deletedAt }).from(subscriptionOffers).where(eq(subscriptionOffers.id, row.offerId));
        if (!offer || offer.deletedAt !== null || (await inBlock(tx, row.subscriberId, row.creatorId))) throw new AppError('offer-not-found');
        await tx.update(subscriptions).set({ status: SubscriptionStatus.active, updatedAt: now }).where(eq(subscriptions.id, id));
      });
      return view(id, viewerId);
    },

    /** The viewer's subscriptions, newest first, 30 a page. Expired ones never paid are left out. */
    async subscribing(viewerId: number, offset: number): Promise<Subscription[]> {
      const rows = await db
        .select(subscriptionSelection(subscriptions.creatorId))
        .from(subscriptions)
        .innerJoin(subscriptionOffers, eq(subscriptionOffers.id, subscriptions.offerId))
        .where(and(eq(subscriptions.subscriberId, viewerId), or(ne(subscriptions.status, SubscriptionStatus.expired), sql`${subscriptions.periodEnd} is not null`)))
        .orderBy(desc(subscriptions.id))
        .limit(SUBSCRIPTIONS_PAGE_SIZE)
        .offset(offset);
      return present(rows);
    },

    /** The viewer's subscribers (of one offer, or all), newest first, 30 a page. Only subscriptions ever paid. */
    async subscribers(viewerId: number, offset: number, offerId: number | undefined): Promise<Subscription[]> {
      const rows = await db
        .select(subscriptionSelection(subscriptions.subscriberId))
        .from(subscriptions)
        .innerJoin(subscriptionOffers, eq(subscriptionOffers.id, subscriptions.offerId))
        .where(
          and(
            eq(subscriptions.creatorId, viewerId),
            offerId === undefined ? undefined : eq(subscriptions.offerId, offerId),
            sql`${subscriptions.periodEnd} is not null`,
          ),
        )
        .orderBy(desc(subscriptions.id))
        .limit(SUBSCRIPTIONS_PAGE_SIZE)
        .offset(offset);
      return present(rows);
    },
  };
}

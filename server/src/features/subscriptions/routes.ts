import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import {
  CreateOfferBody,
  IdParams,
  Offer,
  OfferIdParams,
  OfferList,
  OfferQuery,
  SubscribeBody,
  Subscription,
  SubscriptionCheckout,
  SubscriptionList,
  SubscriptionListQuery,
  SubscriptionPayCardBody,
  UpdateOfferBody,
} from '../../../../lib/contract/subscriptions';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../context';
import { AppError } from '../../errors';
import { ok, withBody } from '../../http/envelope';
import { pickLanguage } from '../../http/language';
import { requireVerifiedEmail, viewerOf } from '../auth/guard';
import { isTrustedReturnUrl } from '../payments/sandbox-page';
import { RENEWAL_JOB_EVERY_MS, RENEWAL_JOB_NAME } from './domain';
import { runRenewals } from './renewals';
import { createSpendRequests, siteOf } from '../spending/requests';
import { checkoutOf, toPaymentOrder } from '../payments/orders';
import { paymentOrders } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { createSubscriptionService } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

/** Subscription offers, subscribing, renewals (SPEC §7 Subscriptions). */
export async function subscriptionsFeature(app: App, { ctx, jobs }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const service = createSubscriptionService(ctx);
  const tags = ['subscriptions'];
  jobs.add({ name: RENEWAL_JOB_NAME, everyMs: RENEWAL_JOB_EVERY_MS, run: runRenewals });


  const spendRequests = createSpendRequests(ctx);

  /** A site's card subscription, paid in the platform's card window (the request it opened there). */
  const cardWindowRequest = (userId: number, body: { offerId: number; spendRequestId?: string | undefined }) =>
    body.spendRequestId === undefined ? Promise.resolve(null) : spendRequests.forCardPayment(userId, body.spendRequestId, 'subscription-card', `offer:${body.offerId}`);

  /**
   * A widget never charges a card: its card subscription is a spend request the fan pays in the
   * platform's card window; sent again with that request's id it answers what the window paid.
   */
  async function cardCheckoutOfWidget(request: FastifyRequest, offerId: number) {
    const viewer = requireVerifiedEmail(request);
    const quote = await service.quote(viewer.id, offerId);
    const orderId = await spendRequests.cardPaymentOfWidget(request, {
      kind: 'subscription-card',
      amount: quote.fanAmount,
      creatorId: quote.creatorId,
      subject: `offer:${offerId}`,
      details: { offerId, offerName: quote.name },
    });
    const [order] = await ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).limit(1);
    if (order === undefined || order.subscriptionId === null) throw new AppError('order-not-found');
    return { subscription: await service.view(order.subscriptionId, viewer.id), order: toPaymentOrder(order, await checkoutOf(ctx, order, request.language)) };
  }

  api.post(
    '/api/subscription/offer',
    {
      schema: {
        tags,
        summary: 'Make a monthly subscription offer (sellers only, else -2 verify-required); `priceCents` is a post-media price step above 0, else invalid-price',
        body: CreateOfferBody,
        response: { 200: BodyEnvelope(Offer) },
      },
    },
    async (request) => withBody(await service.createOffer(requireVerifiedEmail(request).id, request.body)),
  );

  api.delete(
    '/api/subscription/offer/:id',
    {
      schema: {
        tags,
        summary: 'Withdraw one’s own offer: its subscribers keep their paid time but are not renewed (they become 24)',
        params: IdParams,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      await service.deleteOffer(viewerOf(request).id, request.params.id);
      return ok;
    },
  );

  api.put(
    '/api/subscription/offer/:id',
    {
      schema: {
        tags,
        summary:
          'Change the price (a post-media price step above 0, else invalid-price) and/or name of one’s own offer (at least one of them, else invalid-request; sellers only, else -2 verify-required; another’s offer is offer-not-found). Subscribers keep the price they subscribed at',
        params: IdParams,
        body: UpdateOfferBody,
        response: { 200: BodyEnvelope(Offer) },
      },
    },
    async (request) => withBody(await service.updateOffer(viewerOf(request).id, request.params.id, request.body)),
  );

  api.post(
    '/api/subscription/offer/:id/archive',
    {
      schema: {
        tags,
        summary: 'Archive one’s own offer: shown to nobody else and taking no new subscribers; its subscribers keep it and renew',
        params: IdParams,
        response: { 200: BodyEnvelope(Offer) },
      },
    },
    async (request) => withBody(await service.archiveOffer(viewerOf(request).id, request.params.id, true)),
  );

  api.post(
    '/api/subscription/offer/:id/restore',
    {
      schema: { tags, summary: 'Offer an archived offer again (sellers only)', params: IdParams, response: { 200: BodyEnvelope(Offer) } },
    },
    async (request) => withBody(await service.archiveOffer(viewerOf(request).id, request.params.id, false)),
  );

  const offersSchema = {
    tags,
    summary: 'A creator’s active offers (to the creator also the archived ones), with what a subscriber saves on post media and the viewer’s own subscription',
    querystring: OfferQuery,
    response: { 200: BodyEnvelope(OfferList) },
  };
  api.get('/api/subscription/offer', { schema: offersSchema }, async (request) =>
    withBody(await service.offers(request.query.userId, viewerOf(request).id)),
  );
  api.get('/papi/subscription/offer', { schema: offersSchema }, async (request) =>
    withBody(await service.offers(request.query.userId, request.viewer?.id ?? null)),
  );

  api.post(
    '/api/subscription/subscribe/:offerId',
    {
      schema: {
        tags,
        summary:
          'Subscribe paying from the wallet (the offer’s price with the salt): active for a calendar month at once; noMoney (402) leaves nothing; already-subscribed while one runs; a failed (23) or unpaid (11) subscription continues',
        params: OfferIdParams,
        body: SubscribeBody,
        response: { 200: BodyEnvelope(Subscription) },
      },
    },
    async (request) =>
      withBody(await spendRequests.guarded(request, (via) => service.subscribeWithCredits(requireVerifiedEmail(request).id, request.params.offerId, request.body?.priceCents, via))),
  );

  api.post(
    '/api/subscription/pay-new-card',
    {
      schema: {
        tags,
        summary: 'Subscribe paying with a new card: the subscription waits (12) and `order.redirectUrl` is the processor’s page; the card is kept for renewals',
        body: SubscriptionPayCardBody,
        response: { 200: BodyEnvelope(SubscriptionCheckout) },
      },
    },
    async (request) => {
      const viewer = requireVerifiedEmail(request);
      if (siteOf(viewer) !== null) return withBody(await cardCheckoutOfWidget(request, request.body.offerId));
      const { returnUrl } = request.body;
      if (returnUrl !== undefined && !isTrustedReturnUrl(ctx, returnUrl, viewer)) {
        throw new AppError('invalid-request', { body: { location: 'body', field: 'returnUrl', reason: 'must be on the platform or the site this session was allowed on' } });
      }
      const asked = await cardWindowRequest(viewer.id, request.body);
      const checkout = await service.payNewCard(viewer.id, request.body, pickLanguage(request.headers.language ?? request.headers['accept-language']));
      await asked?.link(checkout.order.id);
      return withBody(checkout);
    },
  );

  api.post(
    '/api/subscription/pay-old-card',
    {
      schema: {
        tags,
        summary: 'Subscribe paying with a saved card (`cardId`), charged at once and at every renewal; payment-declined when refused; a second step answers `order.redirectUrl`',
        body: SubscriptionPayCardBody,
        response: { 200: BodyEnvelope(SubscriptionCheckout) },
      },
    },
    async (request) => {
      const viewer = requireVerifiedEmail(request);
      if (siteOf(viewer) !== null) return withBody(await cardCheckoutOfWidget(request, request.body.offerId));
      const asked = await cardWindowRequest(viewer.id, request.body);
      const checkout = await service.payOldCard(viewer.id, request.body);
      await asked?.link(checkout.order.id);
      return withBody(checkout);
    },
  );

  api.post(
    '/api/subscription/cancel',
    {
      schema: { tags, summary: 'Cancel one’s subscription: active until its end date (24), not renewed', body: IdParams, response: { 200: BodyEnvelope(Subscription) } },
    },
    async (request) => withBody(await service.cancel(viewerOf(request).id, request.body.id)),
  );

  api.post(
    '/api/subscription/revert-cancel',
    {
      schema: { tags, summary: 'Take a cancellation back while the paid period lasts (21 again)', body: IdParams, response: { 200: BodyEnvelope(Subscription) } },
    },
    async (request) => withBody(await service.revertCancel(viewerOf(request).id, request.body.id)),
  );

  api.get(
    '/api/subscription/subscribing',
    {
      schema: { tags, summary: 'The viewer’s subscriptions, newest first, 30 a page', querystring: SubscriptionListQuery, response: { 200: BodyEnvelope(SubscriptionList) } },
    },
    async (request) => withBody(await service.subscribing(viewerOf(request).id, request.query.offset ?? 0)),
  );

  api.get(
    '/api/subscription/subscribers',
    {
      schema: {
        tags,
        summary: 'The viewer’s subscribers (of one offer with `offerId`), newest first, 30 a page',
        querystring: SubscriptionListQuery,
        response: { 200: BodyEnvelope(SubscriptionList) },
      },
    },
    async (request) => withBody(await service.subscribers(viewerOf(request).id, request.query.offset ?? 0, request.query.offerId)),
  );

  api.get(
    '/api/subscription/:id',
    {
      schema: { tags, summary: 'One subscription (its subscriber or its creator)', params: IdParams, response: { 200: BodyEnvelope(Subscription) } },
    },
    async (request) => withBody(await service.view(request.params.id, viewerOf(request).id)),
  );
}

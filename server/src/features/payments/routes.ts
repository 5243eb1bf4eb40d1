import { and, eq } from 'drizzle-orm';
import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import {
  Balance,
  CardIdParams,
  CardList,
  CardRefBody,
  CreditPackageList,
  GopayBuyBody,
  OrderBody,
  PaymentOrder,
  PaymentResultQuery,
  PayNewCardBody,
  PayOldCardBody,
  ProcessorList,
  TransactionList,
  TransactionsQuery,
} from '../../../../lib/contract/payments';
import type { App } from '../../context';
import { paymentOrders } from '../../db/schema';
import { AppError } from '../../errors';
import { ok, withBody } from '../../http/envelope';
import { pickLanguage } from '../../http/language';
import { requireVerifiedEmail, viewerOf } from '../auth/guard';
import { applyProcessorEvent, checkoutOf, createOrder, expireOrders, orderIdForKey, payWithSavedCard, processorsOf, toPaymentOrder } from './orders';
import { SANDBOX } from './processors/sandbox';
import { isTrustedReturnUrl, registerSandboxPages, sandboxTitle } from './sandbox-page';
import { createPaymentService } from './service';
import { createSpendRequests, siteOf } from '../spending/requests';
import type { FastifyRequest } from 'fastify';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

const MERCHANT = 'Fanstage';

/**
 * Checks a JSON body kept as text the way the server's JSON parser checks every other body:
 * it must parse and must not try to set an object's prototype.
 */
function jsonProblem(text: string): 'empty' | 'invalid' | null {
  if (text.trim() === '') return 'empty';
  try {
    JSON.parse(text);
  } catch {
    return 'invalid';
  }
  return /"(?:__proto__|constructor)"\s*:/.test(text) ? 'invalid' : null;
}

/** Card payments, the wallet and its history (SPEC §7 Payments). */
export async function paymentsFeature(app: App, { ctx, jobs }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const service = createPaymentService(ctx);
  const processors = processorsOf(ctx);
  const tags = ['payments'];
  const spendRequests = createSpendRequests(ctx);

  /**
   * A widget never charges a card (its token is the partner page's): its top-up is a spend
   * request the fan pays in the platform's card window, and sent again with that request's id
   * it answers the order the window paid.
   */
  async function topUpOfWidget(request: FastifyRequest, packageId: number, cardId: number | null) {
    const pkg = await service.creditPackage(packageId);
    const orderId = await spendRequests.cardPaymentOfWidget(request, {
      kind: 'topup',
      amount: pkg.gValue,
      creatorId: null,
      subject: `package:${pkg.id}`,
      details: { packageId: pkg.id, credits: pkg.cValue, cardId },
    });
    const [order] = await ctx.db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.userId, viewerOf(request).id)));
    if (!order) throw new AppError('order-not-found');
    return toPaymentOrder(order, await checkoutOf(ctx, order, request.language));
  }

  /** The card window pays a site's top-up request: the order is linked to it, which completes it once paid. */
  const cardWindowRequest = (userId: number, body: { packageId: number; spendRequestId?: string | undefined }) =>
    body.spendRequestId === undefined ? Promise.resolve(null) : spendRequests.forCardPayment(userId, body.spendRequestId, 'topup', `package:${body.packageId}`);

  api.get(
    '/api/payments/processors',
    { schema: { tags, summary: 'The card processors a payment can go through', response: { 200: BodyEnvelope(ProcessorList) } } },
    async (request) =>
      withBody(
        processors.all().map((processor) => ({
          name: processor.name,
          title: processor.name === SANDBOX ? sandboxTitle(request.language) : processor.title,
          savedCards: processor.savedCards,
        })),
      ),
  );

  api.get(
    '/api/payments/packages',
    { schema: { tags, summary: 'Credit packages: `cValue` credits for `gValue` cents', response: { 200: BodyEnvelope(CreditPackageList) } } },
    async () => withBody(await service.packages()),
  );

  api.get(
    '/api/payments/balance',
    {
      schema: { tags, summary: 'The viewer’s credits, earnings, payouts requested, and the time of the last movement', response: { 200: BodyEnvelope(Balance) } },
    },
    async (request) => withBody(await service.balance(viewerOf(request).id)),
  );

  api.get(
    '/api/payments/cards',
    { schema: { tags, summary: 'The viewer’s saved cards (the processor keeps the card; we keep its token)', response: { 200: BodyEnvelope(CardList) } } },
    async (request) => withBody(await service.cards(viewerOf(request).id)),
  );

  api.delete(
    '/api/payments/cards/:id',
    { schema: { tags, summary: 'Forget a saved card of one’s own', params: CardIdParams, response: { 200: OkEnvelope } } },
    async (request) => {
      await service.deleteCard(viewerOf(request).id, request.params.id);
      return ok;
    },
  );

  api.delete(
    '/api/payments/cards/',
    {
      schema: { tags, summary: 'Forget a saved card of one’s own, named in the body (as DELETE /api/payments/cards/{id}); -1 card-not-found for anyone else’s', body: CardRefBody, response: { 200: OkEnvelope } },
    },
    async (request) => {
      await service.deleteCard(viewerOf(request).id, request.body.id);
      return ok;
    },
  );

  api.post(
    '/api/payments/order',
    {
      schema: { tags, summary: 'An order for a credit package (status `created`), with the processor page that pays it', body: OrderBody, response: { 200: BodyEnvelope(PaymentOrder) } },
    },
    async (request) => {
      const viewer = requireVerifiedEmail(request);
      const pkg = await service.creditPackage(request.body.packageId);
      const order = await createOrder(ctx, {
        userId: viewer.id,
        processor: processors.get(request.body.processor ?? processors.default().name).name,
        purpose: 'credits',
        packageId: pkg.id,
        amount: pkg.gValue,
        credits: pkg.cValue,
      });
      return withBody(toPaymentOrder(order, await checkoutOf(ctx, order, request.language)));
    },
  );

  api.post(
    '/api/payments/pay-new-card',
    {
      schema: {
        tags,
        summary: 'Buy a credit package with a new card: answers the order with `redirectUrl`, the processor’s page; afterwards the payer lands on `/gopay-return?id=`',
        body: PayNewCardBody,
        response: { 200: BodyEnvelope(PaymentOrder) },
      },
    },
    async (request) => {
      const viewer = requireVerifiedEmail(request);
      const body = request.body;
      if (siteOf(viewer) !== null) return withBody(await topUpOfWidget(request, body.packageId, null));
      const processor = processors.get(body.processor);
      const pkg = await service.creditPackage(body.packageId);
      const asked = await cardWindowRequest(viewer.id, body);
      if (body.returnUrl !== undefined && !isTrustedReturnUrl(ctx, body.returnUrl, viewer)) {
        throw new AppError('invalid-request', { body: { location: 'body', field: 'returnUrl', reason: 'must be on the platform or the site this session was allowed on' } });
      }
      const order = await createOrder(ctx, {
        userId: viewer.id,
        processor: processor.name,
        purpose: 'credits',
        packageId: pkg.id,
        amount: pkg.gValue,
        credits: pkg.cValue,
        saveCard: body.saveCard ?? false,
        returnUrl: body.returnUrl ?? null,
      });
      await asked?.link(order.id);
      const language = pickLanguage(body.language ?? request.headers.language);
      return withBody(toPaymentOrder(order, await checkoutOf(ctx, order, language)));
    },
  );

  api.post(
    '/api/payments/gopaybuy',
    {
      schema: {
        tags,
        summary:
          'The GoPay-style purchase of a credit package through the platform’s processor (the sandbox unless another is named): answers the order with `redirectUrl`, the gateway’s page, which returns to `/gopay-return?id=`. The same `idempotencyKey` answers the same order; with another package, -1 idempotency-conflict',
        body: GopayBuyBody,
        response: { 200: BodyEnvelope(PaymentOrder) },
      },
    },
    async (request) => {
      const viewer = requireVerifiedEmail(request);
      const body = request.body;
      const processor = processors.get(body.processor ?? processors.default().name);
      const pkg = await service.creditPackage(body.packageId);
      if (body.returnUrl !== undefined && !isTrustedReturnUrl(ctx, body.returnUrl, viewer)) {
        throw new AppError('invalid-request', { body: { location: 'body', field: 'returnUrl', reason: 'must be on the platform or the site this session was allowed on' } });
      }
      const order = await createOrder(ctx, {
        // The key is the buyer's: another person's same key names another order.
        ...(body.idempotencyKey === undefined ? {} : { id: orderIdForKey(`gopaybuy:${viewer.id}:${body.idempotencyKey}`) }),
        userId: viewer.id,
        processor: processor.name,
        purpose: 'credits',
        packageId: pkg.id,
        amount: pkg.gValue,
        credits: pkg.cValue,
        saveCard: body.saveCard ?? false,
        returnUrl: body.returnUrl ?? null,
      });
      if (order.packageId !== pkg.id || order.processor !== processor.name) throw new AppError('idempotency-conflict');
      const language = pickLanguage(body.language ?? request.headers.language);
      return withBody(toPaymentOrder(order, await checkoutOf(ctx, order, language)));
    },
  );

  api.post(
    '/api/payments/pay-old-card',
    {
      schema: {
        tags,
        summary:
          'Buy a credit package with a saved card, no page in between: answers the paid order, `payment-declined` (nothing moved), or the order in `challenge` with the page of the second step',
        body: PayOldCardBody,
        response: { 200: BodyEnvelope(PaymentOrder) },
      },
    },
    async (request) => {
      const viewer = requireVerifiedEmail(request);
      if (siteOf(viewer) !== null) return withBody(await topUpOfWidget(request, request.body.packageId, request.body.cardId));
      const pkg = await service.creditPackage(request.body.packageId);
      const asked = await cardWindowRequest(viewer.id, request.body);
      const order = await payWithSavedCard(ctx, {
        userId: viewer.id,
        cardId: request.body.cardId,
        processor: request.body.processor,
        packageId: pkg.id,
        amount: pkg.gValue,
        credits: pkg.cValue,
      });
      await asked?.link(order.id);
      if (order.status === 'declined') throw new AppError('payment-declined', { body: order });
      return withBody(order);
    },
  );

  // `GET /api/payments/{gw}result?id=`: one static route per processor, since a parameter
  // cannot share a path segment with a fixed suffix.
  for (const processor of processors.all()) {
    api.get(
      `/api/payments/${processor.name}result`,
      {
        schema: {
          tags,
          summary: `The viewer’s order paid through ${processor.name} (the return page asks it; \`processing\` means the processor has not decided yet)`,
          querystring: PaymentResultQuery,
          response: { 200: BodyEnvelope(PaymentOrder) },
        },
      },
      async (request) => {
        const viewer = viewerOf(request);
        const { id, pgwProcessor } = request.query;
        if (pgwProcessor !== undefined && pgwProcessor !== '' && pgwProcessor !== processor.name) throw new AppError('processor-unknown');
        const [order] = await ctx.db
          .select()
          .from(paymentOrders)
          .where(and(eq(paymentOrders.id, id), eq(paymentOrders.userId, viewer.id), eq(paymentOrders.processor, processor.name)));
        if (!order) throw new AppError('order-not-found');
        return withBody(toPaymentOrder(order, await checkoutOf(ctx, order, request.language)));
      },
    );
  }

  api.get(
    '/api/payments/transactions',
    {
      schema: {
        tags,
        summary: 'The viewer’s wallet history, newest first, 30 a page; `ts` pages back (exclusive)',
        querystring: TransactionsQuery,
        response: { 200: BodyEnvelope(TransactionList) },
      },
    },
    async (request) => withBody(await service.transactions(viewerOf(request).id, request.query)),
  );

  // Processors' callbacks and the sandbox's pages read bodies other routes never take: the
  // callback's exact bytes (the signature covers them) and the card form's urlencoded fields.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 65_536 }, (_request, body, done) => {
      const text = String(body);
      const problem = jsonProblem(text);
      if (problem === null) done(null, text);
      else done(Object.assign(new Error(problem === 'empty' ? 'The JSON body is empty' : 'The body is not valid JSON'), { statusCode: 400, code: problem === 'empty' ? 'FST_ERR_CTP_EMPTY_JSON_BODY' : 'FST_ERR_CTP_INVALID_JSON_BODY' }), undefined);
    });
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 65_536 }, (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(String(body))) fields[name] = value;
      done(null, fields);
    });

    for (const processor of processors.all()) {
      scope.post(
        `/papi/payments/${processor.name}/callback`,
        {
          schema: {
            tags,
            summary: `Where ${processor.name} reports a payment’s outcome; authenticated by the processor’s signature (\`invalid-signature\` otherwise) and applied once however often it is sent`,
            response: { 200: OkEnvelope },
          },
        },
        async (request) => {
          const rawBody = typeof request.body === 'string' ? request.body : '';
          const event = await processor.verifyCallback({ headers: request.headers, rawBody });
          await applyProcessorEvent(ctx, processor.name, event);
          return ok;
        },
      );
    }

    // The test card pages exist only while the sandbox runs: without it they would take a
    // payment no processor stands behind.
    if (processors.sandbox !== null) registerSandboxPages(scope as unknown as App, ctx, { keys: processors.sandbox.keys, merchant: MERCHANT });
  });

  jobs.add({ name: 'payment-orders-expiry', everyMs: 5 * 60_000, run: expireOrders });
  jobs.add({ name: 'spend-requests-prune', everyMs: 60 * 60_000, run: () => spendRequests.sweep() });
}

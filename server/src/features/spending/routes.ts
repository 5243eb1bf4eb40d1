import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import {
  AffiliateQuery,
  EarningsAckBody,
  EarningsQuery,
  GiftPostBody,
  GiftResult,
  Payout,
  PayoutBody,
  PayoutDestination,
  PayoutDestinationBody,
  AdminPayoutList,
  AdminPayoutsQuery,
  PayoutIdParams,
  PayoutList,
  TipBody,
  TransactionList,
  UnlockBody,
  UnlockResult,
} from '../../../../lib/contract/payments';
import { Type } from 'typebox';
import type { App } from '../../context';
import { ok, withBody } from '../../http/envelope';
import { reconcile } from '../../ledger/reconcile';
import { requireLevel, requireVerifiedEmail, viewerOf } from '../auth/guard';
import { EARNINGS_PAGE_SIZE, MIN_PAYOUT_CENTS, PAYOUT_RESEND_WINDOW_MS } from './domain';
import { createEarningsService } from './earnings';
import { createSpendingService } from './service';
import { AllowanceBody, CooldownBody, SiteSpending, SpendingLimits, SpendingLimitsBody, SpendReceipt, SpendRequest, SpendRequestParams } from '../../../../lib/contract/spending';
import { EmbedOriginQuery } from '../../../../lib/contract/auth';
import { createSpendingControls, createSpendRequests } from './requests';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

/** Gifts, tips, media unlocks, earnings and payouts (SPEC §7). */
export async function spendingFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const spending = createSpendingService(ctx);
  const earnings = createEarningsService(ctx);
  const requests = createSpendRequests(ctx);
  const controls = createSpendingControls(ctx, requests);
  const tags = ['payments'];
  const confirmNote =
    ' From a widget on a partner site, a spend beyond the allowance the fan gave the site answers confirmation-required with a spend request to confirm in the platform’s popup; the same request sent again with the `Fanstage-Confirmation` header naming the confirmed request spends once';

  api.post(
    '/api/posts/gift',
    {
      schema: {
        tags,
        summary:
          'Send a gift on someone else’s visible post: the fan pays the gift’s gValue credits, the creator earns cValue; only a creator’s (seller or partner) post takes gifts, else gift-send-error. Resending with the same `idempotencyKey` gives once. noMoney (402) when the wallet cannot pay' + confirmNote,
        body: GiftPostBody,
        response: { 200: BodyEnvelope(GiftResult) },
      },
    },
    async (request) => withBody(await requests.guarded(request, (via) => spending.giftPost(requireVerifiedEmail(request).id, request.body, via))),
  );

  api.post(
    '/api/users/tip',
    {
      schema: {
        tags,
        summary: 'Tip a creator (a seller or partner) with a gift, from a tip button: as a gift on a post, with no post.' + confirmNote,
        body: TipBody,
        response: { 200: BodyEnvelope(GiftResult) },
      },
    },
    async (request) => withBody(await requests.guarded(request, (via) => spending.tip(requireVerifiedEmail(request).id, request.body, via))),
  );

  api.post(
    '/api/media/unlock',
    {
      schema: {
        tags,
        summary:
          'Unlock a priced post media at the stored price the fan was shown (`price`): price-changed (409) when it changed, nsfw-agreement-required without the agreement, noMoney (402). Owners, earlier unlockers and subscribers get the key without paying.' + confirmNote,
        body: UnlockBody,
        response: { 200: BodyEnvelope(UnlockResult) },
      },
    },
    async (request) => withBody(await requests.guarded(request, (via) => spending.unlock(requireVerifiedEmail(request).id, request.body, via))),
  );

  const spendTags = ['spending'];
  api.get(
    '/api/spend-requests/:id',
    {
      schema: {
        tags: spendTags,
        summary: 'A spend request of the viewer’s (from a widget: of its own site only): what a site asks, for whom, how much, and where it stands; anyone else’s is not-found',
        params: SpendRequestParams,
        response: { 200: BodyEnvelope(SpendRequest) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return withBody(await requests.view(viewerOf(request), request.params.id));
    },
  );

  api.post(
    '/api/spend-requests/:id/confirm',
    {
      schema: {
        tags: spendTags,
        summary: 'The fan confirms a site’s spend request in the platform’s popup (the platform’s own session only): the widget may then send its spend again, once. A card payment is confirmed by paying it in the card window instead (confirmation-invalid)',
        params: SpendRequestParams,
        response: { 200: BodyEnvelope(SpendRequest) },
      },
    },
    async (request) => withBody(await requests.decide(requireVerifiedEmail(request), request.params.id, 'confirmed')),
  );

  api.post(
    '/api/spend-requests/:id/cancel',
    {
      schema: { tags: spendTags, summary: 'The fan (or the widget that asked) cancels a spend request: nothing moves', params: SpendRequestParams, response: { 200: BodyEnvelope(SpendRequest) } },
    },
    async (request) => withBody(await requests.decide(viewerOf(request), request.params.id, 'cancelled')),
  );

  api.get(
    '/api/spending/limits',
    { schema: { tags: spendTags, summary: 'The viewer’s spending limits, a raise waiting for its day, the cool-down, and what was spent today and this month', response: { 200: BodyEnvelope(SpendingLimits) } } },
    async (request) => withBody(await controls.limits(viewerOf(request).id)),
  );

  api.put(
    '/api/spending/limits',
    {
      schema: {
        tags: spendTags,
        summary: 'Set the viewer’s daily and monthly spending limits in credits (null: none): a lower limit applies at once, a higher one (or none) 24 hours later',
        body: SpendingLimitsBody,
        response: { 200: BodyEnvelope(SpendingLimits) },
      },
    },
    async (request) => withBody(await controls.setLimits(viewerOf(request).id, request.body)),
  );

  api.post(
    '/api/spending/cooldown',
    {
      schema: { tags: spendTags, summary: 'Pause all spending for `hours`: every spend is refused with spending-cooldown until then; it cannot be shortened', body: CooldownBody, response: { 200: BodyEnvelope(SpendingLimits) } },
    },
    async (request) => withBody(await controls.coolDown(viewerOf(request).id, request.body.hours)),
  );

  api.get(
    '/api/spending/receipts',
    { schema: { tags: spendTags, summary: 'The viewer’s spends this month, everywhere, newest first (100 at most), with where each was made', response: { 200: BodyEnvelope(Type.Array(SpendReceipt)) } } },
    async (request) => withBody(await controls.receipts(viewerOf(request).id, null)),
  );

  api.put(
    '/api/embed/consents',
    {
      schema: { tags: spendTags, summary: 'Change what a site the fan allowed may spend a month without asking (0: ask every time); not-found for a site not allowed', body: AllowanceBody, response: { 200: BodyEnvelope(SiteSpending) } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      await controls.setAllowance(viewer.id, request.body.origin, request.body.allowance);
      return withBody(await controls.siteSpending(viewer.id, request.body.origin));
    },
  );

  api.get(
    '/api/embed/consents/spends',
    {
      schema: { tags: spendTags, summary: 'A site the fan allowed: its allowance, what it spent this month, and the receipts', querystring: EmbedOriginQuery, response: { 200: BodyEnvelope(SiteSpending) } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return withBody(await controls.siteSpending(viewerOf(request).id, request.query.origin));
    },
  );

  const earningsSchema = {
    tags,
    summary: `The viewer’s earnings lines (gifts, unlocks, subscriptions, affiliate shares, payouts), newest first, ${EARNINGS_PAGE_SIZE} a page`,
    querystring: EarningsQuery,
    response: { 200: BodyEnvelope(TransactionList) },
  };
  for (const url of ['/api/earnings', '/api/earnings/']) {
    api.get(url, { schema: earningsSchema }, async (request) =>
      withBody(await earnings.list(viewerOf(request).id, request.query.limit ?? EARNINGS_PAGE_SIZE, request.query.offset ?? 0)),
    );
  }

  const affiliateSchema = {
    tags,
    summary: `The viewer’s affiliate shares of the platform’s fee on what the people they brought spent (only those from \`userId\` when given), newest first, ${EARNINGS_PAGE_SIZE} a page`,
    querystring: AffiliateQuery,
    response: { 200: BodyEnvelope(TransactionList) },
  };
  for (const url of ['/api/earnings/transactions-affil', '/api/earnings/transactions-affil/']) {
    api.get(url, { schema: affiliateSchema }, async (request) =>
      withBody(await earnings.affiliateLines(viewerOf(request).id, request.query.userId, request.query.limit ?? EARNINGS_PAGE_SIZE, request.query.offset ?? 0)),
    );
  }

  api.post(
    '/api/earnings/payout',
    {
      schema: {
        tags,
        summary: `Ask for earnings to be paid out to the kept destination (\`method\` defaults to it; payout-destination-required when none is kept for the method). At least ${MIN_PAYOUT_CENTS} cents (payout-too-small, naming the minimum), at most the earnings balance (noMoney). The same request again within ${PAYOUT_RESEND_WINDOW_MS / 1000} s is taken for a resend and answers the first request`,
        body: PayoutBody,
        response: { 200: BodyEnvelope(Payout) },
      },
    },
    async (request) => withBody(await earnings.requestPayout(requireVerifiedEmail(request).id, request.body)),
  );

  api.get(
    '/api/earnings/payout-destination',
    {
      schema: { tags, summary: 'Where the viewer’s payouts go (PayPal e-mail or a saved card) and the smallest payout', response: { 200: BodyEnvelope(PayoutDestination) } },
    },
    async (request) => withBody(await earnings.destination(viewerOf(request).id)),
  );

  api.put(
    '/api/earnings/payout-destination',
    {
      schema: {
        tags,
        summary: 'Keep where the viewer’s payouts go: a PayPal e-mail (invalid-email) or one of the viewer’s saved cards (card-not-found)',
        body: PayoutDestinationBody,
        response: { 200: BodyEnvelope(PayoutDestination) },
      },
    },
    async (request) => withBody(await earnings.setDestination(requireVerifiedEmail(request).id, request.body)),
  );

  api.get(
    '/api/earnings/payouts',
    {
      schema: { tags, summary: `The viewer’s payout requests, newest first, ${EARNINGS_PAGE_SIZE} a page`, querystring: EarningsQuery, response: { 200: BodyEnvelope(PayoutList) } },
    },
    async (request) => withBody(await earnings.payouts(viewerOf(request).id, request.query.limit ?? EARNINGS_PAGE_SIZE, request.query.offset ?? 0)),
  );

  api.get(
    '/api/admin/payouts',
    {
      schema: {
        tags: ['admin'],
        summary: 'Payout requests with the creator who asked (admins): those waiting to be paid, oldest first, or all of them, newest first',
        querystring: AdminPayoutsQuery,
        response: { 200: BodyEnvelope(AdminPayoutList) },
      },
    },
    async (request) => {
      requireLevel(request, 500);
      return withBody(await earnings.adminPayouts(request.query.status ?? 'requested', request.query.limit ?? EARNINGS_PAGE_SIZE, request.query.offset ?? 0));
    },
  );

  api.post(
    '/api/admin/payouts/:id/sent',
    {
      schema: {
        tags: ['admin'],
        summary: 'The platform paid a payout request (admins): its money leaves the pending payouts, once however often this is called; the ledger logs which administrator marked it',
        params: PayoutIdParams,
        response: { 200: BodyEnvelope(Payout) },
      },
    },
    async (request) => {
      const admin = requireLevel(request, 500);
      return withBody(await earnings.markPayoutSent(request.params.id, admin.id));
    },
  );

  const owner = { accountId: Type.Integer(), kind: Type.String(), userId: Type.Union([Type.Integer(), Type.Null()]) };
  const ReconciliationReport = Type.Object({
    ok: Type.Boolean(),
    accounts: Type.Integer(),
    transfers: Type.Integer(),
    total: Type.Integer(),
    holds: Type.Object({ account: Type.Integer(), open: Type.Integer() }),
    balanceMismatches: Type.Array(Type.Object({ ...owner, stored: Type.Integer(), fromEntries: Type.Integer() })),
    unbalancedTransfers: Type.Array(Type.Object({ transferId: Type.Integer(), sum: Type.Integer() })),
    emptyTransfers: Type.Array(Type.Object({ transferId: Type.Integer(), key: Type.String() })),
    negativeAccounts: Type.Array(Type.Object({ ...owner, balance: Type.Integer() })),
    holdMismatches: Type.Array(Type.Object({ holdId: Type.Integer(), status: Type.String(), amount: Type.Integer(), remaining: Type.Integer(), fromEntries: Type.Integer() })),
    pendingMismatches: Type.Array(Type.Object({ transferId: Type.Integer(), accountId: Type.Integer(), pending: Type.Integer(), fromEntries: Type.Integer() })),
  });

  api.get(
    '/api/admin/ledger/reconciliation',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The ledger reconciliation of `npm run reconcile` on the running server (admins): every balance recomputed from its entries in one consistent snapshot, read-only; `ok` when nothing differs (docs/ledger.md)',
        response: { 200: BodyEnvelope(ReconciliationReport) },
      },
    },
    async (request, reply) => {
      requireLevel(request, 500);
      reply.header('Cache-Control', 'no-store');
      return withBody(await reconcile(ctx.db));
    },
  );

  api.post(
    '/api/earnings/ack',
    {
      schema: {
        tags,
        summary: 'The creator saw their earnings up to `cBalance` (the badge clears; never above the balance); `firstEarningsSeen` dismisses the first-earnings popup',
        body: EarningsAckBody,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      await earnings.acknowledge(viewerOf(request).id, request.body);
      return ok;
    },
  );
}

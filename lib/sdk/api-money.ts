/**
 * Typed calls of the money API (SPEC §7 "Payments and earnings", "Subscriptions"), one function
 * per endpoint. Amounts are integer cents; a fan's credits are cents too. Failures reject with an
 * `SdkError` whose `code` is the envelope's statusText: `noMoney`, `payment-declined`,
 * `payment_is_processing`, `price-changed`, `nsfw-agreement-required`, `gift-not-found`, ...
 *
 * API (stable):
 *
 *   paymentsApi(client)
 *     .processors()                     GET    /api/payments/processors        → Processor[]
 *     .packages()                       GET    /api/payments/packages          → CreditPackage[]
 *     .balance()                        GET    /api/payments/balance           → Balance
 *     .cards()                          GET    /api/payments/cards             → Card[]
 *     .deleteCard(id)                   DELETE /api/payments/cards/{id}
 *     .payNewCard(body)                 POST   /api/payments/pay-new-card      → PaymentOrder (redirectUrl to open)
 *     .payOldCard(body)                 POST   /api/payments/pay-old-card      → PaymentOrder
 *     .order(body)                      POST   /api/payments/order             → PaymentOrder
 *     .result(id, processor='sandbox')  GET    /api/payments/{processor}result?id= → PaymentOrder
 *     .transactions({ts?, limit?})      GET    /api/payments/transactions      → Transaction[]
 *
 *   spendingApi(client)
 *     .giftPost({postId, giftId, idempotencyKey?})  POST /api/posts/gift   → GiftResult
 *     .tip({userId, giftId, idempotencyKey?})       POST /api/users/tip    → GiftResult
 *     .unlock({id, price})                          POST /api/media/unlock → UnlockResult
 *
 *   earningsApi(client)
 *     .lines({limit?, offset?})          GET  /api/earnings/                   → Transaction[]
 *     .affiliate(userId?)                GET  /api/earnings/transactions-affil/ → Transaction[]
 *     .payout({cPayout, method?})        POST /api/earnings/payout             → Payout | undefined
 *     .payouts()                         GET  /api/earnings/payouts            → Payout[]
 *     .payoutDestination()               GET  /api/earnings/payout-destination → PayoutDestination
 *     .setPayoutDestination(body)        PUT  /api/earnings/payout-destination → PayoutDestination
 *     .ack({cBalance, firstEarningsSeen?}) POST /api/earnings/ack              → Balance | undefined
 *
 *   subscriptionsApi(client)
 *     .offers(userId, loggedIn)          GET    /api|/papi/subscription/offer?userId → Offer[]
 *     .createOffer(body)                 POST   /api/subscription/offer              → Offer
 *     .deleteOffer(id)                   DELETE /api/subscription/offer/{id}
 *     .updateOffer(id, body)             PUT    /api/subscription/offer/{id}         → Offer
 *     .archiveOffer(id) / .restoreOffer(id) POST /api/subscription/offer/{id}/archive|restore → Offer
 *     .subscribe(offerId, priceCents?)   POST   /api/subscription/subscribe/{offerId} → Subscription
 *     .payNewCard(body)                  POST   /api/subscription/pay-new-card       → {subscription, order}
 *     .payOldCard(body)                  POST   /api/subscription/pay-old-card       → {subscription, order}
 *     .cancel(id) / .revertCancel(id)    POST   /api/subscription/cancel|revert-cancel {id} → Subscription | undefined
 *     .get(id)                           GET    /api/subscription/{id}               → Subscription
 *     .subscribing({offset?})            GET    /api/subscription/subscribing        → Subscription[]
 *     .subscribers({offset?, offerId?})  GET    /api/subscription/subscribers        → Subscription[]
 *
 *   browserData()  the screen, timezone, language, touch and user agent a card payment sends along.
 *
 * The stores built on these (stores/wallet.ts, earnings.ts, subscriptions.ts) are what screens use.
 */
import type {
  Balance,
  Card,
  CreateOfferBody,
  CreditPackage,
  EarningsAckBody,
  EarningsQuery,
  GiftPostBody,
  GiftResult,
  Offer,
  PayoutDestination,
  PayoutDestinationBody,
  UpdateOfferBody,
  OrderBody,
  PaymentOrder,
  PayNewCardBody,
  PayOldCardBody,
  Payout,
  PayoutBody,
  Processor,
  Subscription,
  SubscriptionCheckout,
  SubscriptionPayCardBody,
  TipBody,
  Transaction,
  TransactionsQuery,
  UnlockBody,
  UnlockResult,
} from '../contract';
import type { FanstageClient } from './client';

const seg = (value: number | string) => encodeURIComponent(String(value));

/** What a card payment tells the processor about the browser (SPEC §7); empty outside a browser. */
export interface BrowserData {
  screen?: string;
  timezone?: string;
  language?: string;
  touch?: boolean;
  userAgent?: string;
}

export function browserData(): BrowserData {
  const data: BrowserData = {};
  try {
    if (typeof screen !== 'undefined' && screen.width) data.screen = `${screen.width}x${screen.height}`.slice(0, 40);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) data.timezone = zone.slice(0, 64);
    if (typeof navigator !== 'undefined') {
      if (navigator.language) data.language = navigator.language.slice(0, 35);
      data.touch = (navigator.maxTouchPoints ?? 0) > 0;
      if (navigator.userAgent) data.userAgent = navigator.userAgent.slice(0, 512);
    }
  } catch {
    // A locked-down runtime simply sends less.
  }
  return data;
}

/** Card payments, credit packages, the balance and the wallet's history. */
export function paymentsApi(client: FanstageClient) {
  return {
    processors: () => client.get<Processor[]>('/api/payments/processors'),
    packages: () => client.get<CreditPackage[]>('/api/payments/packages'),
    balance: (signal?: AbortSignal) => client.get<Balance>('/api/payments/balance', undefined, { signal }),
    cards: () => client.get<Card[]>('/api/payments/cards'),
    deleteCard: (id: number) => client.request<undefined>('DELETE', `/api/payments/cards/${seg(id)}`),
    payNewCard: (body: PayNewCardBody) => client.post<PaymentOrder>('/api/payments/pay-new-card', body),
    payOldCard: (body: PayOldCardBody) => client.post<PaymentOrder>('/api/payments/pay-old-card', body),
    order: (body: OrderBody) => client.post<PaymentOrder>('/api/payments/order', body),
    /** The order as it stands now; `processor` names the gateway (`sandbox` is built in). */
    result: (id: string, processor = 'sandbox', signal?: AbortSignal) =>
      client.get<PaymentOrder>(`/api/payments/${seg(processor)}result`, { id }, { signal }),
    /** Newest first; `ts` pages back from a transaction time (exclusive). */
    transactions: (query: TransactionsQuery = {}, signal?: AbortSignal) =>
      client.get<Transaction[]>('/api/payments/transactions', { ...query }, { signal }),
  };
}

export type PaymentsApi = ReturnType<typeof paymentsApi>;

/** Spending credits: gifts on posts, tips to creators, unlocking media. */
export function spendingApi(client: FanstageClient) {
  return {
    giftPost: (body: GiftPostBody) => client.post<GiftResult>('/api/posts/gift', body),
    tip: (body: TipBody) => client.post<GiftResult>('/api/users/tip', body),
    /** `price` is the stored price the fan was shown; a changed price answers price-changed. */
    unlock: (body: UnlockBody) => client.post<UnlockResult>('/api/media/unlock', body),
  };
}

export type SpendingApi = ReturnType<typeof spendingApi>;

/** A creator's earnings, payouts and the acknowledgement behind the earnings badge. */
export function earningsApi(client: FanstageClient) {
  return {
    lines: (query: EarningsQuery = {}, signal?: AbortSignal) => client.get<Transaction[]>('/api/earnings/', { ...query }, { signal }),
    affiliate: (userId?: number) => client.get<Transaction[]>('/api/earnings/transactions-affil/', { userId }),
    payout: (body: PayoutBody) => client.post<Payout | undefined>('/api/earnings/payout', body),
    payouts: (signal?: AbortSignal) => client.get<Payout[]>('/api/earnings/payouts', undefined, { signal }),
    /** Where payouts go, and the smallest payout. */
    payoutDestination: (signal?: AbortSignal) => client.get<PayoutDestination>('/api/earnings/payout-destination', undefined, { signal }),
    setPayoutDestination: (body: PayoutDestinationBody) => client.request<PayoutDestination>('PUT', '/api/earnings/payout-destination', { body }),
    ack: (body: EarningsAckBody) => client.post<Balance | undefined>('/api/earnings/ack', body),
  };
}

export type EarningsApi = ReturnType<typeof earningsApi>;

/** Subscription offers and subscriptions (SPEC §7 Subscriptions). */
export function subscriptionsApi(client: FanstageClient) {
  return {
    /** A creator's offers; `/papi` for visitors, `/api` adds the viewer's own subscription to each. */
    offers: (userId: number, loggedIn: boolean, signal?: AbortSignal) =>
      client.get<Offer[]>(`${loggedIn ? '/api' : '/papi'}/subscription/offer`, { userId }, { signal }),
    createOffer: (body: CreateOfferBody) => client.post<Offer>('/api/subscription/offer', body),
    deleteOffer: (id: number) => client.request<undefined>('DELETE', `/api/subscription/offer/${seg(id)}`),
    /** A new price and/or name; subscribers keep the price they subscribed at. */
    updateOffer: (id: number, body: UpdateOfferBody) => client.request<Offer>('PUT', `/api/subscription/offer/${seg(id)}`, { body }),
    /** No longer offered to new subscribers (shown to its creator only); those subscribed keep it. */
    archiveOffer: (id: number) => client.post<Offer>(`/api/subscription/offer/${seg(id)}/archive`, {}),
    restoreOffer: (id: number) => client.post<Offer>(`/api/subscription/offer/${seg(id)}/restore`, {}),
    /** Pays the first month with credits; `priceCents` is what the fan was shown. */
    subscribe: (offerId: number, priceCents?: number) =>
      client.post<Subscription>(`/api/subscription/subscribe/${seg(offerId)}`, priceCents === undefined ? {} : { priceCents }),
    /** The subscription waiting for its payment, and the order whose `redirectUrl` is the processor's page. */
    payNewCard: (body: SubscriptionPayCardBody) => client.post<SubscriptionCheckout>('/api/subscription/pay-new-card', body),
    payOldCard: (body: SubscriptionPayCardBody) => client.post<SubscriptionCheckout>('/api/subscription/pay-old-card', body),
    cancel: (id: number) => client.post<Subscription | undefined>('/api/subscription/cancel', { id }),
    revertCancel: (id: number) => client.post<Subscription | undefined>('/api/subscription/revert-cancel', { id }),
    get: (id: number) => client.get<Subscription>(`/api/subscription/${seg(id)}`),
    subscribing: (query: { offset?: number } = {}, signal?: AbortSignal) =>
      client.get<Subscription[]>('/api/subscription/subscribing', { ...query }, { signal }),
    subscribers: (query: { offset?: number; offerId?: number } = {}, signal?: AbortSignal) =>
      client.get<Subscription[]>('/api/subscription/subscribers', { ...query }, { signal }),
  };
}

export type SubscriptionsApi = ReturnType<typeof subscriptionsApi>;

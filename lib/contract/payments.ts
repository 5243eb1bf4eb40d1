import { Type, type Static } from 'typebox';
import { PaymentStatuses, PayoutMethods } from './constants';
import { Int, Timestamp } from './bounds';
export { PaymentStatuses, PayoutMethods, TransactionTypes } from './constants';

/**
 * Payments, wallet and earnings (SPEC §3 Balance, Transaction, Card, Package; §7 Payments and
 * earnings). Amounts are integer cents; a fan's credits are cents too (one credit, one cent).
 */

/** A card processor the server can charge through (`sandbox` is built in). */
export const Processor = Type.Object({
  name: Type.String(),
  /** The label shown on the top-up screen. */
  title: Type.String(),
  /** True when saved cards of this processor can be charged without the processor's page. */
  savedCards: Type.Boolean(),
});
export type Processor = Static<typeof Processor>;
export const ProcessorList = Type.Array(Processor);

/** A credit package: `cValue` credits for `gValue` cents charged to the card. */
export const CreditPackage = Type.Object({
  id: Type.Integer(),
  cValue: Type.Integer({ minimum: 1 }),
  gValue: Type.Integer({ minimum: 1 }),
});
export type CreditPackage = Static<typeof CreditPackage>;
export const CreditPackageList = Type.Array(CreditPackage);

/**
 * The viewer's money (SPEC §3 Balance). `gBalance` credits to spend; `cBalance` earnings in
 * cents; `cPayout` cents requested for payout and not yet sent; `ts` the time (ms) of the last
 * movement, so a client discards an older balance that arrives late; `isFirst` true until the
 * first credits were bought. `myCbalance` and `myCbalance_acked` drive the earnings badge.
 */
export const Balance = Type.Object(
  {
    gBalance: Type.Integer({ minimum: 0 }),
    cBalance: Type.Integer({ minimum: 0 }),
    cPayout: Type.Integer({ minimum: 0 }),
    ts: Type.Integer({ minimum: 0 }),
    isFirst: Type.Boolean(),
    myCbalance: Type.Integer({ minimum: 0 }),
    myCbalance_acked: Type.Integer({ minimum: 0 }),
    /** True once the creator dismissed the first-earnings popup. */
    firstEarningsSeen: Type.Boolean(),
  },
  { $id: 'Balance' },
);
export type Balance = Static<typeof Balance>;

/** A saved card (SPEC §3 Card): our id, what the person recognises it by, and the processor (pgw). */
export const Card = Type.Object({
  id: Type.Integer(),
  /** `Visa •••• 4242`. */
  cardId: Type.String(),
  brand: Type.String(),
  last4: Type.String(),
  expMonth: Type.Integer(),
  expYear: Type.Integer(),
  pgw: Type.String(),
});
export type Card = Static<typeof Card>;
export const CardList = Type.Array(Card);

export const CardIdParams = Type.Object({ id: Int({ minimum: 1 }) });

/** What the browser tells the processor about itself (SPEC §7: screen, timezone, language, touch, user agent). */
const BrowserData = {
  screen: Type.Optional(Type.String({ maxLength: 40 })),
  timezone: Type.Optional(Type.String({ maxLength: 64 })),
  language: Type.Optional(Type.String({ maxLength: 35 })),
  touch: Type.Optional(Type.Boolean()),
  userAgent: Type.Optional(Type.String({ maxLength: 512 })),
};

/**
 * `POST /api/payments/pay-new-card`: buy a package with a card entered on the processor's page.
 * Answers a `PaymentStart` whose `redirectUrl` the client opens (a popup for widgets, the page
 * itself for the site); the processor returns the person to `/gopay-return?id=<orderId>`.
 */
export const PayNewCardBody = Type.Object({
  packageId: Int({ minimum: 1 }),
  processor: Type.String({ minLength: 1, maxLength: 32 }),
  saveCard: Type.Optional(Type.Boolean()),
  /** Where `/gopay-return` sends the person afterwards (same origin or an allowed embed origin). */
  returnUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  /** The spend request of a site this payment answers (the platform's card window). */
  spendRequestId: Type.Optional(Type.String({ minLength: 16, maxLength: 32 })),
  ...BrowserData,
});
export type PayNewCardBody = Static<typeof PayNewCardBody>;

/**
 * `POST /api/payments/gopaybuy`: the GoPay-style purchase of a package, started through the
 * platform's processor interface. Like pay-new-card it answers the order with `redirectUrl`, the
 * gateway's page, and the gateway returns the person to `/gopay-return?id=<orderId>`. With
 * `idempotencyKey`, sending the same purchase again answers the same order (and the same page)
 * instead of starting a second one.
 */
export const GopayBuyBody = Type.Object({
  packageId: Int({ minimum: 1 }),
  /** The processor of the gateway; the platform's default when left out. */
  processor: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  saveCard: Type.Optional(Type.Boolean()),
  returnUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  idempotencyKey: Type.Optional(Type.String({ minLength: 8, maxLength: 64 })),
  ...BrowserData,
});
export type GopayBuyBody = Static<typeof GopayBuyBody>;

/** `DELETE /api/payments/cards/` with the card named in the body (SPEC §7 "or /cards/ with id"). */
export const CardRefBody = Type.Object({ id: Int({ minimum: 1 }) });
export type CardRefBody = Static<typeof CardRefBody>;

/** `POST /api/payments/pay-old-card`: buy a package with a saved card, no page in between. */
export const PayOldCardBody = Type.Object({
  packageId: Int({ minimum: 1 }),
  cardId: Int({ minimum: 1 }),
  processor: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  /** The spend request of a site this payment answers (the platform's card window). */
  spendRequestId: Type.Optional(Type.String({ minLength: 16, maxLength: 32 })),
  ...BrowserData,
});
export type PayOldCardBody = Static<typeof PayOldCardBody>;

/** `POST /api/payments/order`: an order for a package, paid later by either route above. */
export const OrderBody = Type.Object({
  packageId: Int({ minimum: 1 }),
  processor: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
});
export type OrderBody = Static<typeof OrderBody>;

export const PaymentStatus = Type.Enum([...PaymentStatuses]);

/** An order as the buyer sees it (`GET /api/payments/{gw}result?id=`, and every pay answer). */
export const PaymentOrder = Type.Object(
  {
    id: Type.String(),
    processor: Type.String(),
    purpose: Type.Enum(['credits', 'subscription']),
    amount: Type.Integer({ minimum: 0 }),
    credits: Type.Integer({ minimum: 0 }),
    status: PaymentStatus,
    /** Set while the processor's page must be visited (new card, or a second step asked). */
    redirectUrl: Type.Union([Type.String(), Type.Null()]),
    /** A message key of the error catalogue when declined or failed. */
    failureReason: Type.Union([Type.String(), Type.Null()]),
    subscriptionId: Type.Union([Type.Integer(), Type.Null()]),
    createdAt: Type.Integer(),
  },
  { $id: 'PaymentOrder' },
);
export type PaymentOrder = Static<typeof PaymentOrder>;

export const PaymentResultParams = Type.Object({ gw: Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9-]+$' }) });
export const PaymentResultQuery = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), pgwProcessor: Type.Optional(Type.String({ maxLength: 32 })) });


/** A small person reference inside money lists. */
export const MoneyUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  displayName: Type.String(),
  avatarMedia: Type.Union([Type.Object({ mediaHash: Type.String(), format: Type.String() }), Type.Null()]),
});
export type MoneyUser = Static<typeof MoneyUser>;

/**
 * One line of a wallet or earnings history (SPEC §3 Transaction). `amountCents` is signed from
 * the viewer's side: negative when their wallet paid, positive when it received.
 */
export const Transaction = Type.Object(
  {
    id: Type.Integer(),
    transactionType: Type.String(),
    /** What moved: credits (the wallet) or earnings. `call` for paid calls, as SPEC §3 names it. */
    transferType: Type.String(),
    amountCents: Type.Integer(),
    user: Type.Union([MoneyUser, Type.Null()]),
    giftId: Type.Union([Type.Integer(), Type.Null()]),
    postId: Type.Union([Type.Integer(), Type.Null()]),
    media: Type.Union([Type.Object({ mediaId: Type.Integer() }), Type.Null()]),
    /** The partner site it was spent on; null on Fanstage itself. */
    site: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    /** A top-up: the cents charged to the card for the credits bought. */
    chargedCents: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    ts: Type.Integer(),
  },
  { $id: 'Transaction' },
);
export type Transaction = Static<typeof Transaction>;
export const TransactionList = Type.Array(Transaction);

/** `?ts` pages back from a transaction time (ms, exclusive); `limit` defaults to 30. */
export const TransactionsQuery = Type.Object({
  ts: Type.Optional(Timestamp()),
  limit: Type.Optional(Int({ minimum: 1, maximum: 100 })),
});
export type TransactionsQuery = Static<typeof TransactionsQuery>;

/** `GET /api/earnings/?limit&offset`: the creator's earnings lines, 30 a page. */
export const EarningsQuery = Type.Object({
  limit: Type.Optional(Int({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Int({ minimum: 0 })),
});
export type EarningsQuery = Static<typeof EarningsQuery>;

/** `GET /api/earnings/transactions-affil/?userId`: the viewer's affiliate fee shares (only those from `userId` when given), 30 a page. */
export const AffiliateQuery = Type.Object({
  userId: Type.Optional(Int({ minimum: 1 })),
  limit: Type.Optional(Int({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Int({ minimum: 0 })),
});
export type AffiliateQuery = Static<typeof AffiliateQuery>;

/** `POST /api/users/aff-code {affCode}`: who invited the viewer (their invite code, SPEC §5). */
export const AffCodeBody = Type.Object({ affCode: Type.String({ minLength: 1, maxLength: 64 }) });
export type AffCodeBody = Static<typeof AffCodeBody>;
export const AffCodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });


/** `POST /api/earnings/payout {cPayout}`: ask for earnings to be paid out. */
export const PayoutBody = Type.Object({
  cPayout: Int({ minimum: 1 }),
  method: Type.Optional(Type.Enum([...PayoutMethods])),
});
export type PayoutBody = Static<typeof PayoutBody>;

export const Payout = Type.Object({
  id: Type.Integer(),
  amount: Type.Integer(),
  method: Type.Enum([...PayoutMethods]),
  status: Type.Enum(['requested', 'sent', 'returned']),
  ts: Type.Integer(),
  /** Where it is paid: the PayPal e-mail, or the card's brand and last digits (null for requests older than destinations). */
  destination: Type.Union([Type.String(), Type.Null()]),
});
export type Payout = Static<typeof Payout>;

/**
 * Where a creator's payouts go (`GET`/`PUT /api/earnings/payout-destination`): a PayPal
 * e-mail, or one of the creator's saved cards. `minimumCents` is the smallest payout.
 */
export const PayoutDestination = Type.Object(
  {
    method: Type.Union([Type.Enum([...PayoutMethods]), Type.Null()]),
    paypalEmail: Type.Union([Type.String(), Type.Null()]),
    card: Type.Union([Type.Object({ id: Type.Integer(), brand: Type.String(), last4: Type.String() }), Type.Null()]),
    minimumCents: Type.Integer({ minimum: 1 }),
  },
  { $id: 'PayoutDestination' },
);
export type PayoutDestination = Static<typeof PayoutDestination>;

/** PayPal needs `paypalEmail`, a card `cardId` (one of the creator's saved cards). */
export const PayoutDestinationBody = Type.Object({
  method: Type.Enum([...PayoutMethods]),
  paypalEmail: Type.Optional(Type.String({ maxLength: 254 })),
  cardId: Type.Optional(Int({ minimum: 1 })),
});
export type PayoutDestinationBody = Static<typeof PayoutDestinationBody>;
export const PayoutList = Type.Array(Payout);
export const PayoutIdParams = Type.Object({ id: Int({ minimum: 1 }) });

/** `GET /api/admin/payouts?status&limit&offset` (administrators): payout requests, oldest waiting first. */
export const AdminPayoutsQuery = Type.Object({
  /** `requested` (default): waiting to be paid; `all`: every request, newest first. */
  status: Type.Optional(Type.Enum(['requested', 'all'])),
  limit: Type.Optional(Int({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Int({ minimum: 0 })),
});
export type AdminPayoutsQuery = Static<typeof AdminPayoutsQuery>;

/** A payout request as administrators see it: with the creator who asked. */
export const AdminPayout = Type.Object({
  id: Type.Integer(),
  amount: Type.Integer(),
  method: Type.Enum([...PayoutMethods]),
  status: Type.Enum(['requested', 'sent', 'returned']),
  ts: Type.Integer(),
  destination: Type.Union([Type.String(), Type.Null()]),
  /** When it was marked paid (ms since the epoch), null until then. */
  sentAt: Type.Union([Type.Integer(), Type.Null()]),
  user: Type.Object({ id: Type.Integer(), username: Type.String(), displayName: Type.String() }),
});
export type AdminPayout = Static<typeof AdminPayout>;
export const AdminPayoutList = Type.Array(AdminPayout);

/** `POST /api/earnings/ack {cBalance}`: the creator saw earnings up to this balance (the badge clears). */
export const EarningsAckBody = Type.Object({
  cBalance: Int({ minimum: 0 }),
  /** Also dismisses the first-earnings popup. */
  firstEarningsSeen: Type.Optional(Type.Boolean()),
});
export type EarningsAckBody = Static<typeof EarningsAckBody>;

/** `POST /api/posts/gift {postId, giftId}`; a tip from a widget names the creator instead of a post. */
export const GiftPostBody = Type.Object({
  postId: Int({ minimum: 1 }),
  giftId: Int({ minimum: 1 }),
  /** A client-made key; resending with it gives the gift once. */
  idempotencyKey: Type.Optional(Type.String({ minLength: 8, maxLength: 64 })),
});
export type GiftPostBody = Static<typeof GiftPostBody>;

/** `POST /api/users/tip {userId, giftId}`: a gift to a creator from a tip button, with no post. */
export const TipBody = Type.Object({
  userId: Int({ minimum: 1 }),
  giftId: Int({ minimum: 1 }),
  idempotencyKey: Type.Optional(Type.String({ minLength: 8, maxLength: 64 })),
});
export type TipBody = Static<typeof TipBody>;

/** What a gift or tip answers: the sender's new balance. */
export const GiftResult = Type.Object({
  gBalance: Type.Integer({ minimum: 0 }),
  ts: Type.Integer(),
  totalGiftsCount: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type GiftResult = Static<typeof GiftResult>;

/** `POST /api/media/unlock {id, price}`: `price` is the stored price the fan was shown; a different current price refuses. */
export const UnlockBody = Type.Object({
  id: Int({ minimum: 1 }),
  price: Int({ minimum: 0 }),
});
export type UnlockBody = Static<typeof UnlockBody>;

/** The unlocked media's key and the fan's new balance. */
export const UnlockResult = Type.Object({
  mediaId: Type.Integer(),
  mediaUnlockHash: Type.String(),
  gBalance: Type.Integer({ minimum: 0 }),
  ts: Type.Integer(),
});
export type UnlockResult = Static<typeof UnlockResult>;

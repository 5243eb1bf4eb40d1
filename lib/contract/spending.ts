import { Type, type Static } from 'typebox';
import { Int } from './bounds';
import { MoneyUser } from './payments';
import { SpendRequestStatuses } from './constants';
export { ALLOWANCE_STEPS, SPEND_CONFIRMATION_HEADER, SpendRequestKinds, SpendRequestStatuses, type SpendRequestKind, type SpendRequestStatus } from './constants';

/**
 * Spending on the fan's word (docs/spending.md): spend requests a widget opens and the fan
 * confirms in the platform's popup, the monthly allowance of each site he allowed, and his own
 * daily and monthly limits and cool-down. Amounts are credits (one credit, one cent).
 */


/** What a `confirmation-required` refusal carries: the request to confirm and the popup's address. */
export const SpendRequestRef = Type.Object({
  id: Type.String(),
  /** The platform's page that asks the fan (open it in a popup). */
  url: Type.String(),
  kind: Type.String(),
  amount: Type.Integer(),
});
export type SpendRequestRef = Static<typeof SpendRequestRef>;

/** A spend request as the popup shows it (and as the widget reads its outcome). */
export const SpendRequest = Type.Object(
  {
    id: Type.String(),
    kind: Type.String(),
    /** Credits; for a card payment (`topup`, `subscription-card`) the cents the card is charged. */
    amount: Type.Integer(),
    /** The site that asks. */
    origin: Type.String(),
    status: Type.Enum([...SpendRequestStatuses]),
    creator: Type.Union([MoneyUser, Type.Null()]),
    /** What the popup shows beyond the above: giftId, postId, mediaId, offerId, offerName, packageId, credits, cardId, text. */
    details: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()])),
    /** The card order a card payment made, once there is one. */
    orderId: Type.Union([Type.String(), Type.Null()]),
    expiresAt: Type.Integer(),
  },
  { $id: 'SpendRequest' },
);
export type SpendRequest = Static<typeof SpendRequest>;

export const SpendRequestParams = Type.Object({ id: Type.String({ minLength: 16, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' }) });
export type SpendRequestParams = Static<typeof SpendRequestParams>;


export const Allowance = Int({ minimum: 0, maximum: 100_000_00 });

/** `PUT /api/embed/consents {origin, allowance}`: what the site may spend a month without asking. */
export const AllowanceBody = Type.Object({ origin: Type.String({ minLength: 1, maxLength: 300 }), allowance: Allowance });
export type AllowanceBody = Static<typeof AllowanceBody>;

/** One spend on a site (or the platform), as the receipts list it. */
export const SpendReceipt = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  amount: Type.Integer(),
  creator: Type.Union([MoneyUser, Type.Null()]),
  /** Null: on Fanstage itself. */
  origin: Type.Union([Type.String(), Type.Null()]),
  /** Confirmed by the fan in the popup rather than taken from the allowance. */
  confirmed: Type.Boolean(),
  ts: Type.Integer(),
});
export type SpendReceipt = Static<typeof SpendReceipt>;

/** `GET /api/embed/consents/spends?origin`: the site's allowance, what it spent this month, and the receipts. */
export const SiteSpending = Type.Object({
  origin: Type.String(),
  allowance: Type.Integer(),
  spentThisMonth: Type.Integer(),
  receipts: Type.Array(SpendReceipt),
});
export type SiteSpending = Static<typeof SiteSpending>;

const Limit = Type.Union([Int({ minimum: 0, maximum: 100_000_00 }), Type.Null()]);

/** The fan's limits: what is in force, and a raise waiting for its day. */
export const SpendingLimits = Type.Object(
  {
    daily: Type.Union([Type.Integer(), Type.Null()]),
    monthly: Type.Union([Type.Integer(), Type.Null()]),
    /** A raise (or removal) asked for, in force from `at`. */
    pendingDaily: Type.Union([Type.Object({ limit: Type.Union([Type.Integer(), Type.Null()]), at: Type.Integer() }), Type.Null()]),
    pendingMonthly: Type.Union([Type.Object({ limit: Type.Union([Type.Integer(), Type.Null()]), at: Type.Integer() }), Type.Null()]),
    /** No spending until then (ms), or null. */
    cooldownUntil: Type.Union([Type.Integer(), Type.Null()]),
    spentToday: Type.Integer(),
    spentThisMonth: Type.Integer(),
  },
  { $id: 'SpendingLimits' },
);
export type SpendingLimits = Static<typeof SpendingLimits>;

/** `PUT /api/spending/limits`: a field left out stays; null removes the limit (after a day, as any raise). */
export const SpendingLimitsBody = Type.Object({ daily: Type.Optional(Limit), monthly: Type.Optional(Limit) }, { minProperties: 1 });
export type SpendingLimitsBody = Static<typeof SpendingLimitsBody>;

/** `POST /api/spending/cooldown {hours}`: no spending for that long (it cannot be shortened). */
export const CooldownBody = Type.Object({ hours: Int({ minimum: 1, maximum: 24 * 365 }) });
export type CooldownBody = Static<typeof CooldownBody>;

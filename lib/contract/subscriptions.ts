import { Type, type Static } from 'typebox';
import { MoneyUser, PaymentOrder } from './payments';
import { Int } from './bounds';

/**
 * Subscriptions (SPEC §3 Subscription, §4 Subscription status, §7 Subscriptions). Offers are a
 * seller's monthly prices in cents (what the creator earns; a fan pays it with the salt).
 * An active subscription unlocks every priced post media of the creator.
 */

export const Offer = Type.Object(
  {
    id: Type.Integer(),
    userId: Type.Integer(),
    name: Type.String(),
    priceCents: Type.Integer({ minimum: 1 }),
    /** active, archived (no new subscribers; listed to its creator only) or deleted. */
    offerStatus: Type.Enum(['active', 'archived', 'deleted']),
    activeSubscribersCount: Type.Integer({ minimum: 0 }),
    /** What a subscriber saves on the creator's priced post media: in credits (salted) and in cents. */
    savedGForPosts: Type.Integer({ minimum: 0 }),
    savedCentsForPosts: Type.Integer({ minimum: 0 }),
    /** The viewer's own subscription to it, if any. */
    subscription: Type.Union([Type.Object({ id: Type.Integer(), subscriptionStatus: Type.Integer(), subscriptionEndDate: Type.Union([Type.Integer(), Type.Null()]) }), Type.Null()]),
  },
  { $id: 'Offer' },
);
export type Offer = Static<typeof Offer>;
export const OfferList = Type.Array(Offer);

export const OfferQuery = Type.Object({ userId: Int({ minimum: 1 }) });

export const CreateOfferBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60 }),
  /** A post-media price step above 0, in cents. */
  priceCents: Int({ minimum: 1 }),
});
export type CreateOfferBody = Static<typeof CreateOfferBody>;

/** `PUT /api/subscription/offer/{id}`: a new price (a post-media price step above 0) and/or name. Subscribers keep the price they subscribed at. */
export const UpdateOfferBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  priceCents: Type.Optional(Int({ minimum: 1 })),
});
export type UpdateOfferBody = Static<typeof UpdateOfferBody>;

export const IdParams = Type.Object({ id: Int({ minimum: 1 }) });
export const OfferIdParams = Type.Object({ offerId: Int({ minimum: 1 }) });


export const Subscription = Type.Object(
  {
    id: Type.Integer(),
    subscriptionId: Type.Integer(),
    offerId: Type.Integer(),
    offerUserId: Type.Integer(),
    subscriberUserId: Type.Integer(),
    subscriptionStatus: Type.Integer(),
    /** ms; null before the first payment. */
    subscriptionEndDate: Type.Union([Type.Integer(), Type.Null()]),
    offerStatus: Type.Enum(['active', 'deleted']),
    /** The same as subscriptionStatus, under the name list screens read. */
    status: Type.Integer(),
    priceCents: Type.Integer(),
    name: Type.String(),
    payWith: Type.Enum(['credits', 'card']),
    /** The other person: the creator on the subscribing list, the fan on the subscribers list. */
    user: MoneyUser,
  },
  { $id: 'Subscription' },
);
export type Subscription = Static<typeof Subscription>;
export const SubscriptionList = Type.Array(Subscription);

/** `POST /api/subscription/subscribe/{offerId}`: pay with credits (default). */
export const SubscribeBody = Type.Object({
  /** The price the fan was shown; a changed offer refuses with price-changed. */
  priceCents: Type.Optional(Int({ minimum: 1 })),
});

/** `POST /api/subscription/pay-new-card` and `/pay-old-card`: subscribe paying by card, renewed from the same card. */
export const SubscriptionPayCardBody = Type.Object({
  offerId: Int({ minimum: 1 }),
  cardId: Type.Optional(Int({ minimum: 1 })),
  processor: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  returnUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  /** The spend request of a site this payment answers (the platform's card window). */
  spendRequestId: Type.Optional(Type.String({ minLength: 16, maxLength: 32 })),
});
export type SubscriptionPayCardBody = Static<typeof SubscriptionPayCardBody>;

export const SubscriptionListQuery = Type.Object({
  offset: Type.Optional(Int({ minimum: 0 })),
  offerId: Type.Optional(Int({ minimum: 1 })),
});

/**
 * The answer of `pay-new-card` and `pay-old-card`: the subscription and the card order paying
 * it. While `order.redirectUrl` is set the fan must visit the processor's page (a new card, or
 * a second step the card asked for); the subscription stays 12 until the order is decided.
 */
export const SubscriptionCheckout = Type.Object({ subscription: Subscription, order: PaymentOrder }, { $id: 'SubscriptionCheckout' });
export type SubscriptionCheckout = Static<typeof SubscriptionCheckout>;

import { Type, type Static } from 'typebox';
import { Int, Timestamp } from './bounds';
import { MoneyUser } from './payments';
import { DISCOUNT_PERCENT_MAX, DISCOUNT_PERCENT_MIN } from './rules/price';

/**
 * Tracking links, free trials and a creator's statistics (issue 34, docs/creators.md). A link's
 * code is eight lower-case letters and digits, made by the server.
 */
export const LINK_CODE_PATTERN = '^[a-z0-9]{8}$';

/** The most days a link's free trial may give. */
export const TRIAL_DAYS_MAX = 90;

export const LinkTrial = Type.Object({
  offerId: Type.Integer(),
  offerName: Type.String(),
  /** Cents the offer costs a month once the trial is over. */
  priceCents: Type.Integer(),
  days: Type.Integer({ minimum: 1, maximum: TRIAL_DAYS_MAX }),
  /** How many fans may take it; null for no limit. */
  limit: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  /** ms: until when it may be taken; null for no end. */
  until: Type.Union([Type.Integer(), Type.Null()]),
  /** What happens at the trial's end: the first paid month (`renew`) or nothing more (`end`). */
  then: Type.Enum(['renew', 'end']),
  /** How many fans took it. */
  taken: Type.Integer({ minimum: 0 }),
});
export type LinkTrial = Static<typeof LinkTrial>;

export const LinkDiscount = Type.Object({
  offerId: Type.Integer(),
  offerName: Type.String(),
  /** Cents the offer costs a month: every renewal's price. */
  priceCents: Type.Integer(),
  percent: Type.Integer({ minimum: DISCOUNT_PERCENT_MIN, maximum: DISCOUNT_PERCENT_MAX }),
  /** Cents of the first month with the discount (`discountedCents`): what she earns of it. */
  firstMonthCents: Type.Integer(),
  /** How many fans may use it; null for no limit. */
  limit: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  /** ms: until when it may be used; null for no end. */
  until: Type.Union([Type.Integer(), Type.Null()]),
  /** How many fans paid a first month with it. */
  taken: Type.Integer({ minimum: 0 }),
});
export type LinkDiscount = Static<typeof LinkDiscount>;

/** `GET /api/links`: one of the creator's links, with what it brought. */
export const TrackingLink = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    code: Type.String({ pattern: LINK_CODE_PATTERN }),
    /** `{PUBLIC_URL}/{username}?l={code}`. */
    url: Type.String(),
    createdAt: Type.Integer(),
    /** ms; null while the link counts. */
    endedAt: Type.Union([Type.Integer(), Type.Null()]),
    trial: Type.Union([LinkTrial, Type.Null()]),
    /** A first-month discount instead of a trial (a link carries one or the other). */
    discount: Type.Union([LinkDiscount, Type.Null()]),
    visits: Type.Integer({ minimum: 0 }),
    signups: Type.Integer({ minimum: 0 }),
    follows: Type.Integer({ minimum: 0 }),
    subscriptions: Type.Integer({ minimum: 0 }),
    /** Cents the creator earned from spends the link brought. */
    revenueCents: Type.Integer({ minimum: 0 }),
  },
  { $id: 'TrackingLink' },
);
export type TrackingLink = Static<typeof TrackingLink>;

export const CreateLinkBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60 }),
  trial: Type.Optional(
    Type.Object({
      offerId: Int({ minimum: 1 }),
      days: Int({ minimum: 1, maximum: TRIAL_DAYS_MAX }),
      limit: Type.Optional(Int({ minimum: 1, maximum: 1_000_000 })),
      /** ms. */
      until: Type.Optional(Timestamp()),
      then: Type.Enum(['renew', 'end']),
    }),
  ),
  /** A first-month discount on one of her open offers; not together with `trial`. */
  discount: Type.Optional(
    Type.Object({
      offerId: Int({ minimum: 1 }),
      percent: Int({ minimum: DISCOUNT_PERCENT_MIN, maximum: DISCOUNT_PERCENT_MAX }),
      limit: Type.Optional(Int({ minimum: 1, maximum: 1_000_000 })),
      /** ms. */
      until: Type.Optional(Timestamp()),
    }),
  ),
});
export type CreateLinkBody = Static<typeof CreateLinkBody>;

export const LinkIdParams = Type.Object({ id: Int({ minimum: 1 }) });

/** `POST /papi/links/visit`: a visit through `/{username}?l={code}` (or a widget's `link` attribute). */
export const LinkVisitBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  code: Type.String({ pattern: LINK_CODE_PATTERN }),
});
export type LinkVisitBody = Static<typeof LinkVisitBody>;

/** `POST /papi/links/widget-visit`: a visit through a widget's `link` attribute on a partner page. */
export const WidgetLinkVisitBody = Type.Object({
  code: Type.String({ pattern: LINK_CODE_PATTERN }),
  /** The widget's creator (`creator`, `user` or `with`), when it names one: the link must be hers. */
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** The visitor id an earlier answer gave this page, so one browser is one visitor. */
  visitor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{22}$' })),
});
export type WidgetLinkVisitBody = Static<typeof WidgetLinkVisitBody>;

/** What a visit through a link offers the visitor: a free trial or a first-month discount, if it carries one still open. */
export const LinkLanding = Type.Object(
  {
    trial: Type.Union([Type.Object({ offerId: Type.Integer(), offerName: Type.String(), days: Type.Integer() }), Type.Null()]),
    discount: Type.Union([
      Type.Object({ offerId: Type.Integer(), offerName: Type.String(), percent: Type.Integer(), priceCents: Type.Integer(), firstMonthCents: Type.Integer() }),
      Type.Null(),
    ]),
    /**
     * A widget's visit only: the id the server gave this signed-out visitor, which the widget
     * keeps and hands over when the fan signs in (`/papi/embed/exchange`), so his visits become his.
     */
    visitor: Type.Optional(Type.String()),
  },
  { $id: 'LinkLanding' },
);
export type LinkLanding = Static<typeof LinkLanding>;

export const DiscountQuery = Type.Object({ creatorId: Int({ minimum: 1 }) });
export type DiscountQuery = Static<typeof DiscountQuery>;

/** `GET /api/links/discount?creatorId`: the first-month discount the viewer's next subscription to her would get now. */
export const FirstMonthDiscount = Type.Object(
  {
    discount: Type.Union([
      Type.Object({ offerId: Type.Integer(), percent: Type.Integer(), priceCents: Type.Integer(), firstMonthCents: Type.Integer() }),
      Type.Null(),
    ]),
  },
  { $id: 'FirstMonthDiscount' },
);
export type FirstMonthDiscount = Static<typeof FirstMonthDiscount>;

export const TrialBody = Type.Object({ code: Type.String({ pattern: LINK_CODE_PATTERN }) });
export type TrialBody = Static<typeof TrialBody>;

/** The kinds of earnings the statistics split by. */
export const EarningKinds = ['subscription', 'gift', 'unlock', 'chat-message', 'chat-media', 'call', 'affiliate'] as const;
export type EarningKind = (typeof EarningKinds)[number];

export const StatisticsQuery = Type.Object({
  unit: Type.Optional(Type.Enum(['day', 'week', 'month'])),
  /** ms: the first and last instant counted; default the last 30 days. */
  from: Type.Optional(Timestamp()),
  to: Type.Optional(Timestamp()),
  /** An IANA time zone (the creator's); default UTC. */
  tz: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_+/-]+$' })),
});
export type StatisticsQuery = Static<typeof StatisticsQuery>;

/** One stacked series: cents per period. */
export const StatisticsSeries = Type.Object({
  /** A kind (`gift`), a place (`platform`, or a site's origin) or a link (`link:{id}`, `none`). */
  key: Type.String(),
  /** The link's name or the site's origin; empty for kinds and the platform (the client names them). */
  label: Type.String(),
  values: Type.Array(Type.Integer()),
  total: Type.Integer(),
});
export type StatisticsSeries = Static<typeof StatisticsSeries>;

/** `GET /api/statistics`: a creator's earnings from the ledger's entries, split three ways, and more. */
export const Statistics = Type.Object(
  {
    unit: Type.Enum(['day', 'week', 'month']),
    timeZone: Type.String(),
    from: Type.Integer(),
    to: Type.Integer(),
    /** Each period's first day in the time zone, `YYYY-MM-DD`. */
    periods: Type.Array(Type.String()),
    totals: Type.Array(Type.Integer()),
    totalCents: Type.Integer(),
    byKind: Type.Array(StatisticsSeries),
    byPlace: Type.Array(StatisticsSeries),
    byLink: Type.Array(StatisticsSeries),
    subscribersGained: Type.Array(Type.Integer()),
    subscribersLost: Type.Array(Type.Integer()),
    topFans: Type.Array(Type.Object({ user: MoneyUser, earnedCents: Type.Integer() })),
    posts: Type.Array(Type.Object({ postId: Type.Integer(), text: Type.String(), unlocks: Type.Integer(), earnedCents: Type.Integer() })),
  },
  { $id: 'Statistics' },
);
export type Statistics = Static<typeof Statistics>;

import { Type, type Static } from 'typebox';
import { Int } from './bounds';

/**
 * The partner programme (SPEC §2 /partner-registration and /verify-request, §4 Approved state,
 * §5 affiliate codes, §7 Partner): the partner form, the identity check at an identity
 * provider, and the administrators' decisions. docs/partners.md describes the flow.
 */

/** `PUT /api/partner`: the partner form, checked with the settings' `partnerValidation` expressions. */
export const PartnerFormBody = Type.Object({
  name: Type.String({ maxLength: 200 }),
  street: Type.String({ maxLength: 200 }),
  zip: Type.String({ maxLength: 20 }),
  /** ISO 3166-1 alpha-2 (`CZ`, `DE`, ...). */
  country: Type.String({ maxLength: 60 }),
  /** Spaces allowed; stored upper case without them, with a valid check sum. */
  iban: Type.String({ maxLength: 60 }),
  /** Optional: a company's registration number. */
  companyId: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
});
export type PartnerFormBody = Static<typeof PartnerFormBody>;

/** The partner form as stored. */
export const PartnerForm = Type.Object(
  {
    name: Type.String(),
    street: Type.String(),
    zip: Type.String(),
    country: Type.String(),
    iban: Type.String(),
    companyId: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'PartnerForm' },
);
export type PartnerForm = Static<typeof PartnerForm>;

/** One picture of an identity check. `url` works without a token for 15 minutes (an `<img src>`). */
export const IdentityDocument = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Enum(['front', 'back', 'selfie']),
    width: Type.Integer(),
    height: Type.Integer(),
    url: Type.String(),
  },
  { $id: 'IdentityDocument' },
);
export type IdentityDocument = Static<typeof IdentityDocument>;

/** An identity check: `started` until the provider's verdict, then `approved`, `declined` or `review`; `cancelled` by the person. */
export const IdentityCheck = Type.Object(
  {
    id: Type.String(),
    provider: Type.String(),
    status: Type.Enum(['started', 'approved', 'declined', 'review', 'cancelled']),
    reason: Type.Union([Type.String(), Type.Null()]),
    /** ms since the epoch. */
    createdAt: Type.Integer(),
    decidedAt: Type.Union([Type.Integer(), Type.Null()]),
    documents: Type.Array(IdentityDocument),
  },
  { $id: 'IdentityCheck' },
);
export type IdentityCheck = Static<typeof IdentityCheck>;

/** The viewer's place in the partner programme: `GET /api/partner` and the answer of every partner action. */
export const PartnerStatus = Type.Object(
  {
    /** SPEC §4: 0, 7, 101, 105, 107, 110 or 120 (docs/partners.md). */
    approvedState: Type.Integer(),
    isPartner: Type.Boolean(),
    isSeller: Type.Boolean(),
    hasBadge: Type.Boolean(),
    /** 3 = verified. */
    badgeVerifiedState: Type.Integer(),
    /** Null until the form is first saved. */
    form: Type.Union([PartnerForm, Type.Null()]),
    /** The partner's own `C-` code (after approval), for bringing other partners. */
    partnerCode: Type.Union([Type.String(), Type.Null()]),
    /** The code of the partner who brought this applicant, if any. */
    referredCode: Type.Union([Type.String(), Type.Null()]),
    /** Why an administrator declined the last time, if so. */
    declineReason: Type.Union([Type.String(), Type.Null()]),
    /** SPEC §5 actionGirl: 0 none, 1 offered, 2 accepted, 3 refused. */
    actionGirlState: Type.Integer(),
    /** The latest identity check, if any. */
    idCheck: Type.Union([IdentityCheck, Type.Null()]),
  },
  { $id: 'PartnerStatus' },
);
export type PartnerStatus = Static<typeof PartnerStatus>;

/** `GET /api/partner/reg-done?companyCode` and `GET /papi/partner/check-code?companyCode`. */
export const CompanyCodeQuery = Type.Object({ companyCode: Type.Optional(Type.String({ maxLength: 20 })) });
export type CompanyCodeQuery = Static<typeof CompanyCodeQuery>;

/** `GET /api/partner/start-id-check`: where to send the person (the provider's page). */
export const IdCheckStart = Type.Object({ checkId: Type.String(), redirectUrl: Type.String() }, { $id: 'IdCheckStart' });
export type IdCheckStart = Static<typeof IdCheckStart>;

/** `POST /api/partner/action-girl`: 2 accepts the offer, 3 refuses it. */
export const ActionGirlBody = Type.Object({ actionState: Int({ minimum: 0, maximum: 100 }) });
export type ActionGirlBody = Static<typeof ActionGirlBody>;

export const DocumentIdParams = Type.Object({ id: Int({ minimum: 1 }) });
export const DocumentLinkQuery = Type.Object({
  exp: Type.Optional(Type.String({ maxLength: 20 })),
  sig: Type.Optional(Type.String({ maxLength: 128 })),
});

// ---------------------------------------------------------------------------------------------
// Administrators (level 500)

/** A decision of an administrator, as the audit log keeps it. */
export const PartnerDecision = Type.Object(
  {
    id: Type.Integer(),
    action: Type.Enum(['approve', 'decline', 'actionGirlOffer', 'revokeBadge', 'restoreBadge']),
    adminId: Type.Union([Type.Integer(), Type.Null()]),
    adminUsername: Type.Union([Type.String(), Type.Null()]),
    fromState: Type.Integer(),
    toState: Type.Integer(),
    reason: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.Integer(),
  },
  { $id: 'PartnerDecision' },
);
export type PartnerDecision = Static<typeof PartnerDecision>;

/** An application as administrators see it: the person, the form, the latest check with its documents, the decisions so far. */
export const PartnerApplication = Type.Object(
  {
    user: Type.Object({ id: Type.Integer(), username: Type.String(), displayName: Type.String(), email: Type.Union([Type.String(), Type.Null()]) }),
    approvedState: Type.Integer(),
    isPartner: Type.Boolean(),
    isSeller: Type.Boolean(),
    /** Whether the profile shows the verified badge, and whether it may (3; 0 once an administrator revoked it). */
    hasBadge: Type.Boolean(),
    badgeVerifiedState: Type.Integer(),
    form: Type.Union([PartnerForm, Type.Null()]),
    referredCode: Type.Union([Type.String(), Type.Null()]),
    submittedAt: Type.Union([Type.Integer(), Type.Null()]),
    idCheck: Type.Union([IdentityCheck, Type.Null()]),
    decisions: Type.Array(PartnerDecision),
  },
  { $id: 'PartnerApplication' },
);
export type PartnerApplication = Static<typeof PartnerApplication>;
export const PartnerApplicationList = Type.Array(PartnerApplication);

/** `GET /api/admin/partners`: `queue` (default) is what waits for a decision (107, 110); `all` every applicant. */
export const AdminPartnersQuery = Type.Object({
  filter: Type.Optional(Type.Enum(['queue', 'all'])),
  limit: Type.Optional(Int({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Int({ minimum: 0 })),
});
export type AdminPartnersQuery = Static<typeof AdminPartnersQuery>;

export const PartnerUserParams = Type.Object({ userId: Int({ minimum: 1 }) });

/** Approve: an optional note. Decline: the reason the applicant reads (required). */
export const PartnerDecisionBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 500 })) });
export type PartnerDecisionBody = Static<typeof PartnerDecisionBody>;

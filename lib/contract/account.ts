import { Type, type Static } from 'typebox';
import { Int } from './bounds';
import { CookieNames } from './constants';
import { PublicProfile } from './users';

/** A profile as a logged-in viewer sees it: the public fields plus the relation to the viewer. */
export const ViewedProfile = Type.Interface(
  [PublicProfile],
  {
    isFollowed: Type.Boolean(),
    blockedStatus: Type.Integer({ minimum: 0, maximum: 2 }),
    isMySubscriber: Type.Boolean(),
    isHidden: Type.Boolean(),
  },
  { $id: 'ViewedProfile' },
);
export type ViewedProfile = Static<typeof ViewedProfile>;

/** The logged-in user's own account (GET /api/users/me). */
export const Account = Type.Interface(
  [PublicProfile],
  {
    email: Type.String(),
    emailVerified: Type.Boolean(),
    phoneVerified: Type.Boolean(),
    approvedState: Type.Integer(),
    sexuality: Type.Union([Type.Integer(), Type.Null()]),
    birthday: Type.Union([Type.String(), Type.Null()]),
    appLanguage: Type.String(),
    nsfwAgreement: Type.Integer(),
    notificationSound: Type.Integer(),
    /** Whether a browser of the user's receives web push (POST /api/device). */
    isPushRegistered: Type.Boolean(),
    embedOrigins: Type.Array(Type.String()),
  },
  { $id: 'Account' },
);
export type Account = Static<typeof Account>;

/** PUT /api/users/me. `messagePrice` and `callPrice` answer -2 unless the user is a seller. */
export const UpdateMeBody = Type.Object(
  {
    displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    bio: Type.Optional(Type.String({ maxLength: 1000 })),
    username: Type.Optional(Type.String({ minLength: 3, maxLength: 30 })),
    gender: Type.Optional(Int({ minimum: 1, maximum: 2 })),
    sexuality: Type.Optional(Int({ minimum: 1, maximum: 4 })),
    appLanguage: Type.Optional(Type.String({ minLength: 2, maxLength: 5 })),
    /** ISO date, YYYY-MM-DD; under 18 answers `must_be_18`. */
    birthday: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
    messagePrice: Type.Optional(Int({ minimum: 0 })),
    callPrice: Type.Optional(Int({ minimum: 0 })),
    nsfwAgreement: Type.Optional(Int({ minimum: 0, maximum: 1 })),
    notificationSound: Type.Optional(Int({ minimum: 1, maximum: 2 })),
    /** Origins allowed to embed this creator's widgets, e.g. `https://lucy.example`. */
    embedOrigins: Type.Optional(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 20 })),
    /** A new e-mail address: needs `currentPassword`; it is unverified until its mailed link is opened. */
    email: Type.Optional(Type.String({ maxLength: 254 })),
    currentPassword: Type.Optional(Type.String({ maxLength: 256 })),
    newPassword: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
  },
  { additionalProperties: false },
);
export type UpdateMeBody = Static<typeof UpdateMeBody>;

/**
 * DELETE /api/users/me: the deletion survey's reason (enum `deleteReason`, 1–5) is required,
 * and the account's password confirms it is its owner asking.
 */
export const DeleteMeBody = Type.Object({
  deleteReason: Int({ minimum: 1, maximum: 5 }),
  text: Type.Optional(Type.String({ maxLength: 1000 })),
  password: Type.String({ minLength: 1, maxLength: 256 }),
});
export type DeleteMeBody = Static<typeof DeleteMeBody>;

/** GET /api/sms/send-verification-code: the number to prove, in E.164 (`+420601234567`). */
export const SendPhoneCodeQuery = Type.Object({
  phone: Type.String({ minLength: 1, maxLength: 32 }),
});
export type SendPhoneCodeQuery = Static<typeof SendPhoneCodeQuery>;

/** POST /api/users/verify-phone: the code of the newest SMS. */
export const VerifyPhoneBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 12 }),
});
export type VerifyPhoneBody = Static<typeof VerifyPhoneBody>;

/** Body of follow, block and hide. */
export const UserRefBody = Type.Object({ id: Int({ minimum: 1 }) });
export type UserRefBody = Static<typeof UserRefBody>;

export const RelationsQuery = Type.Object({
  offset: Type.Optional(Int({ minimum: 0, default: 0 })),
  relationType: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(-1)]),
  q: Type.Optional(Type.String({ maxLength: 60 })),
  /** Whose relations, for /papi (public lists); defaults to the viewer on /api. */
  userId: Type.Optional(Int({ minimum: 1 })),
});
export type RelationsQuery = Static<typeof RelationsQuery>;

export const CookieBody = Type.Object({
  name: Type.Union(Object.keys(CookieNames).map((name) => Type.Literal(name))),
  value: Type.String({ maxLength: 200 }),
  /** Days; defaults to the name's lifetime and may not exceed it. */
  expires: Type.Optional(Int({ minimum: 0, maximum: 730 })),
});
export type CookieBody = Static<typeof CookieBody>;

export { BlockedStatus, RelationType, CookieNames, TERMS_VERSION, type CookieName } from './constants';

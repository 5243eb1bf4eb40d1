import { Type, type Static } from 'typebox';

/**
 * Accounts and sessions (SPEC §7 Account and session). The access token is a short-lived JWT
 * (HS256, claims `userId`, `exp`, `iat`) sent as `Authorization: Bearer …`. The site keeps its
 * refresh token in an HttpOnly, SameSite cookie; embedded widgets, which must not rely on
 * third-party cookies, receive it in the body and send it back in the body.
 */

export const Email = Type.String({ minLength: 3, maxLength: 254 });
/** Long passphrases welcome; 8 characters at the least (OWASP ASVS 2.1.1). */
export const Password = Type.String({ minLength: 8, maxLength: 256 });

export const SignupBody = Type.Object({
  email: Email,
  password: Password,
  /** Set when an affiliate partner is present: no marketing mail (SPEC §3 Signup payload). */
  noMail: Type.Optional(Type.Boolean()),
  language: Type.Optional(Type.String({ maxLength: 5 })),
  /**
   * The invite code of whoever invited the new account (SPEC §5). Without it the server reads
   * the `affcode` cookie. An unknown code is ignored: the sign-up never fails on it.
   */
  affCode: Type.Optional(Type.String({ maxLength: 64 })),
});
export type SignupBody = Static<typeof SignupBody>;

export const LoginBody = Type.Object({
  email: Email,
  password: Type.String({ minLength: 1, maxLength: 256 }),
  /** Ask for the refresh token in the body instead of a cookie (embedded widgets). */
  tokenInBody: Type.Optional(Type.Boolean()),
});
export type LoginBody = Static<typeof LoginBody>;

export const AccessTokenBody = Type.Object({
  accessToken: Type.String(),
  /** Present only when the refresh token travels in the body. */
  refreshToken: Type.Optional(Type.String()),
});
export type AccessTokenBody = Static<typeof AccessTokenBody>;

/** Body of POST /papi/login/refresh and POST /papi/login/logout for body-token clients. */
export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 16, maxLength: 512 }) });
export type RefreshBody = Static<typeof RefreshBody>;

/** POST /papi/login/reset: ask for a reset mail, or set the new password with the mailed hash. */
export const ResetBody = Type.Union([
  Type.Object({ email: Email }),
  Type.Object({ hash: Type.String({ minLength: 16, maxLength: 512 }), password: Password }),
]);
export type ResetBody = Static<typeof ResetBody>;

/** POST /papi/action/jwt: confirm the action behind a mailed `/action/{hash}` link. */
export const ActionBody = Type.Object({ hash: Type.String({ minLength: 16, maxLength: 512 }) });
export type ActionBody = Static<typeof ActionBody>;

export const ActionResult = Type.Object({
  /** What the link did: verify-email. */
  action: Type.String(),
});
export type ActionResult = Static<typeof ActionResult>;

/** POST /papi/embed/exchange: the one-time code the sign-in popup handed to the widget. */
export const EmbedExchangeBody = Type.Object({
  code: Type.String({ minLength: 16, maxLength: 512 }),
  /** The origin of the page the widget runs on; must match the one the code was issued for. */
  origin: Type.String({ maxLength: 300 }),
  /**
   * The visitor id a widget's visit through a tracking link was given on this page
   * (`/papi/links/widget-visit`): those visits become the fan's, as a sign-in on the platform does.
   */
  visitor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{22}$' })),
});
export type EmbedExchangeBody = Static<typeof EmbedExchangeBody>;

/** The decoded access token. */
export interface AccessTokenClaims {
  userId: number;
  /** Seconds since 1970, whole. */
  exp: number;
  /** Seconds since 1970 with milliseconds as a fraction (a revocation in the same second is exact). */
  iat: number;
  /** The refresh-token family the token was issued with; absent for tokens made outside a session. */
  sid?: string;
}

/** POST /api/embed/code: the sign-in popup asks for a code for the widget's page. */
export const EmbedCodeBody = Type.Object({
  origin: Type.String({ maxLength: 300 }),
  /** The fan pressed Allow in the popup: remember the consent for this origin. */
  allow: Type.Optional(Type.Boolean()),
  /** With `allow`: credits the site may spend a month without asking (0, the default: ask every time). */
  allowance: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_00 })),
});
export type EmbedCodeBody = Static<typeof EmbedCodeBody>;

/** A site (an origin), in the popup's question and in the list of allowed sites. */
export const EmbedOriginQuery = Type.Object({ origin: Type.String({ minLength: 1, maxLength: 300 }) });
export type EmbedOriginQuery = Static<typeof EmbedOriginQuery>;

/** What the sign-in popup needs to decide whether to ask the fan. */
export const EmbedConsentState = Type.Object({
  origin: Type.String(),
  /** The platform's own origin: no question asked. */
  platform: Type.Boolean(),
  /** The fan allowed this site before (or it is the platform). */
  allowed: Type.Boolean(),
  /** Creators who listed this site for their widgets, shown to help the fan decide (at most 5). */
  listedBy: Type.Array(Type.Object({ username: Type.String(), displayName: Type.String() })),
});
export type EmbedConsentState = Static<typeof EmbedConsentState>;

/** A site the fan allowed to use their account through widgets. */
export const EmbedConsent = Type.Object({
  origin: Type.String(),
  /** Credits the site may spend a month without asking; 0 asks every time. */
  allowance: Type.Integer(),
  spentThisMonth: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.String({ format: 'date-time' }),
});
export type EmbedConsent = Static<typeof EmbedConsent>;

/** A one-time code, valid for 60 seconds on the origin it was issued for. */
export const EmbedCode = Type.Object({ code: Type.String(), expiresIn: Type.Integer() });
export type EmbedCode = Static<typeof EmbedCode>;

/** Path parameters of the admin's account routes. */
export const AccountIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export type AccountIdParams = Static<typeof AccountIdParams>;

export { SignupStatus } from './constants';

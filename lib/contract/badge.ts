import { Type, type Static } from 'typebox';
import { Timestamp } from './bounds';

/**
 * GET /papi/users/{username}/badge: the verified badge, a short-lived signed statement (a
 * compact JWS, EdDSA over Ed25519) that partner sites check offline against the platform's
 * keys at `/.well-known/jwks.json` (docs/embedding.md, "Verifying a badge").
 */
export const BadgeAnswer = Type.Object({
  /** `header.payload.signature`; the payload is {@link BadgeClaims}. */
  token: Type.String(),
  /** When it stops verifying (ms since the epoch); the answer may be cached until then. */
  expiresAt: Timestamp(),
});
export type BadgeAnswer = Static<typeof BadgeAnswer>;

/** What a badge says. */
export interface BadgeClaims {
  /** Who issued it: the platform's public URL. */
  iss: string;
  /** The username the badge is about. */
  sub: string;
  /** The platform verified this person's identity. */
  verified: boolean;
  /** An approved partner (a creator who earns). */
  partner: boolean;
  /** Issued and expiry times, in seconds since the epoch. */
  iat: number;
  exp: number;
}

/** The JWS header's `typ` of a badge. */
export const badgeType = 'fanstage-badge+jwt';

/** One public key of the set at `/.well-known/jwks.json`. */
export const BadgeJwk = Type.Object({
  kty: Type.Literal('OKP'),
  crv: Type.Literal('Ed25519'),
  x: Type.String(),
  kid: Type.String(),
  alg: Type.Literal('EdDSA'),
  use: Type.Literal('sig'),
});
export type BadgeJwk = Static<typeof BadgeJwk>;

export const BadgeJwks = Type.Object({ keys: Type.Array(BadgeJwk) });
export type BadgeJwks = Static<typeof BadgeJwks>;

/** Where a creator proves she controls a site: the token file's path on that origin. */
export const proofFilePath = '/.well-known/fanstage-verification.txt';
/** The name of the home page's `<meta>` tag that may carry the token instead. */
export const proofMetaName = 'fanstage-verification';

/** A site in the creator's list, and whether she proved it is hers. */
export const OriginProof = Type.Object({
  origin: Type.String(),
  /** Listed in `embedOrigins` (a proof without a listing shows nowhere). */
  listed: Type.Boolean(),
  /** The token to serve; null until asked for (POST /api/embed-origins/token). */
  token: Type.Union([Type.String(), Type.Null()]),
  /** Proven: the consent screen shows the creator as "listed by". */
  proven: Type.Boolean(),
  /** How it was last found: `file`, `meta` or `demo`. */
  method: Type.Union([Type.String(), Type.Null()]),
  provenAt: Type.Union([Timestamp(), Type.Null()]),
  checkedAt: Type.Union([Timestamp(), Type.Null()]),
  /** Rechecks of the proven site that failed in a row; at three the proof is withdrawn (and it stays at three until proven again). */
  failures: Type.Integer(),
  /** Why the last check failed (an `origin-proof-…` reason), or null. */
  problem: Type.Union([Type.String(), Type.Null()]),
});
export type OriginProof = Static<typeof OriginProof>;

export const OriginProofList = Type.Array(OriginProof);

export const OriginBody = Type.Object({ origin: Type.String({ minLength: 1, maxLength: 300 }) }, { additionalProperties: false });
export type OriginBody = Static<typeof OriginBody>;

/** What to serve: the token, the file's address and content, or the meta tag. */
export const OriginProofToken = Type.Object({
  origin: Type.String(),
  token: Type.String(),
  /** `https://site.example/.well-known/fanstage-verification.txt`: a text file whose lines include the token. */
  fileUrl: Type.String(),
  /** Or on the home page's `<head>`: `<meta name="fanstage-verification" content="…">`. */
  metaTag: Type.String(),
});
export type OriginProofToken = Static<typeof OriginProofToken>;

/** Why a proof failed (`body.reason` of `origin-proof-failed`). */
export type OriginProofProblem =
  | 'address-refused'
  | 'unreachable'
  | 'timeout'
  | 'http-status'
  | 'redirect-refused'
  | 'too-large'
  | 'token-missing';

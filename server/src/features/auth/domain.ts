import { createHash, createHmac, randomBytes } from 'node:crypto';
import { UsernameLength, usernameProblem } from '../../../../lib/contract/usernames';

/** OWASP Password Storage Cheat Sheet: argon2id, 19 MiB of memory, 2 passes, 1 lane. */
export const passwordHashOptions = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const passwordLength = { min: 8, max: 256 } as const;

export const REFRESH_TOKEN_DAYS = 30;
export const refreshTokenMs = REFRESH_TOKEN_DAYS * 24 * 60 * 60_000;

/**
 * How long a refresh token, once used, may be presented again and get the same successor:
 * tabs that start together, or a response lost on a flaky network, send the same cookie twice
 * within moments. Later, a used token coming back means it was copied, and the family ends.
 */
export const refreshGraceMs = 30_000;

/**
 * The refresh token that follows `token`: derived from it with a server key instead of drawn
 * at random, so a second presentation within the grace period gets the very token the first
 * one got without the server keeping it anywhere but as a hash. Whoever can compute it holds
 * the key that signs access tokens, and then has no need of it.
 */
export function successorToken(key: string | Uint8Array, token: string): string {
  return createHmac('sha256', key).update(token).digest('base64url');
}

/** The key of `successorToken`, derived from the server secret so no other use shares it. */
export function successorKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('fanstage refresh-token successor').digest();
}

/** Lifetimes of the one-time tokens behind links and codes. */
export const actionTokenMs = {
  'verify-email': 7 * 24 * 60 * 60_000,
  'reset-password': 60 * 60_000,
  'embed-login': 60_000,
} as const;
export type ActionPurpose = keyof typeof actionTokenMs;

/** One resend of the verification mail per day (the signup mail does not count). */
export const resendWindowMs = 24 * 60 * 60_000;

/** Login limits, counted in the database so every node of a cluster agrees. */
export const loginLimits = {
  windowMs: 60 * 60_000,
  failuresPerAccount: 100,
  attemptsPerAddress: 300,
} as const;

/** The cookie the site keeps its refresh token in; only the login routes ever see it. */
export const refreshCookie = { name: 'fs_refresh', path: '/papi/login' } as const;

/**
 * The refresh cookie's readable companion (docs/auth.md, "Does this browser have a session?"):
 * `1` is written with every refresh cookie and lives as long, `0` wherever the refresh cookie
 * is cleared. It holds no secret and grants nothing: the site only reads it to skip the refresh
 * request at start-up for a visitor who has no session to resume.
 */
export const sessionMarker = {
  name: 'fs_session',
  path: '/',
  signedIn: '1',
  signedOut: '0',
  /** A `0` outlives any refresh cookie, so a signed-out browser is not asked again soon. */
  signedOutSeconds: 365 * 24 * 60 * 60,
} as const;

/** 256 random bits, URL-safe: refresh tokens, action hashes and embed codes. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its SHA-256, so a leaked table cannot be replayed. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A username made from an e-mail's local part: the characters usernames allow, trimmed to
 * fit, with a letter guaranteed (an all-digit local part becomes `fan…`).
 */
export function usernameBase(email: string): string {
  const local = email.split('@')[0] ?? '';
  let base = local
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._]+/g, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .toLowerCase();
  if (!/[a-z]/.test(base)) base = `fan${base}`;
  // Room for a numeric suffix of up to six digits.
  base = base.slice(0, UsernameLength.max - 6).replace(/[._]+$/g, '');
  while (base.length < UsernameLength.min) base += '_';
  return base;
}

/** The candidates tried in order: the base, then the base with a number. */
export function usernameCandidates(base: string, random: () => number = Math.random): string[] {
  const candidates = [base];
  for (let n = 1; n <= 9; n++) candidates.push(`${base}${n}`);
  // Past the small numbers, random ones find a free name in one or two more tries.
  for (let i = 0; i < 10; i++) candidates.push(`${base}${100 + Math.floor(random() * 900_000)}`);
  return candidates.filter((name) => usernameProblem(name) === null);
}

/** `https://lucy.example` from any form of the address; null when it is not an http(s) origin. */
export function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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

/**
 * Sign-in throttling (docs/auth.md, "Sign-in throttling"; OWASP's Authentication Cheat Sheet):
 * growing delays instead of a lockout, so that nobody can lock an owner out of their account by
 * failing on purpose. Failures count per e-mail and requester (the pair's count ends with its
 * next success), per e-mail and device cookie instead when the browser holds a valid one, and
 * per requester across all e-mails. After `free` failures a key is held for `firstDelayMs`,
 * doubling with each further failure up to `maxDelayMs`, counted from its latest failure.
 */
export const signInThrottle = {
  /** One e-mail from one requester, or from one device. */
  pair: { free: 5, windowMs: 24 * 60 * 60_000 },
  /**
   * One requester over every e-mail: a script trying one password on many accounts. Generous,
   * and over an hour only, since many people may share an address (an office, a mobile network).
   */
  requester: { free: 30, windowMs: 60 * 60_000 },
  firstDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
} as const;

/** How long a key with `failures` failures is held after its latest one; 0 while it has failures to spare. */
export function signInDelayMs(failures: number, free: number): number {
  if (failures < free) return 0;
  const doublings = failures - free;
  // 2^20 s is far past the cap; stopping there keeps the arithmetic finite for any count.
  if (doublings >= 20) return signInThrottle.maxDelayMs;
  return Math.min(signInThrottle.maxDelayMs, signInThrottle.firstDelayMs * 2 ** doublings);
}

/** The instant a key may try again, or null when it is not held at `now`. */
export function heldUntil(failures: number, latestFailure: Date | null, free: number, now: Date): Date | null {
  if (latestFailure === null) return null;
  const until = latestFailure.getTime() + signInDelayMs(failures, free);
  return until > now.getTime() ? new Date(until) : null;
}

/**
 * Who a sign-in comes from, for the throttle: the client's IP (`request.ip`, which follows
 * X-Forwarded-For only from a proxy TRUST_PROXY trusts). An IPv6 client gets a whole /64 from
 * its network and can pick any address in it, so the /64 is the requester; an IPv4 address
 * written as IPv6 (`::ffff:192.0.2.1`) is that IPv4 address.
 */
export function requesterOf(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.split('%')[0]!.toLowerCase().split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (`64:ff9b::192.0.2.1`) lies past the /64, so its form does not matter.
  const groups = tail === undefined ? front : [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  if (groups.length < 4) return ip;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * The device cookie: proof that this browser signed in to an account with its password before.
 * Such a browser is judged by its own failures only, not by those of its address, so an
 * attacker failing on the owner's account (even from the owner's network) cannot hold the owner
 * out. It grants nothing else. One cookie holds the tokens of the last few accounts signed in
 * with the browser; it is sent to the sign-in route only.
 */
export const deviceCookie = {
  name: 'fs_device',
  path: '/papi/login',
  lifetimeMs: 365 * 24 * 60 * 60_000,
  maxAccounts: 5,
} as const;

/** The key that signs device tokens, derived from the server secret so no other use shares it. */
export function deviceKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('fanstage device cookie').digest();
}

function deviceMac(key: Uint8Array, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64url');
}

/** A new device token for the account: `<userId>.<issued ms, base 36>.<id>.<mac>`. */
export function issueDeviceToken(key: Uint8Array, userId: number, now: Date): string {
  const body = `${userId}.${now.getTime().toString(36)}.${randomBytes(16).toString('base64url')}`;
  return `${body}.${deviceMac(key, body)}`;
}

interface DeviceToken {
  userId: number;
  issuedAt: number;
  id: string;
  token: string;
}

const deviceTokenPattern = /^([1-9]\d{0,9})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** The tokens of a device cookie whose signature is the server's and that have not run out. */
function deviceTokens(key: Uint8Array, cookie: string | undefined, now: Date): DeviceToken[] {
  if (cookie === undefined || cookie.length > 1_000) return [];
  const tokens: DeviceToken[] = [];
  for (const token of cookie.split('~')) {
    const match = deviceTokenPattern.exec(token);
    if (!match) continue;
    const [, user, issued, id, mac] = match as unknown as [string, string, string, string, string];
    const expected = Buffer.from(deviceMac(key, `${user}.${issued}.${id}`));
    if (!timingSafeEqual(expected, Buffer.from(mac))) continue;
    const issuedAt = parseInt(issued, 36);
    if (issuedAt > now.getTime() + 60_000 || now.getTime() - issuedAt > deviceCookie.lifetimeMs) continue;
    tokens.push({ userId: Number(user), issuedAt, id, token });
  }
  return tokens;
}

/**
 * The id of the device token the cookie holds for `userId`, or null. A token issued before
 * `validAfter` (the account's sessions were ended: a password change or reset, a block) counts
 * for nothing: ending the sessions ends the browsers' standing too. One issued in that very
 * millisecond may have been issued before it, so it counts for nothing either.
 */
export function deviceOf(key: Uint8Array, cookie: string | undefined, userId: number, validAfter: Date | null, now: Date): string | null {
  const found = deviceTokens(key, cookie, now).find((t) => t.userId === userId && (validAfter === null || t.issuedAt > validAfter.getTime()));
  return found?.id ?? null;
}

/** The cookie after a sign-in to `userId`: its new token first, the other accounts' valid ones after, the oldest dropped. */
export function deviceCookieAfterSignIn(key: Uint8Array, cookie: string | undefined, userId: number, now: Date): string {
  const others = deviceTokens(key, cookie, now).filter((t) => t.userId !== userId);
  return [issueDeviceToken(key, userId, now), ...others.map((t) => t.token)].slice(0, deviceCookie.maxAccounts).join('~');
}

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

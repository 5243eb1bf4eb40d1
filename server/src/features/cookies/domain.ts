import { CookieNames, TERMS_VERSION, type CookieName } from '../../../../lib/contract/account';

/**
 * The age-and-terms consent is asked for as `accept` but written as `accept_18` holding the
 * terms version the person agreed to (SPEC §9), so changed terms (a new stamp) ask again
 * while an old consent cookie stays readable for what it was.
 */
export const consentCookie = { name: 'accept_18', value: TERMS_VERSION } as const;

const daySeconds = 86_400;

export function isCookieName(name: string): name is CookieName {
  return Object.hasOwn(CookieNames, name);
}

export interface CookieToSet {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

/**
 * The cookie a `POST /papi/users/cookie` writes, or `null` when the value does not fit the
 * name. A requested lifetime longer than the name's (SPEC §9) is cut to it; 0 removes the cookie.
 */
export function cookieToSet(name: CookieName, value: string, expiresDays: number | undefined): CookieToSet | null {
  const lifetime = CookieNames[name];
  const days = Math.min(expiresDays ?? lifetime, lifetime);
  if (name === 'accept') {
    if (value !== consentCookie.value) return null;
    return { name: consentCookie.name, value, maxAgeSeconds: days * daySeconds };
  }
  // Readable by the site's scripts, so kept to printable text without separators.
  if (!/^[\w.:@+\-=,/]*$/.test(value)) return null;
  return { name, value, maxAgeSeconds: days * daySeconds };
}

/**
 * A Set-Cookie header value. Not HttpOnly: these are the site's preferences, which its
 * scripts read; nothing in them grants access to anything.
 */
export function setCookieHeader(cookie: CookieToSet, secure: boolean): string {
  const parts = [`${cookie.name}=${encodeURIComponent(cookie.value)}`, `Max-Age=${cookie.maxAgeSeconds}`, 'Path=/', 'SameSite=Lax'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

import { signal, type ReadonlySignal } from '@preact/signals-react';
import type { FanstageClient } from '../../lib/sdk';

/** SPEC §3: the public timeline's gender filter, 0–4; 0 (everyone) only for logged-in users. */
export const genderFilterValues = [0, 1, 2, 3, 4] as const;
export type GenderFilterValue = (typeof genderFilterValues)[number];
export const DEFAULT_GENDER_FILTER: GenderFilterValue = 1;

const COOKIE = 'genderfilter';

function isGenderFilter(value: number): value is GenderFilterValue {
  return (genderFilterValues as readonly number[]).includes(value);
}

function readCookie(cookie: string): GenderFilterValue | null {
  for (const part of cookie.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name !== COOKIE || value === undefined) continue;
    const parsed = Number(decodeURIComponent(value));
    return Number.isInteger(parsed) && isGenderFilter(parsed) ? parsed : null;
  }
  return null;
}

const chosen = signal<GenderFilterValue>(typeof document === 'undefined' ? DEFAULT_GENDER_FILTER : (readCookie(document.cookie) ?? DEFAULT_GENDER_FILTER));

/** The choice as stored; what applies also depends on the login (see `effectiveGender`). */
export const genderFilter: ReadonlySignal<GenderFilterValue> = chosen;

/** A visitor cannot ask for everyone (SPEC §5): a stored 0 from a logged-in visit counts as the default. */
export function effectiveGender(value: GenderFilterValue, loggedIn: boolean): GenderFilterValue {
  return value === 0 && !loggedIn ? DEFAULT_GENDER_FILTER : value;
}

/**
 * Remembers the choice for 30 days (SPEC §9) through the server's cookie endpoint, which is
 * the one place cookie lifetimes are decided; the page switches at once either way.
 */
export function chooseGenderFilter(client: FanstageClient, value: GenderFilterValue): void {
  chosen.value = value;
  client.post('/papi/users/cookie', { name: COOKIE, value: String(value) }).catch(() => undefined);
}

/** SPEC §2: the dropdown belongs to the Timeline and the public timeline only. */
export function hasGenderFilter(location: string): boolean {
  const path = location.replace(/\/+$/, '') || '/';
  return path === '/' || path === '/timeline';
}

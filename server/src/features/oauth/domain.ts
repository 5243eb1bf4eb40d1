import { UsernameLength, usernameProblem } from '../../../../lib/contract/usernames';
import { usernameBase } from '../auth/domain';

/** The HttpOnly cookie binding a sign-in to the browser that started it (the OAuth state). */
export const stateCookie = { name: 'fs_oauth', path: '/api/oauth' } as const;

/** How long the person has at the provider, and then to choose a username for a new account. */
export const requestLifetimeMs = 10 * 60_000;
export const signupLifetimeMs = 15 * 60_000;

/**
 * The same-site path a sign-in may return to, or null. Only a path of this site qualifies:
 * `//evil.example`, `/\evil.example`, `https://evil.example/…` and anything with a control
 * character would send the person elsewhere (an open redirect), and the server's own
 * `/api` and `/papi` are no pages to land on. An absolute address of the site itself is
 * reduced to its path.
 */
export function safeReturnPath(value: string | undefined, publicUrl: string): string | null {
  if (value === undefined || value === '') return '/';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (value.length > 1000 || /[\u0000-\u001f\u007f\\]/.test(value)) return null;
  const site = new URL(publicUrl);
  let url: URL;
  try {
    url = new URL(value, site);
  } catch {
    return null;
  }
  if (url.origin !== site.origin) return null;
  // A relative value must be a path of its own: `//host` parses as another origin above,
  // but `evil.example/x` would resolve below the site's path and is refused as unclear.
  if (!value.startsWith('/') && !value.startsWith(`${site.origin}/`) && value !== site.origin) return null;
  if (/^\/(api|papi)(\/|$)/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `path` with `oauth=<outcome>` added to its query, for the page to tell what happened. */
export function withOutcome(path: string, outcome: string): string {
  const url = new URL(path, 'http://site.invalid');
  url.searchParams.set('oauth', outcome);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The username offered for a new account: from the provider's name, else its e-mail, else `fan`. */
export function suggestedUsername(identity: { name: string | null; email: string | null }): string {
  const fromName = identity.name === null ? '' : usernameBase(`${identity.name.replace(/\s+/g, '.')}@x`);
  const candidate = fromName !== '' && usernameProblem(fromName) === null ? fromName : identity.email !== null ? usernameBase(identity.email) : 'fan';
  return usernameProblem(candidate) === null ? candidate.slice(0, UsernameLength.max) : 'fan_new';
}

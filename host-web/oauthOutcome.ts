import { useEffect, useRef } from 'react';
import { useSite } from './site';

/** Why an external sign-in came back without signing in (`?oauth=`, docs/oauth.md). */
const outcomes = new Set(['denied', 'expired', 'failed', 'banned', 'state-mismatch']);

let pending: string | null = null;

/** The reason the login prompt shows when it opens for a failed external sign-in, until it closes. */
export function oauthOutcome(): string | null {
  return pending;
}

export function clearOAuthOutcome(): void {
  pending = null;
}

/**
 * An external sign-in that did not sign in returns to its page with `?oauth=<why>`: once the
 * session check is done, a visitor gets the login prompt with the reason (where the "Continue
 * with …" button is again), and the address loses the parameter either way.
 */
export function useOAuthOutcome(): void {
  const { loggedIn, sessionChecked, openLoginPrompt } = useSite();
  const open = useRef(openLoginPrompt);
  open.current = openLoginPrompt;
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current || !sessionChecked) return;
    handled.current = true;
    const url = new URL(window.location.href);
    const why = url.searchParams.get('oauth');
    if (why === null) return;
    url.searchParams.delete('oauth');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    if (loggedIn || !outcomes.has(why)) return;
    pending = why;
    open.current();
  }, [sessionChecked, loggedIn]);
}

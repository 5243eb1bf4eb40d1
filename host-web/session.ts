import { effect } from '@preact/signals-core';
import type { Fanstage } from '../lib/sdk';

/** SPEC §2: a token handed over by another page of the platform, read once at start. */
const AUTHORIZATION_COOKIE = 'authorization';
/** Written by the server beside the HttpOnly refresh cookie: `1` with it, `0` once it is gone (docs/auth.md). */
const SESSION_MARKER = 'fs_session';
/** The age-and-terms consent (AgeGate.tsx): a browser that has used the site before. */
const CONSENT_COOKIE = 'accept_18';

function cookieValues(cookie: string, name: string): string[] {
  const values: string[] = [];
  for (const part of cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) values.push(rest.join('='));
  }
  return values;
}

/**
 * Whether this browser may hold a refresh cookie, so that asking for a refresh is worth a
 * request. The refresh cookie itself is HttpOnly; its marker says `1` (signed in) or `0`
 * (signed out). A browser with no marker at all but the site's consent may have signed in
 * before markers were written: it tries once, and the answer writes the marker either way.
 * A browser with neither is a visitor who never signed in here. A `1` among several markers
 * wins (one written for a parent domain cannot hide a session): a refresh too many costs a
 * request, a session hidden costs a sign-in.
 */
export function mayHaveSession(cookie: string): boolean {
  const markers = cookieValues(cookie, SESSION_MARKER);
  if (markers.includes('1')) return true;
  if (markers.length > 0) return false;
  return cookieValues(cookie, CONSENT_COOKIE).length > 0;
}

function takeAuthorizationCookie(): string | null {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== AUTHORIZATION_COOKIE) continue;
    // Read once: left in place it would win over every later, fresher session.
    document.cookie = `${AUTHORIZATION_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
    const value = decodeURIComponent(rest.join('=')).replace(/^Bearer\s+/i, '');
    return value || null;
  }
  return null;
}

/**
 * Resumes the session once, before the first guarded navigation (SPEC §2): an `authorization`
 * cookie is used as the access token if present, otherwise one refresh through the HttpOnly
 * refresh cookie is tried — when the browser may have one ({@link mayHaveSession}), so a
 * visitor's page makes no request bound to fail. Any failure only means the person is a visitor.
 */
export async function startSession(fanstage: Fanstage): Promise<boolean> {
  const token = takeAuthorizationCookie();
  // A signed-in page shows the money, chat and calls at once: their stores' code comes first.
  if (token || mayHaveSession(document.cookie)) await fanstage.loadStores().catch(() => undefined);
  if (token) {
    try {
      fanstage.session.adopt({ accessToken: token });
      await fanstage.session.loadAccount();
      return true;
    } catch {
      // An unusable token falls back to the refresh cookie below.
    }
  }
  if (!mayHaveSession(document.cookie)) return false;
  return fanstage.session.restore();
}

/**
 * Keeps the websocket open while someone is logged in (badges, balances and the chat live on
 * it): it connects at login, and a logout closes it (createFanstage does). A connection that
 * gave up is left alone: the site reloads itself before that (lib/sdk/socket/). Returns the stop.
 */
export function keepRealtimeConnected(fanstage: Fanstage): () => void {
  return effect(() => {
    if (!fanstage.session.isLoggedIn.value) return;
    // The chat and calls listen from the first message on: their code is in before the connection.
    void fanstage
      .loadStores()
      .then(() => {
        if (!fanstage.session.isLoggedIn.peek()) return;
        const state = fanstage.socket.connectedState.peek();
        if (state === 'idle' || state === 'closed') fanstage.socket.connect();
      })
      .catch(() => undefined);
  });
}

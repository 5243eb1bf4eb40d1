import { effect } from '@preact/signals-core';
import type { Fanstage } from '../lib/sdk';

/** SPEC §2: a token handed over by another page of the platform, read once at start. */
const AUTHORIZATION_COOKIE = 'authorization';

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
 * refresh cookie is tried. Any failure only means the person is a visitor.
 */
export async function startSession(fanstage: Fanstage): Promise<boolean> {
  const token = takeAuthorizationCookie();
  if (token) {
    try {
      fanstage.session.adopt({ accessToken: token });
      await fanstage.session.loadAccount();
      return true;
    } catch {
      // An unusable token falls back to the refresh cookie below.
    }
  }
  return fanstage.session.restore();
}

/**
 * Keeps the websocket open while someone is logged in (badges, balances and the chat live on
 * it): it connects at login, and a logout closes it (createFanstage does). A connection that
 * gave up is left alone: the site reloads itself before that (socket.ts). Returns the stop.
 */
export function keepRealtimeConnected(fanstage: Fanstage): () => void {
  return effect(() => {
    if (!fanstage.session.isLoggedIn.value) return;
    const state = fanstage.socket.connectedState.peek();
    if (state === 'idle' || state === 'closed') fanstage.socket.connect();
  });
}

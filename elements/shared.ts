import { createFanstage, signInWithPopup, type Fanstage, type TokenStorage } from '../lib/sdk';
import { defaultLanguage, pickLanguage, type LanguageIso } from '../lib/i18n';
import { originOf, refreshTokenKey } from './base';
import { storedVisitor } from './linkVisit';
import { relayActivity } from './activity';

export { setDefaultApiBase, resolveApiBase, originOf } from './base';

/**
 * One Fanstage object per API on a page: ten cards of the same platform make one settings
 * request, share every profile they have in common, and share one session, so a fan who signs
 * in from one card is signed in on all of them. The client's `Language` header is that of the
 * first element; each element still renders in its own language.
 *
 * The session keeps its refresh token in the body, in memory and in this page's
 * sessionStorage: a partner page is another site than the platform, where the platform's
 * cookies are third-party cookies, which browsers block.
 */
const shared = new Map<string, Fanstage>();
const restoring = new Map<string, Promise<boolean>>();

/** Settles once the page's stored session for `apiBase` was resumed or found missing. */
export function sessionRestored(apiBase: string): Promise<boolean> {
  return restoring.get(apiBase) ?? Promise.resolve(false);
}

export function fanstageFor(apiBase: string, language: LanguageIso): Fanstage {
  let fanstage = shared.get(apiBase);
  if (!fanstage) {
    const storage = pageSessionStorage();
    fanstage = createFanstage({
      baseUrl: apiBase,
      language,
      session: { mode: 'body', storageKey: refreshTokenKey(apiBase), ...(storage ? { storage } : {}) },
      // A widget never reloads its host page: it reconnects slowly and, in the end, gives up and says so.
      socket: { mode: 'widget' },
    });
    shared.set(apiBase, fanstage);
    relayActivity(apiBase, fanstage);
    // A fan who signed in before a reload of this tab is still signed in.
    restoring.set(apiBase, fanstage.session.restore());
  }
  return fanstage;
}

function pageSessionStorage(): TokenStorage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    // Storage the browser forbids (a sandboxed frame): the session lasts as long as the page.
    return undefined;
  }
}

/**
 * Signs a fan in through the platform's popup (see `signInWithPopup`), for elements talking
 * to `apiBase`. Resolves whether the fan signed in.
 */
export function signInFor(apiBase: string, fanstage: Fanstage): Promise<boolean> {
  const platformOrigin = originOf(apiBase) || window.location.origin;
  const visitor = storedVisitor(apiBase);
  return signInWithPopup(fanstage, { platformOrigin, ...(visitor ? { visitor } : {}) });
}

/** The `language` attribute, else the page's `<html lang>`, else English. */
export function resolveLanguage(attribute: string | undefined): LanguageIso {
  const candidate = attribute?.trim() || (typeof document !== 'undefined' ? document.documentElement.lang : '');
  return candidate ? pickLanguage(candidate) : defaultLanguage;
}

/** The profile's page on the platform that serves the API. */
export function profileHref(apiBase: string, username: string): string {
  return `${apiBase}/${encodeURIComponent(username)}`;
}

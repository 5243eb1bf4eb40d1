import type { AccessTokenBody, EmbedCode, EmbedCodeBody, EmbedConsent, EmbedConsentState, EmbedExchangeBody } from '../contract';
import type { FanstageClient } from './client';
import { SdkError } from './errors';
import type { SessionStore } from './stores/session';

/** The message the `/embed/login` popup posts to its opener. */
export const EMBED_CODE_MESSAGE = 'fanstage:embed-code';

export interface EmbedCodeMessage {
  type: typeof EMBED_CODE_MESSAGE;
  code: string;
}

/** The part of a popup window the sign-in watches. */
export interface PopupHandle {
  readonly closed: boolean;
  close(): void;
  focus?(): void;
}

/** Where `message` events arrive: the widget page's `window`. */
export interface MessageSource {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export interface PopupSignInOptions {
  /** The platform's origin, e.g. `https://fanstage.example`: the popup's page and the only sender trusted. */
  platformOrigin: string;
  /** The origin of the page the widget is on; default `location.origin`. */
  origin?: string;
  /** Opens the popup; default `window.open`. */
  open?: (url: string, target: string, features: string) => PopupHandle | null;
  /** Where the popup's message arrives; default `window`. */
  messages?: MessageSource;
  /** How often the popup is checked for having been closed; default 500 ms. */
  pollMs?: number;
  /** Gives up after this long without a code; default 10 minutes. */
  timeoutMs?: number;
  /**
   * The visitor id a visit through a tracking link gave this page (`linksApi(client).widgetVisit`
   * answers it): handed over with the code, so those visits become the fan's.
   */
  visitor?: string;
}

/** What the sign-in needs of a Fanstage object: the client for the exchange, the session to start. */
export interface PopupSignInTarget {
  client: FanstageClient;
  session: Pick<SessionStore, 'adopt' | 'loadAccount'>;
}

export const POPUP_WIDTH = 480;
export const POPUP_HEIGHT = 640;

/**
 * Signs a fan in from a widget on another site, with no third-party cookie: a popup on the
 * platform's origin logs the fan in there (or finds them logged in already) and posts a
 * one-time code back, addressed to this page's exact origin; the code is exchanged here for
 * a token pair, which the session keeps (use a session in `'body'` token mode). Only a message
 * from the platform's origin and from the popup this call opened counts.
 *
 * Resolves `true` once signed in and `false` when the fan closed the popup without signing in;
 * rejects with `popup-blocked` when the browser refused to open it, `popup-timeout`, or the
 * exchange's error.
 */
export function signInWithPopup(target: PopupSignInTarget, options: PopupSignInOptions): Promise<boolean> {
  const platformOrigin = new URL(options.platformOrigin).origin;
  const origin = options.origin ?? globalThis.location.origin;
  const open = options.open ?? ((url: string, name: string, features: string) => globalThis.open(url, name, features));
  const messages: MessageSource = options.messages ?? globalThis.window;
  const url = `${platformOrigin}/embed/login?origin=${encodeURIComponent(origin)}`;
  const popup = open(url, 'fanstage-sign-in', popupFeatures());
  if (!popup) return Promise.reject(new SdkError({ code: 'popup-blocked', statusCode: 0 }));
  popup.focus?.();

  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    const poll = setInterval(() => {
      if (popup.closed) finish(() => resolve(false));
    }, options.pollMs ?? 500);
    const timeout = setTimeout(() => {
      finish(() => reject(new SdkError({ code: 'popup-timeout', statusCode: 0 })));
      popup.close();
    }, options.timeoutMs ?? 10 * 60_000);

    function finish(settle: () => void): void {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      clearTimeout(timeout);
      messages.removeEventListener('message', onMessage);
      settle();
    }

    function onMessage(event: MessageEvent): void {
      // Any page, frame or extension can post to this window: only the popup we opened, on
      // the platform's origin, may hand over a code.
      if (event.origin !== platformOrigin || event.source !== (popup as unknown)) return;
      const code = codeOf(event.data);
      if (code === null || settled) return;
      // The code is taken: a closing popup must not count as a cancel while it is exchanged.
      clearInterval(poll);
      exchange(code).then(
        () => finish(() => resolve(true)),
        (error: unknown) => finish(() => reject(error)),
      );
    }

    async function exchange(code: string): Promise<void> {
      const body: EmbedExchangeBody = { code, origin, ...(options.visitor ? { visitor: options.visitor } : {}) };
      target.session.adopt(await target.client.post<AccessTokenBody>('/papi/embed/exchange', body));
      await target.session.loadAccount().catch(() => undefined);
    }

    messages.addEventListener('message', onMessage);
  });
}

function codeOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Partial<EmbedCodeMessage>;
  return message.type === EMBED_CODE_MESSAGE && typeof message.code === 'string' && message.code !== '' ? message.code : null;
}

/** Centred over the current window where the browser tells its position. */
export function popupFeatures(): string {
  const parts = [`width=${POPUP_WIDTH}`, `height=${POPUP_HEIGHT}`, 'popup=yes'];
  const win = typeof window !== 'undefined' ? window : undefined;
  if (win && typeof win.outerWidth === 'number' && win.outerWidth > 0) {
    parts.push(`left=${Math.round(win.screenX + (win.outerWidth - POPUP_WIDTH) / 2)}`);
    parts.push(`top=${Math.round(win.screenY + (win.outerHeight - POPUP_HEIGHT) / 2)}`);
  }
  return parts.join(',');
}

/**
 * The popup's side: asks the platform for a code for `origin` (needs the platform's own
 * session). A site the fan has not allowed yet answers `consent-required` unless `allow` says
 * the fan just pressed Allow, which the platform then remembers, with `allowance`: the credits
 * the site may spend a month without asking him (0, asking every time, by default).
 */
export function requestEmbedCode(client: FanstageClient, origin: string, allow = false, allowance = 0): Promise<EmbedCode> {
  const body: EmbedCodeBody = allow ? { origin, allow: true, ...(allowance > 0 ? { allowance } : {}) } : { origin };
  return client.post<EmbedCode>('/api/embed/code', body);
}

/** The popup's question: has the fan allowed `origin`, and which creators list it. */
export function embedConsentState(client: FanstageClient, origin: string): Promise<EmbedConsentState> {
  return client.get<EmbedConsentState>('/api/embed/consent', { origin });
}

/** The sites the fan allowed to use their account through widgets (settings). */
export function listEmbedConsents(client: FanstageClient): Promise<EmbedConsent[]> {
  return client.get<EmbedConsent[]>('/api/embed/consents');
}

/** Takes a site's permission back; its widget sessions end at once. */
export function revokeEmbedConsent(client: FanstageClient, origin: string): Promise<void> {
  return client.request<void>('DELETE', '/api/embed/consents', { query: { origin } });
}

import type { SpendRequest, SpendRequestStatus } from '../contract';
import type { FanstageClient } from './client';
import { SdkError } from './errors';
import { popupFeatures, type MessageSource, type PopupHandle } from './popupSignIn';
import type { SpendConfirmer } from './spendGate';

export { goesOn, type SpendConfirmer } from './spendGate';

/** The message the `/embed/confirm` popup posts to its opener once the fan answered. */
export const SPEND_ANSWER_MESSAGE = 'fanstage:spend-request';

export interface SpendAnswerMessage {
  type: typeof SPEND_ANSWER_MESSAGE;
  id: string;
  status: SpendRequestStatus;
}

/** The answers after which nothing will change. */
const SETTLED: ReadonlySet<SpendRequestStatus> = new Set(['confirmed', 'completed', 'cancelled', 'expired', 'used']);


export interface PopupConfirmerOptions {
  /** The platform's origin: the popup's page, and the only sender trusted. */
  platformOrigin: string;
  /** Opens the popup; default `window.open`. */
  open?: (url: string, target: string, features: string) => PopupHandle | null;
  /** Where the popup's message arrives; default `window`. */
  messages?: MessageSource;
  /** How often the request is read while the popup is open; default 1.5 s. */
  pollMs?: number;
  /** Gives up after this long; default 10 minutes, the request's own life. */
  timeoutMs?: number;
}

/**
 * The platform's confirmation popup: opens `/embed/confirm?request=…` on the platform's origin,
 * where the fan (signed in there) sees the site, the creator, what and how much, and confirms or
 * cancels — or, for a card payment, pays in the card window. The server is the judge of the
 * answer: the popup's message only says when to look, and the request is read from the API
 * when it comes, while the popup is open, and once it closed.
 *
 * Rejects with `popup-blocked` when the browser refused the window (call it from a click).
 */
export function createPopupConfirmer(client: FanstageClient, options: PopupConfirmerOptions): SpendConfirmer {
  const platformOrigin = new URL(options.platformOrigin).origin;
  const open = options.open ?? ((url: string, name: string, features: string) => globalThis.open(url, name, features));
  const pollMs = options.pollMs ?? 1500;
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;

  const read = (id: string) => client.get<SpendRequest>(`/api/spend-requests/${encodeURIComponent(id)}`);

  return {
    confirm(ref, signal) {
      const messages: MessageSource | undefined = options.messages ?? (typeof window === 'undefined' ? undefined : window);
      const url = `${platformOrigin}/embed/confirm?request=${encodeURIComponent(ref.id)}`;
      const opened = open(url, 'fanstage-confirm', popupFeatures());
      if (!opened) return Promise.reject(new SdkError({ code: 'popup-blocked', statusCode: 0, body: ref }));
      const popup: PopupHandle = opened;
      popup.focus?.();

      return new Promise<SpendRequest>((resolve, reject) => {
        let settled = false;
        let reading = false;
        const timer = setInterval(() => void look(popup.closed), pollMs);
        const timeout = setTimeout(() => {
          finish(() => reject(new SdkError({ code: 'popup-timeout', statusCode: 0, body: ref })));
          popup.close();
        }, timeoutMs);
        const abort = () => {
          finish(() => reject(new SdkError({ code: 'aborted', statusCode: 0 })));
          popup.close();
        };
        signal?.addEventListener('abort', abort, { once: true });

        function finish(settle: () => void): void {
          if (settled) return;
          settled = true;
          clearInterval(timer);
          clearTimeout(timeout);
          signal?.removeEventListener('abort', abort);
          messages?.removeEventListener('message', onMessage);
          settle();
        }

        /** Reads the request; a closed popup with the request still open means the fan walked away. */
        async function look(closed: boolean): Promise<void> {
          if (settled || reading) return;
          reading = true;
          try {
            const now = await read(ref.id);
            if (SETTLED.has(now.status) || closed) {
              finish(() => resolve(now));
              if (!popup.closed) popup.close();
            }
          } catch (error) {
            // The connection may come back while the popup is open; once it closed, say so.
            if (closed) finish(() => reject(error));
          } finally {
            reading = false;
          }
        }

        function onMessage(event: MessageEvent): void {
          if (event.origin !== platformOrigin || event.source !== (popup as unknown)) return;
          const data = event.data as Partial<SpendAnswerMessage> | null;
          if (data?.type !== SPEND_ANSWER_MESSAGE || data.id !== ref.id) return;
          void look(false);
        }

        messages?.addEventListener('message', onMessage);
      });
    },
  };
}

/**
 * The popup's side: the request to show, the fan's answer, and the card payment that completes a
 * top-up or a card subscription (made with `spendRequestId` on the platform's card routes).
 */
export const spendRequestsApi = (client: FanstageClient) => ({
  get: (id: string) => client.get<SpendRequest>(`/api/spend-requests/${encodeURIComponent(id)}`),
  confirm: (id: string) => client.post<SpendRequest>(`/api/spend-requests/${encodeURIComponent(id)}/confirm`),
  cancel: (id: string) => client.post<SpendRequest>(`/api/spend-requests/${encodeURIComponent(id)}/cancel`),
});

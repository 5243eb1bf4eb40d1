/**
 * A card payment (SPEC §7 Payments): the processor's card page in a popup (or the page itself),
 * the order checked every 1.5 s and at once when `/gopay-return` reports back, until it is paid,
 * refused, or the person gives up. Shared by the wallet's top-ups and the subscriptions' card
 * purchases (`createCardPaymentFlow`).
 */
import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { PaymentOrder } from '../../../contract';
import type { PaymentStatus } from '../../../contract/constants';
import type { FanstageClient } from '../../client';
import { paymentsApi } from '../../api-money';
import { SdkError } from '../../errors';
import { POPUP_HEIGHT, POPUP_WIDTH, type MessageSource, type PopupHandle } from '../../popupSignIn';
import { asSdkError } from '../shared/errors';

/** The message `/gopay-return` posts to the window that opened it. */
export const PAYMENT_MESSAGE = 'fanstage:payment';

export const PAYMENT_POLL_MS = 1500;

export type PaymentMode = 'popup' | 'redirect';

export interface PaymentProgress {
  phase: 'starting' | 'card-page' | 'processing' | 'blocked';
  order: PaymentOrder | null;
}

export interface PaymentWaitOptions {
  processor?: string;
  signal?: AbortSignal;
}

export interface WalletStoreOptions {
  isLoggedIn?: () => boolean;
  /** Opens the card page window; default `window.open`. */
  openWindow?: (url: string, target: string, features: string) => PopupHandle | null;
  /** Leaves the page for the card page (redirect mode); default `location.assign`. */
  navigate?: (url: string) => void;
  /** Where `/gopay-return`'s message arrives; default `window`. */
  messages?: MessageSource;
  /** How often an order is checked while it is paid; default 1.5 s. */
  pollMs?: number;
  /** How long to wait for a card payment; default 20 minutes. */
  maxWaitMs?: number;
  /**
   * A partner site's session: cards are paid in the platform's card window, which the client's
   * spend confirmer opens (docs/spending.md), so no window of the processor's is opened first.
   */
  cardWindow?: boolean;
}

const FINAL: ReadonlySet<PaymentStatus> = new Set(['paid', 'declined', 'failed', 'expired']);
/** Checks made after the person closed the card page, for a callback that is still on its way. */
const CHECKS_AFTER_CLOSE = 3;

/** The error an order that ended without being paid rejects with. */
export function paymentFailure(order: PaymentOrder): SdkError {
  const code = order.status === 'declined' ? 'payment-declined' : order.status === 'processing' ? 'payment_is_processing' : (order.failureReason ?? 'payment-failed');
  return new SdkError({ code, statusCode: -1, body: order });
}

function windowFeatures(): string {
  const parts = [`width=${POPUP_WIDTH}`, `height=${POPUP_HEIGHT + 80}`, 'popup=yes'];
  const win = typeof window !== 'undefined' ? window : undefined;
  if (win && typeof win.outerWidth === 'number' && win.outerWidth > 0) {
    parts.push(`left=${Math.round(win.screenX + (win.outerWidth - POPUP_WIDTH) / 2)}`);
    parts.push(`top=${Math.round(win.screenY + (win.outerHeight - POPUP_HEIGHT) / 2)}`);
  }
  return parts.join(',');
}

/**
 * Waits for a card payment: the card page in a popup (or the page itself), the order checked
 * every 1.5 s and at once when `/gopay-return` reports back. Shared by top-ups and subscriptions.
 */
export interface CardPaymentFlow {
  readonly progress: ReadonlySignal<PaymentProgress | null>;
  /**
   * Runs one payment. `start` makes the order; `popup` says whether to open the card page window
   * before it (synchronously, from the click). Resolves with the paid order.
   */
  run(start: () => Promise<PaymentOrder>, options: { mode: PaymentMode; openPopupFirst: boolean; processor?: string }): Promise<PaymentOrder>;
  wait(orderId: string, options?: PaymentWaitOptions): Promise<PaymentOrder>;
  openCardPage(): boolean;
  cancel(): void;
}

export function createCardPaymentFlow(client: FanstageClient, options: WalletStoreOptions, onPaid: (order: PaymentOrder) => Promise<unknown>): CardPaymentFlow {
  const api = paymentsApi(client);
  const progress = signal<PaymentProgress | null>(null);
  const pollMs = options.pollMs ?? PAYMENT_POLL_MS;
  const maxWaitMs = options.maxWaitMs ?? 20 * 60_000;
  const open =
    options.openWindow ??
    ((url: string, target: string, features: string) => (typeof window !== 'undefined' && typeof window.open === 'function' ? window.open(url, target, features) : null));
  const navigate = options.navigate ?? ((url: string) => globalThis.location.assign(url));
  const apiOrigin = (() => {
    try {
      return new URL(client.baseUrl || globalThis.location.href).origin;
    } catch {
      return null;
    }
  })();

  let popup: PopupHandle | null = null;
  let pendingUrl: string | null = null;
  let current: AbortController | null = null;
  /**
   * Whether the card window has reached `/gopay-return` and said so. That page resumes the
   * session before it reports; a window closed under it before then could lose the answer of
   * that refresh, and with it the session's current token.
   */
  let popupReported = false;

  function tryOpen(url: string): PopupHandle | null {
    try {
      return open(url, 'fanstage-payment', windowFeatures()) ?? null;
    } catch {
      return null;
    }
  }

  function showCardPage(url: string): void {
    pendingUrl = url;
    if (popup && !popup.closed) {
      try {
        (popup as unknown as Window).location.href = url;
        popup.focus?.();
        return;
      } catch {
        popup = null;
      }
    }
    popup = tryOpen(url);
    popup?.focus?.();
  }

  function closePopup(): void {
    try {
      popup?.close();
    } catch {
      // Already gone.
    }
    popup = null;
  }

  function settleOrder(order: PaymentOrder): Promise<PaymentOrder> {
    if (order.status === 'paid') return onPaid(order).then(() => order, () => order);
    return Promise.reject(paymentFailure(order));
  }

  /** Checks the order until it is final; `watchPopup` ends the wait soon after the card page closes. */
  function poll(order: PaymentOrder, processor: string, signal: AbortSignal, watchPopup: boolean): Promise<PaymentOrder> {
    return new Promise<PaymentOrder>((resolve, reject) => {
      let last = order;
      let timer: ReturnType<typeof setTimeout> | null = null;
      let inFlight = false;
      let again = false;
      let checksLeft = CHECKS_AFTER_CLOSE;
      const deadline = Date.now() + maxWaitMs;
      const messages: MessageSource | undefined = options.messages ?? (typeof window !== 'undefined' ? window : undefined);

      function finish(settle: () => void): void {
        if (timer) clearTimeout(timer);
        timer = null;
        messages?.removeEventListener('message', onMessage);
        signal.removeEventListener('abort', onAbort);
        settle();
      }
      function onAbort(): void {
        finish(() => reject(new SdkError({ code: 'aborted', statusCode: 0, body: last })));
      }
      function onMessage(event: MessageEvent): void {
        if (apiOrigin !== null && event.origin !== apiOrigin) return;
        const data = event.data as { type?: unknown; id?: unknown } | null;
        if (!data || data.type !== PAYMENT_MESSAGE || String(data.id) !== order.id) return;
        popupReported = true;
        check();
      }
      function schedule(): void {
        if (timer) clearTimeout(timer);
        timer = setTimeout(check, pollMs);
      }
      function check(): void {
        if (signal.aborted) return;
        if (inFlight) {
          again = true;
          return;
        }
        if (timer) clearTimeout(timer);
        timer = null;
        inFlight = true;
        api
          .result(order.id, processor, signal)
          .then((next) => {
            last = next;
            if (FINAL.has(next.status)) {
              finish(() => resolve(next));
              return;
            }
            if (next.status === 'processing') progress.value = { phase: 'processing', order: next };
            else if (next.redirectUrl && next.redirectUrl !== pendingUrl && watchPopup) showCardPage(next.redirectUrl);
            if (Date.now() > deadline) {
              finish(() => reject(next.status === 'processing' ? paymentFailure(next) : new SdkError({ code: 'timeout', statusCode: 0, body: next })));
              return;
            }
            if (watchPopup && popup?.closed) {
              checksLeft -= 1;
              if (checksLeft < 0) {
                finish(() => reject(next.status === 'processing' ? paymentFailure(next) : new SdkError({ code: 'aborted', statusCode: 0, body: next })));
                return;
              }
            }
            schedule();
          })
          .catch((cause: unknown) => {
            if (signal.aborted) return;
            const error = asSdkError(cause);
            // A lost answer is asked again; a refusal (the order is not ours, unknown) ends the wait.
            if (error.retryable && Date.now() <= deadline) schedule();
            else finish(() => reject(error));
          })
          .finally(() => {
            inFlight = false;
            if (again) {
              again = false;
              check();
            }
          });
      }

      signal.addEventListener('abort', onAbort, { once: true });
      messages?.addEventListener('message', onMessage);
      schedule();
    });
  }

  function begin(): AbortController {
    current?.abort();
    const own = new AbortController();
    current = own;
    return own;
  }

  /**
   * Ends a run. The card window is closed when the person gave up, or once `/gopay-return` in
   * it has reported back (it closes itself too); before that it is left to finish, since the
   * page may be resuming its session at that moment.
   */
  function end(own: AbortController): void {
    if (current !== own) return;
    current = null;
    pendingUrl = null;
    if (own.signal.aborted || popupReported) closePopup();
    else popup = null;
    popupReported = false;
    progress.value = null;
  }

  async function run(
    start: () => Promise<PaymentOrder>,
    runOptions: { mode: PaymentMode; openPopupFirst: boolean; processor?: string },
  ): Promise<PaymentOrder> {
    const own = begin();
    // Opened before anything is awaited, so the click that called us still counts.
    popupReported = false;
    if (runOptions.mode === 'popup' && runOptions.openPopupFirst && !options.cardWindow) {
      closePopup();
      popup = tryOpen('about:blank');
    }
    progress.value = { phase: 'starting', order: null };
    try {
      const order = await start();
      if (own.signal.aborted) throw new SdkError({ code: 'aborted', statusCode: 0, body: order });
      const processor = runOptions.processor ?? order.processor;
      if (FINAL.has(order.status)) return await settleOrder(order);
      if (order.redirectUrl && runOptions.mode === 'redirect') {
        navigate(order.redirectUrl);
        return order;
      }
      if (order.redirectUrl) {
        showCardPage(order.redirectUrl);
        progress.value = { phase: popup ? 'card-page' : 'blocked', order };
      } else {
        closePopup();
        progress.value = { phase: order.status === 'processing' ? 'processing' : 'card-page', order };
      }
      const final = await poll(order, processor, own.signal, order.redirectUrl !== null);
      return await settleOrder(final);
    } finally {
      end(own);
    }
  }

  async function wait(orderId: string, waitOptions: PaymentWaitOptions = {}): Promise<PaymentOrder> {
    const own = begin();
    const forward = () => own.abort();
    waitOptions.signal?.addEventListener('abort', forward, { once: true });
    try {
      const processor = waitOptions.processor ?? 'sandbox';
      const first = await api.result(orderId, processor, own.signal);
      if (FINAL.has(first.status)) return await settleOrder(first);
      progress.value = { phase: first.status === 'processing' ? 'processing' : 'card-page', order: first };
      return await settleOrder(await poll(first, processor, own.signal, false));
    } finally {
      waitOptions.signal?.removeEventListener('abort', forward);
      end(own);
    }
  }

  return {
    progress,
    run,
    wait,
    openCardPage() {
      if (!pendingUrl) return false;
      popup = tryOpen(pendingUrl);
      if (!popup) return false;
      popup.focus?.();
      const now = progress.peek();
      if (now) progress.value = { ...now, phase: 'card-page' };
      return true;
    },
    cancel() {
      current?.abort();
    },
  };
}


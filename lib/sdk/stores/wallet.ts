/**
 * The viewer's wallet (SPEC §3 Balance, Card, Package, Transaction; §4 "stale balance messages
 * are discarded"; §7 Payments): the balance as a signal, credit packages, processors, saved
 * cards, the history in pages of 30, card top-ups, and spending credits on gifts, tips and
 * unlocks. Amounts are integer cents; one credit is one cent.
 *
 * API (stable):
 *
 *   const wallet = fanstage.wallet;           // createWalletStore(client, options)
 *
 *   wallet.balance        ReadonlySignal<Balance | null>   null until loaded, and when logged out
 *   wallet.balanceStatus  ReadonlySignal<'idle' | 'loading' | 'ready' | 'error'>
 *   wallet.balanceError   ReadonlySignal<SdkError | null>  show couldnt-get-info-from-server
 *   wallet.refresh()      Promise<Balance | null>  GET /api/payments/balance (callers at once share one request)
 *   wallet.apply(update)  boolean  takes a balance (or `{gBalance, ts}` and the like) unless its
 *                         `ts` is older than the current one; the websocket's amountChange calls it
 *
 *   wallet.packages / processors / cards   ReadonlySignal<... | null>
 *   wallet.loadPackages() / loadProcessors() / loadCards()   (cached; pass `true` to reload)
 *   wallet.deleteCard(id)
 *   wallet.preferredProcessor / preferProcessor(name)   the processor a page asked for (SPEC §2
 *                         `pgw`): a top-up offers it first while it is among the processors
 *   wallet.transactions   PagedList<Transaction>   .start() .nextPage() .items .status (pages by ts, 30)
 *
 *   wallet.topUp({packageId, processor, cardId?, saveCard?, mode: 'popup' | 'redirect', returnUrl?})
 *       → Promise<PaymentOrder>. Call it straight from the click: in popup mode the window opens
 *       before the first await, so popup blockers let it through. Resolves with the paid order
 *       (the balance is refreshed by then). Rejects with SdkError `payment-declined`,
 *       `payment-failed` (or the order's failureReason), `payment_is_processing` when the
 *       processor is still working after the wait, `aborted` when the person closed the card
 *       page or `cancelPayment()` was called; `body` holds the last order when there is one.
 *       In redirect mode the page leaves for the card page and the promise resolves with the
 *       order as created; `/gopay-return?id=` then calls `wallet.awaitPayment(id)`.
 *   wallet.payment        ReadonlySignal<PaymentProgress | null>  the card payment under way:
 *                         phase 'starting' | 'card-page' | 'processing' | 'blocked'. In 'blocked'
 *                         the browser refused the popup: offer a button that calls `openCardPage()`.
 *   wallet.openCardPage() opens the pending card page from a click.
 *   wallet.cancelPayment() stops waiting (closes the popup); the payment rejects with `aborted`.
 *   wallet.awaitPayment(orderId, {processor?, signal?}) → Promise<PaymentOrder>, the same rules.
 *
 *   wallet.gift(postId, giftId, {idempotencyKey?})   → Promise<GiftResult>   POST /api/posts/gift
 *   wallet.tip(userId, giftId, {idempotencyKey?})    → Promise<GiftResult>   POST /api/users/tip
 *       Each attempt carries a key; sending the same gift again after a network failure reuses
 *       it, so the server gives it once. The answer's balance is applied.
 *   wallet.unlock({mediaId, mediaPrice})  → Promise<UnlockResult>  `.mediaUnlockHash` is the key
 *
 *   Spending failures reject with SdkError: `noMoney` (open the top-up), `price-changed`,
 *   `nsfw-agreement-required`, `gift-not-found`, ...
 *
 *   wallet.reset()        forgets everything (logout).
 */
import { batch, signal, type ReadonlySignal } from '@preact/signals-core';
import type { Balance, Card, CreditPackage, GiftResult, PaymentOrder, Processor, Transaction, UnlockResult } from '../../contract';
import type { PaymentStatus } from '../../contract/constants';
import type { FanstageClient } from '../client';
import { browserData, paymentsApi, spendingApi } from '../api-money';
import { SdkError } from '../errors';
import { POPUP_HEIGHT, POPUP_WIDTH, type MessageSource, type PopupHandle } from '../popupSignIn';
import { createPagedList, type PagedList } from './shared/paged';
import { asSdkError } from './shared/errors';
import { createRetryKeys } from './shared/keys';

/** The message `/gopay-return` posts to the window that opened it. */
export const PAYMENT_MESSAGE = 'fanstage:payment';

export const PAYMENT_POLL_MS = 1500;
export const TRANSACTIONS_PAGE = 30;

export type PaymentMode = 'popup' | 'redirect';

/** A balance, or the part of one that a spend or a websocket message carries, with its time. */
export type BalanceUpdate = Partial<Balance> & { ts: number };

export interface TopUpOptions {
  packageId: number;
  processor: string;
  /** Pays with a saved card; without it the processor's card page is opened. */
  cardId?: number;
  saveCard?: boolean;
  mode: PaymentMode;
  /** Where `/gopay-return` sends the person afterwards in redirect mode. */
  returnUrl?: string;
}

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

// Kept in ./shared/keys with the other stores' keys; named here too, as before.
export { newIdempotencyKey } from './shared/keys';

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

export function createWalletStore(client: FanstageClient, options: WalletStoreOptions = {}) {
  const payments = paymentsApi(client);
  const spending = spendingApi(client);
  const loggedIn = () => options.isLoggedIn?.() ?? true;

  const balance = signal<Balance | null>(null);
  const balanceStatus = signal<'idle' | 'loading' | 'ready' | 'error'>('idle');
  const balanceError = signal<SdkError | null>(null);
  const packages = signal<readonly CreditPackage[] | null>(null);
  const processors = signal<readonly Processor[] | null>(null);
  const cards = signal<readonly Card[] | null>(null);
  const preferredProcessor = signal<string | null>(null);
  // Bumped by reset, so an answer that arrives after a logout is not kept.
  let generation = 0;
  let refreshing: Promise<Balance | null> | null = null;
  // A spend whose answer was lost goes again with its key, so it is charged once.
  const spendKeys = createRetryKeys();

  function apply(update: BalanceUpdate): boolean {
    if (!update || typeof update.ts !== 'number') return false;
    const now = balance.peek();
    if (now && update.ts < now.ts) return false;
    if (!now) {
      if (!isFullBalance(update)) {
        // Nothing to merge a part into: the whole balance is asked for instead.
        if (loggedIn()) void refresh().catch(() => undefined);
        return false;
      }
      balance.value = { ...update };
      return true;
    }
    balance.value = { ...now, ...update };
    return true;
  }

  function refresh(): Promise<Balance | null> {
    if (!loggedIn()) {
      reset();
      return Promise.resolve(null);
    }
    if (refreshing) return refreshing;
    const asOf = generation;
    balanceStatus.value = 'loading';
    const pending = payments
      .balance()
      .then(
        (next) => {
          if (asOf !== generation) return balance.peek();
          batch(() => {
            apply(next);
            balanceStatus.value = 'ready';
            balanceError.value = null;
          });
          return balance.peek();
        },
        (cause: unknown) => {
          if (asOf === generation) {
            batch(() => {
              balanceError.value = asSdkError(cause);
              balanceStatus.value = 'error';
            });
          }
          throw cause;
        },
      )
      .finally(() => {
        if (refreshing === pending) refreshing = null;
      });
    refreshing = pending;
    return pending;
  }

  function cached<T>(target: { value: T | null; peek(): T | null }, load: () => Promise<T>) {
    let loading: Promise<T> | null = null;
    return (force = false): Promise<T> => {
      const have = target.peek();
      if (have !== null && !force) return Promise.resolve(have);
      if (loading) return loading;
      const asOf = generation;
      const before = target.peek();
      const pending = load()
        .then((value) => {
          // Kept unless the list changed here while it was asked for (a card removed): that
          // change is newer than this answer.
          if (asOf === generation && target.peek() === before) target.value = value;
          return value;
        })
        .finally(() => {
          if (loading === pending) loading = null;
        });
      loading = pending;
      return pending;
    };
  }

  const loadPackages = cached(packages, () => payments.packages());
  const loadProcessors = cached(processors, () => payments.processors());
  const loadCards = cached(cards, () => payments.cards());

  async function deleteCard(id: number): Promise<void> {
    const before = cards.peek();
    if (before) cards.value = before.filter((card) => card.id !== id);
    try {
      await payments.deleteCard(id);
    } catch (error) {
      if (before && cards.peek() !== null) cards.value = before;
      throw error;
    }
  }

  const transactionsList = (): PagedList<Transaction> =>
    createPagedList<Transaction>({
      pageSize: TRANSACTIONS_PAGE,
      idOf: (t) => t.id,
      fetchPage: ({ last, limit }, signal) => payments.transactions(last ? { ts: last.ts, limit } : { limit }, signal),
    });
  let transactions = transactionsList();

  const flow = createCardPaymentFlow(client, options, async () => {
    await refresh().catch(() => undefined);
    void loadCards(true).catch(() => undefined);
    // A history on screen shows the purchase at once, not after a reload.
    if (transactions.status.peek() !== 'idle') void transactions.reload().catch(() => undefined);
  });

  function topUp(request: TopUpOptions): Promise<PaymentOrder> {
    const browser = browserData();
    if (request.cardId !== undefined) {
      const cardId = request.cardId;
      // A saved card is charged without a page; only a second step asked by the processor opens one.
      return flow.run(() => payments.payOldCard({ packageId: request.packageId, cardId, processor: request.processor, ...browser }), {
        mode: request.mode,
        openPopupFirst: false,
        processor: request.processor,
      });
    }
    return flow.run(
      () =>
        payments.payNewCard({
          packageId: request.packageId,
          processor: request.processor,
          ...(request.saveCard !== undefined ? { saveCard: request.saveCard } : {}),
          ...(request.returnUrl !== undefined ? { returnUrl: request.returnUrl } : {}),
          ...browser,
        }),
      { mode: request.mode, openPopupFirst: true, processor: request.processor },
    );
  }

  async function spend<T extends { gBalance: number; ts: number }>(slot: string, key: string | undefined, send: (key: string) => Promise<T>): Promise<T> {
    const result = await spendKeys.run(slot, key, send);
    apply({ gBalance: result.gBalance, ts: result.ts });
    return result;
  }

  function gift(postId: number, giftId: number, spendOptions: { idempotencyKey?: string } = {}): Promise<GiftResult> {
    return spend(`post:${postId}:${giftId}`, spendOptions.idempotencyKey, (idempotencyKey) => spending.giftPost({ postId, giftId, idempotencyKey }));
  }

  function tip(userId: number, giftId: number, spendOptions: { idempotencyKey?: string } = {}): Promise<GiftResult> {
    return spend(`user:${userId}:${giftId}`, spendOptions.idempotencyKey, (idempotencyKey) => spending.tip({ userId, giftId, idempotencyKey }));
  }

  async function unlock(media: { mediaId: number; mediaPrice: number }): Promise<UnlockResult> {
    const result = await spending.unlock({ id: media.mediaId, price: media.mediaPrice });
    apply({ gBalance: result.gBalance, ts: result.ts });
    return result;
  }

  function reset(): void {
    generation += 1;
    refreshing = null;
    spendKeys.clear();
    flow.cancel();
    transactions.dispose();
    transactions = transactionsList();
    batch(() => {
      balance.value = null;
      balanceStatus.value = 'idle';
      balanceError.value = null;
      cards.value = null;
    });
  }

  return {
    balance: balance as ReadonlySignal<Balance | null>,
    balanceStatus: balanceStatus as ReadonlySignal<'idle' | 'loading' | 'ready' | 'error'>,
    balanceError: balanceError as ReadonlySignal<SdkError | null>,
    refresh,
    apply,
    packages: packages as ReadonlySignal<readonly CreditPackage[] | null>,
    processors: processors as ReadonlySignal<readonly Processor[] | null>,
    cards: cards as ReadonlySignal<readonly Card[] | null>,
    loadPackages,
    loadProcessors,
    loadCards,
    deleteCard,
    /** The processor a link asked for (`?pgw=`), offered first by a top-up when it is one of the processors. */
    preferredProcessor: preferredProcessor as ReadonlySignal<string | null>,
    preferProcessor(name: string | null): void {
      preferredProcessor.value = name;
    },
    /** The wallet's history, newest first (a fresh list after `reset`). */
    get transactions(): PagedList<Transaction> {
      return transactions;
    },
    topUp,
    payment: flow.progress,
    openCardPage: flow.openCardPage,
    cancelPayment: flow.cancel,
    awaitPayment: flow.wait,
    gift,
    tip,
    unlock,
    reset,
    /** The card-payment flow, for stores that pay by card too (subscriptions). */
    cardPayments: flow,
  };
}

function isFullBalance(update: BalanceUpdate): update is Balance {
  return (
    typeof update.gBalance === 'number' &&
    typeof update.cBalance === 'number' &&
    typeof update.cPayout === 'number' &&
    typeof update.isFirst === 'boolean' &&
    typeof update.myCbalance === 'number' &&
    typeof update.myCbalance_acked === 'number' &&
    typeof update.firstEarningsSeen === 'boolean'
  );
}

export type WalletStore = ReturnType<typeof createWalletStore>;

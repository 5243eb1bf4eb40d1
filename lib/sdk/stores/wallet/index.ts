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
 *
 * The card payment itself (popup or redirect, the order checked until it is final), which the
 * subscriptions store shares, is `cardPayment.ts`; this file holds the balance, the lists and
 * the spends.
 */
import { batch, signal, type ReadonlySignal } from '@preact/signals-core';
import type { Balance, Card, CreditPackage, GiftResult, PaymentOrder, Processor, Transaction, UnlockResult } from '../../../contract';
import type { FanstageClient } from '../../client';
import { browserData, paymentsApi, spendingApi } from '../../api-money';
import type { SdkError } from '../../errors';
import { createPagedList, type PagedList } from '../shared/paged';
import { asSdkError } from '../shared/errors';
import { createRetryKeys } from '../shared/keys';
import { createCardPaymentFlow, type PaymentMode, type WalletStoreOptions } from './cardPayment';

export {
  createCardPaymentFlow,
  paymentFailure,
  PAYMENT_MESSAGE,
  PAYMENT_POLL_MS,
  type CardPaymentFlow,
  type PaymentMode,
  type PaymentProgress,
  type PaymentWaitOptions,
  type WalletStoreOptions,
} from './cardPayment';
// Kept in ../shared/keys with the other stores' keys; named here too, as before.
export { newIdempotencyKey } from '../shared/keys';

export const TRANSACTIONS_PAGE = 30;

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

/** Every field of a whole `Balance` (lib/contract/payments.ts); the check below fails to compile if one is missing. */
const balanceFields = ['gBalance', 'cBalance', 'cPayout', 'ts', 'isFirst', 'myCbalance', 'myCbalance_acked', 'firstEarningsSeen'] as const satisfies readonly (keyof Balance)[];
const _everyBalanceField: Exclude<keyof Balance, (typeof balanceFields)[number]> extends never ? true : never = true;
void _everyBalanceField;

/** An update that carries every field of a balance is a whole one (`amountChange` carries a part). */
function isFullBalance(update: BalanceUpdate): update is Balance {
  return balanceFields.every((field) => update[field] !== undefined);
}

export type WalletStore = ReturnType<typeof createWalletStore>;

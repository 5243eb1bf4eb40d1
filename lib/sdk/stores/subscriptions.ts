/**
 * Subscriptions (SPEC §3 Subscription, §4 Subscription status, §7 Subscriptions): a creator's
 * offers, subscribing with credits or by card, cancelling and continuing, and the two lists.
 *
 *   subscriptions.offers(userId)                 → Promise<Offer[]> (with the viewer's own subscription when logged in)
 *   subscriptions.subscribe(offerId, priceCents?) → Promise<Subscription>  pays with credits; noMoney → open the top-up
 *   subscriptions.subscribeByCard(offerId, {cardId?, processor?, mode, returnUrl?})
 *                                                → Promise<PaymentOrder>  same popup/redirect handling as wallet.topUp
 *   subscriptions.cancel(id) / revertCancel(id)  → Promise<Subscription | undefined>
 *   subscriptions.subscribing / subscribers(offerId?)   PagedList<Subscription>, pages of 30
 *   subscriptions.createOffer(body) / deleteOffer(id)
 *   subscriptions.updateOffer(id, {priceCents?, name?}) / archiveOffer(id) / restoreOffer(id)
 *   subscriptions.ownOffers / loadOwnOffers(userId)  the creator's own offers, archived ones too
 */
import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { CreateOfferBody, Offer, PaymentOrder, Subscription, UpdateOfferBody } from '../../contract';
import type { FanstageClient } from '../client';
import { subscriptionsApi } from '../api-money';
import { pageSizes } from '../rules/constants';
import { createPagedList, type PagedList } from './shared/paged';
import type { PaymentMode, WalletStore } from './wallet';

export interface SubscribeByCardOptions {
  /** Pays with a saved card; without it the processor's card page is opened. */
  cardId?: number;
  processor?: string;
  mode: PaymentMode;
  returnUrl?: string;
}

export function createSubscriptionsStore(
  client: FanstageClient,
  wallet: Pick<WalletStore, 'apply' | 'refresh' | 'cardPayments'>,
  options: { isLoggedIn?: () => boolean } = {},
) {
  const api = subscriptionsApi(client);
  const loggedIn = () => options.isLoggedIn?.() ?? true;

  const subscribingList = () =>
    createPagedList<Subscription>({
      pageSize: pageSizes.subscriptions,
      idOf: (s) => s.id,
      fetchPage: ({ offset }, signal) => api.subscribing(offset ? { offset } : {}, signal),
    });
  let subscribing = subscribingList();
  const subscriberLists = new Map<number, PagedList<Subscription>>();

  /** The fans subscribed to the viewer, all offers (0) or one. */
  function subscribers(offerId = 0): PagedList<Subscription> {
    let list = subscriberLists.get(offerId);
    if (!list) {
      list = createPagedList<Subscription>({
        pageSize: pageSizes.subscriptions,
        idOf: (s) => s.id,
        fetchPage: ({ offset }, signal) => api.subscribers({ ...(offset ? { offset } : {}), ...(offerId ? { offerId } : {}) }, signal),
      });
      subscriberLists.set(offerId, list);
    }
    return list;
  }

  function offers(userId: number, signal?: AbortSignal): Promise<Offer[]> {
    return api.offers(userId, loggedIn(), signal);
  }

  async function subscribe(offerId: number, priceCents?: number): Promise<Subscription> {
    const subscription = await api.subscribe(offerId, priceCents);
    await wallet.refresh().catch(() => undefined);
    return subscription;
  }

  /** Call it straight from the click: in popup mode the card page window opens before the first await. */
  function subscribeByCard(offerId: number, pay: SubscribeByCardOptions): Promise<PaymentOrder> {
    const body = {
      offerId,
      ...(pay.cardId !== undefined ? { cardId: pay.cardId } : {}),
      ...(pay.processor !== undefined ? { processor: pay.processor } : {}),
      ...(pay.returnUrl !== undefined ? { returnUrl: pay.returnUrl } : {}),
    };
    const start = async () => (await (pay.cardId !== undefined ? api.payOldCard(body) : api.payNewCard(body))).order;
    return wallet.cardPayments.run(start, {
      mode: pay.mode,
      openPopupFirst: pay.cardId === undefined,
      ...(pay.processor !== undefined ? { processor: pay.processor } : {}),
    });
  }

  function cancel(id: number): Promise<Subscription | undefined> {
    return api.cancel(id);
  }

  function revertCancel(id: number): Promise<Subscription | undefined> {
    return api.revertCancel(id);
  }

  /** The creator's own offers as last read or changed here (null before the first read). */
  const ownOffers = signal<readonly Offer[] | null>(null);

  async function loadOwnOffers(userId: number): Promise<readonly Offer[]> {
    const list = await api.offers(userId, true);
    ownOffers.value = list;
    return list;
  }

  /** Puts a changed offer into the own list (or drops it when `offer` is null). */
  function applyOwn(id: number, offer: Offer | null): void {
    const list = ownOffers.peek() ?? [];
    const others = list.filter((o) => o.id !== id);
    ownOffers.value = offer === null ? others : [...others, offer].sort((a, b) => a.priceCents - b.priceCents || a.id - b.id);
  }

  async function createOffer(body: CreateOfferBody): Promise<Offer> {
    const offer = await api.createOffer(body);
    applyOwn(offer.id, offer);
    return offer;
  }

  async function updateOffer(id: number, body: UpdateOfferBody): Promise<Offer> {
    const offer = await api.updateOffer(id, body);
    applyOwn(id, offer);
    return offer;
  }

  async function archiveOffer(id: number): Promise<Offer> {
    const offer = await api.archiveOffer(id);
    applyOwn(id, offer);
    return offer;
  }

  async function restoreOffer(id: number): Promise<Offer> {
    const offer = await api.restoreOffer(id);
    applyOwn(id, offer);
    return offer;
  }

  async function deleteOffer(id: number): Promise<void> {
    await api.deleteOffer(id);
    applyOwn(id, null);
  }

  function reset(): void {
    ownOffers.value = null;
    subscribing.dispose();
    subscribing = subscribingList();
    for (const list of subscriberLists.values()) list.dispose();
    subscriberLists.clear();
  }

  return {
    offers,
    subscribe,
    subscribeByCard,
    cancel,
    revertCancel,
    get: (id: number) => api.get(id),
    createOffer,
    updateOffer,
    archiveOffer,
    restoreOffer,
    deleteOffer,
    ownOffers: ownOffers as ReadonlySignal<readonly Offer[] | null>,
    loadOwnOffers,
    /** The creators the viewer subscribes to (a fresh list after `reset`). */
    get subscribing(): PagedList<Subscription> {
      return subscribing;
    },
    subscribers,
    reset,
  };
}

export type SubscriptionsStore = ReturnType<typeof createSubscriptionsStore>;

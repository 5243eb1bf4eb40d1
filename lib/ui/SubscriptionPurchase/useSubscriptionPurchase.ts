import { useCallback, useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { fanPriceCents, formatPrice, isSdkError, linksApi, SALT_UNIT } from '../../sdk';
import type { FirstMonthDiscount, Offer, PaymentOrder, Subscription } from '../../contract';
import { useFanstage } from '../FanstageProvider/context';
import { exactDollars } from '../PriceDetail/money';
import { heldOffer, standingOf, type OfferStanding } from './rules';

/** How the first month is paid: the wallet's credits, a saved card, or a new card on the processor's page. */
export type PayWith = { kind: 'credits' } | { kind: 'card'; cardId: number } | { kind: 'newCard' };

export interface UseSubscriptionPurchaseOptions {
  /** The creator whose offers are shown. */
  userId: number;
  /** Where the processor's page sends the fan back to (through `/gopay-return`); this page by default. */
  returnUrl?: string;
  /** A new card is entered on the processor's page: in a popup (widgets, default) or by leaving the page (the site). */
  paymentMode?: 'popup' | 'redirect';
  onSubscribed?: (subscription: Subscription | null) => void;
}

export interface OfferView {
  offer: Offer;
  /** What the fan pays a month, as shown ($3.20, $16). */
  price: string;
  /** What a subscriber saves on the creator's priced posts, or null when nothing. */
  saves: string | null;
  standing: OfferStanding;
  /** The viewer's subscription to this offer, for the detail link. */
  subscriptionId: number | null;
  endDate: number | null;
  /**
   * The first month at a tracking link's discount, as the server quoted it for this fan
   * (`GET /api/links/discount`): what he pays for it, shown, and the per cent; null for none.
   */
  firstMonth: { price: string; percent: number; cents: number } | null;
}

export interface PurchaseMessage {
  kind: 'success' | 'warning' | 'error';
  text: string;
}

/** The offers of a creator with the viewer's standing on each, and the purchase of one (SPEC §4). */
export function useSubscriptionPurchase(options: UseSubscriptionPurchaseOptions) {
  useSignals();
  const fanstage = useFanstage();
  const { t } = useTranslation();
  const { userId } = options;
  const { wallet, subscriptions } = fanstage;
  const loggedIn = fanstage.session.isLoggedIn.value;
  const settings = fanstage.settings.settings.value;
  const salt = settings?.salt ?? SALT_UNIT;
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [offers, setOffers] = useState<Offer[]>([]);
  const cards = wallet.cards.value ?? [];
  const balance = wallet.balance.value?.gBalance ?? null;
  const payment = wallet.payment.value;
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [payWith, setPayWith] = useState<PayWith>({ kind: 'credits' });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<PurchaseMessage | null>(null);
  const [needsCredits, setNeedsCredits] = useState(false);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  useEffect(() => {
    if (fanstage.settings.status.peek() === 'idle') fanstage.settings.load().catch(() => undefined);
    if (fanstage.session.isLoggedIn.peek()) wallet.loadProcessors().catch(() => undefined);
  }, [fanstage, wallet, loggedIn]);

  const loadOffers = useCallback(async () => {
    const list = await subscriptions.offers(userId);
    if (!live.current) return list;
    const active = list.filter((offer) => offer.offerStatus === 'active' || offer.subscription);
    setOffers(active);
    setSelectedId((current) => {
      if (current !== null && active.some((o) => o.id === current)) return current;
      return (heldOffer(active) ?? active.find((o) => o.offerStatus === 'active'))?.id ?? null;
    });
    return list;
  }, [subscriptions, userId]);

  const loadWallet = useCallback(async () => {
    if (!fanstage.session.isLoggedIn.peek()) return;
    await Promise.all([wallet.loadCards(true).catch(() => undefined), wallet.refresh().catch(() => undefined)]);
  }, [wallet, fanstage]);

  const load = useCallback(() => {
    setStatus('loading');
    setMessage(null);
    loadOffers().then(
      () => live.current && setStatus('ready'),
      () => live.current && setStatus('error'),
    );
    void loadWallet();
  }, [loadOffers, loadWallet]);

  useEffect(() => {
    load();
  }, [load, loggedIn]);

  // The discount a link that brought the fan gives his first month: the server's word, shown;
  // the payment finds it again. Nothing is shown when it cannot be asked (a visitor, a failure).
  const [discount, setDiscount] = useState<FirstMonthDiscount['discount']>(null);
  useEffect(() => {
    setDiscount(null);
    if (!loggedIn) return;
    const controller = new AbortController();
    linksApi(fanstage.client)
      .discount(userId, controller.signal)
      .then((answer) => !controller.signal.aborted && setDiscount(answer.discount))
      .catch(() => undefined);
    return () => controller.abort();
  }, [fanstage, userId, loggedIn]);

  const views: OfferView[] = offers.map((offer) => {
    const sub = offer.subscription;
    return {
      offer,
      price: formatPrice(offer.priceCents, salt),
      saves: offer.savedGForPosts > 0 ? exactDollars(offer.savedGForPosts) : null,
      standing: standingOf(sub?.subscriptionStatus),
      subscriptionId: sub?.id ?? null,
      endDate: sub?.subscriptionEndDate ?? null,
      firstMonth:
        discount !== null && discount.offerId === offer.id && discount.priceCents === offer.priceCents && standingOf(sub?.subscriptionStatus) === 'none'
          ? { price: formatPrice(discount.firstMonthCents, salt), percent: discount.percent, cents: discount.firstMonthCents }
          : null,
    };
  });
  const held = heldOffer(offers);
  const selected = views.find((v) => v.offer.id === selectedId) ?? null;
  // SPEC §4: while one subscription with the creator exists, no other offer is started; 11 and
  // 23 are paid again on their own offer.
  const canBuy = selected !== null && (held === null ? selected.offer.offerStatus === 'active' && selected.standing === 'none' : held.id === selected.offer.id && selected.standing === 'resubscribe');

  function fail(error: unknown) {
    const code = isSdkError(error) ? error.code : 'internal-error';
    if (code === 'aborted') {
      setMessage({ kind: 'warning', text: t('subscription.paymentStopped') });
      return;
    }
    if (code === 'noMoney') {
      setNeedsCredits(true);
      setMessage({ kind: 'warning', text: t('errors.noMoney') });
      return;
    }
    if (code === 'price-changed') {
      void loadOffers().then((list) => {
        const now = list.find((o) => o.id === selectedId);
        setMessage({ kind: 'warning', text: now ? t('subscription.priceChanged', { price: formatPrice(now.priceCents, salt) }) : t('errors.price-changed') });
      });
      return;
    }
    if (code === 'already-subscribed') void loadOffers().catch(() => undefined);
    if (code === 'payment_is_processing') {
      setMessage({ kind: 'warning', text: t('errors.payment_is_processing') });
      return;
    }
    setMessage({ kind: 'error', text: t([`errors.${code}`, 'subscription.failed']) });
  }

  async function afterPaid(subscription: Subscription | null) {
    setMessage({ kind: 'success', text: t('subscription.subscribed') });
    setNeedsCredits(false);
    optionsRef.current.onSubscribed?.(subscription);
    await Promise.all([loadOffers().catch(() => undefined), loadWallet()]);
  }

  async function afterOrder(order: PaymentOrder) {
    if (order.status === 'paid') return afterPaid(null);
    // Redirect mode: the page is on its way to the processor's card page.
    if (order.redirectUrl) {
      setMessage({ kind: 'warning', text: t('subscription.toProcessor') });
      return;
    }
    if (order.status === 'processing') {
      setMessage({ kind: 'warning', text: t('errors.payment_is_processing') });
      return;
    }
    setMessage({ kind: 'error', text: t([`errors.${order.failureReason ?? 'payment-declined'}`, 'errors.payment-declined']) });
  }

  /** Call it from the click: a new card's page opens before anything is awaited. */
  async function subscribe() {
    if (!selected || !canBuy || busy) return;
    setBusy(true);
    setMessage(null);
    const offerId = selected.offer.id;
    const mode = optionsRef.current.paymentMode ?? 'popup';
    const returnUrl = optionsRef.current.returnUrl ?? (typeof location !== 'undefined' ? location.href : undefined);
    // The processor that holds the card, or the first one offered (the list is cached after the first load).
    const card = payWith.kind === 'card' ? cards.find((c) => c.id === payWith.cardId) : undefined;
    const processor = card?.pgw ?? wallet.processors.peek()?.[0]?.name;
    try {
      if (payWith.kind === 'credits') {
        const subscription = await subscriptions.subscribe(offerId, selected.offer.priceCents);
        await afterPaid(subscription);
      } else {
        const order = await subscriptions.subscribeByCard(offerId, {
          mode,
          ...(payWith.kind === 'card' ? { cardId: payWith.cardId } : {}),
          ...(processor ? { processor } : {}),
          ...(returnUrl ? { returnUrl } : {}),
        });
        await afterOrder(order);
      }
    } catch (error) {
      fail(error);
    } finally {
      if (live.current) setBusy(false);
    }
  }

  /** After buying credits: the balance is new and the purchase can go ahead. */
  function creditsAdded() {
    setNeedsCredits(false);
    setMessage(null);
    void loadWallet();
  }

  return {
    // No price is shown before the platform's salt is known: it would not be the real one.
    status: status === 'ready' && !settings ? (fanstage.settings.status.value === 'error' ? 'error' : 'loading') : status,
    loggedIn,
    views,
    held,
    selected,
    select: setSelectedId,
    payWith,
    setPayWith,
    cards,
    balance: balance === null ? null : exactDollars(balance),
    canBuy,
    busy,
    message,
    needsCredits,
    /** What the chosen offer costs the fan, in credits: the top-up offers a package that covers it. */
    needed: selected ? fanPriceCents(selected.firstMonth?.cents ?? selected.offer.priceCents, salt) : undefined,
    /** The card payment under way; in phase 'blocked' offer `openCardPage` from a click. */
    payment,
    openCardPage: () => wallet.openCardPage(),
    cancelPayment: () => wallet.cancelPayment(),
    subscribe,
    creditsAdded,
    retry: load,
  };
}

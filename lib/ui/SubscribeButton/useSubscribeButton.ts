import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import type { Offer } from '../../contract';
import { formatPrice, SALT_UNIT } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import { heldOffer, standingOf } from '../SubscriptionPurchase/rules';

export interface UseSubscribeButtonOptions {
  /** The creator whose offers are sold. */
  userId: number;
  /** Asked when a visitor presses it. */
  onLoginRequired?: () => void;
}

export interface SubscribeButtonState {
  /** Nothing to show: one's own profile, no offers, or not loaded yet. */
  hidden: boolean;
  /** The offers or the platform's salt are still on their way (never on one's own profile). */
  loading: boolean;
  label: string;
  /** The viewer holds a subscription with this creator (the button opens it). */
  subscribed: boolean;
  open: boolean;
  onClick: () => void;
  close: () => void;
  /** After a purchase: the offers are read again so the button says so. */
  reload: () => void;
}

/**
 * The Subscribe button of a profile (SPEC §2 profile, §4 subscription statuses): the creator's
 * cheapest open offer at the fan's price a month, "Subscribed" while the viewer holds one;
 * it opens the subscription purchase. Hidden on one's own profile and for creators without
 * offers.
 */
export function useSubscribeButton({ userId, onLoginRequired }: UseSubscribeButtonOptions): SubscribeButtonState {
  useSignals();
  const { t } = useTranslation();
  const { session, subscriptions, settings } = useFanstage();
  const [offers, setOffers] = useState<readonly Offer[] | null>(null);
  const [open, setOpen] = useState(false);
  const [generation, setGeneration] = useState(0);
  const loggedIn = session.isLoggedIn.value;
  const self = session.userId.value !== null && session.userId.value === userId;
  const known = settings.settings.value?.salt;
  const salt = known ?? SALT_UNIT;

  // Prices are shown as the fan pays them, which needs the platform's salt.
  useEffect(() => {
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
  }, [settings]);

  useEffect(() => {
    if (self) return;
    const abort = new AbortController();
    subscriptions.offers(userId, abort.signal).then(
      (list) => {
        if (!abort.signal.aborted) setOffers(list);
      },
      () => {
        if (!abort.signal.aborted) setOffers([]);
      },
    );
    return () => abort.abort();
  }, [subscriptions, userId, self, loggedIn, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const list = offers ?? [];
  const held = heldOffer(list);
  const subscribed = held !== null && standingOf(held.subscription?.subscriptionStatus) !== 'resubscribe';
  const cheapest = list.reduce<Offer | null>((low, offer) => (low === null || offer.priceCents < low.priceCents ? offer : low), null);
  const price = cheapest ? formatPrice(cheapest.priceCents, salt) : '';
  const label = subscribed ? t('creatorTools.subscribe.subscribed') : list.length > 1 ? t('creatorTools.subscribe.from', { price }) : t('creatorTools.subscribe.for', { price });

  return {
    // No price is shown before the salt is known: a wrong price must never flash by.
    hidden: self || offers === null || list.length === 0 || known === undefined,
    loading: !self && (offers === null || known === undefined),
    label,
    subscribed,
    open,
    onClick: () => {
      if (!session.isLoggedIn.peek()) {
        onLoginRequired?.();
        return;
      }
      setOpen(true);
    },
    close: () => {
      setOpen(false);
      reload();
    },
    reload,
  };
}

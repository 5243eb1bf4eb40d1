import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import type { Offer } from '../../contract';
import { formatPrice, isSdkError, priceSteps, SALT_UNIT } from '../../sdk';
import { priceStepsNote } from '../PriceSelector/stepsNote';
import { useFanstage } from '../FanstageProvider/context';
import { formatMoney } from '../shared/money';

export interface OfferMessage {
  kind: 'success' | 'error';
  text: string;
}

/** How long a message stays (SPEC §8: success 5 s, an offer's failure 3 s). */
const shownMs = { success: 5_000, error: 3_000 } as const;

export interface PriceOption {
  cents: number;
  label: string;
}

/**
 * A creator's subscription offers in settings (SPEC §3 Subscription, §7 offers, §8 messages,
 * §9 post-media price steps): the list with archived ones, making one, changing its price,
 * archiving, offering again and deleting. Offers are a seller's: anyone else is told to verify.
 */
export function useOfferSettings() {
  useSignals();
  const { t } = useTranslation();
  const { session, subscriptions, settings } = useFanstage();
  const account = session.account.value;
  const userId = session.userId.value;
  const seller = account?.isSeller === true;
  const salt = settings.settings.value?.salt ?? SALT_UNIT;

  // Prices are shown as the fan pays them, which needs the platform's salt.
  useEffect(() => {
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
  }, [settings]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [busy, setBusy] = useState<number | 'new' | null>(null);
  const [message, setMessage] = useState<OfferMessage | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  function show(next: OfferMessage) {
    clearTimeout(timer.current);
    setMessage(next);
    timer.current = setTimeout(() => setMessage(null), shownMs[next.kind]);
  }

  function load() {
    if (userId === null || !seller) return;
    setStatus('loading');
    subscriptions.loadOwnOffers(userId).then(
      () => setStatus('ready'),
      () => setStatus('error'),
    );
  }

  useEffect(load, [subscriptions, userId, seller]);

  /** Runs a change; the SPEC's success message, or FAILED with the reason. */
  async function run(target: number | 'new', change: () => Promise<unknown>, done: string): Promise<boolean> {
    setBusy(target);
    try {
      await change();
      show({ kind: 'success', text: done });
      return true;
    } catch (error) {
      const code = isSdkError(error) ? error.code : 'internal-error';
      show({ kind: 'error', text: t('creatorTools.offers.failed', { reason: t([`errors.${code}`, 'errors.internal-error']) }) });
      return false;
    } finally {
      setBusy(null);
    }
  }

  const priceOptions: PriceOption[] = priceSteps.postMedia
    .filter((cents) => cents > 0)
    .map((cents) => ({ cents, label: t('creatorTools.offers.priceOption', { price: formatPrice(cents, salt), earn: formatMoney(cents) }) }));

  const offers: readonly Offer[] = subscriptions.ownOffers.value ?? [];

  return {
    seller,
    status: seller ? status : ('ready' as const),
    offers,
    busy,
    message,
    priceOptions,
    /** Why the offer's steps are the post-media ones (SPEC §9 has none of its own for offers). */
    stepsNote: priceStepsNote(t, 'subscription', salt),
    fanPrice: (cents: number) => formatPrice(cents, salt),
    earn: (cents: number) => formatMoney(cents),
    retry: load,
    create: (name: string, priceCents: number) =>
      run('new', () => subscriptions.createOffer({ name, priceCents }), t('subscription.messages.subscription-offer-created-ok')),
    setPrice: (offer: Offer, priceCents: number) =>
      run(offer.id, () => subscriptions.updateOffer(offer.id, { priceCents }), t('creatorTools.offers.priceChanged', { name: offer.name, price: formatPrice(priceCents, salt) })),
    archive: (offer: Offer) => run(offer.id, () => subscriptions.archiveOffer(offer.id), t('creatorTools.offers.archivedOk', { name: offer.name })),
    restore: (offer: Offer) => run(offer.id, () => subscriptions.restoreOffer(offer.id), t('creatorTools.offers.restoredOk', { name: offer.name })),
    remove: (offer: Offer) => run(offer.id, () => subscriptions.deleteOffer(offer.id), t('subscription.messages.subscription-offer-deleted-ok')),
  };
}

export type OfferSettingsState = ReturnType<typeof useOfferSettings>;

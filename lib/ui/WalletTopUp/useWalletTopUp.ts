import { useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { Card, CreditPackage, PaymentOrder, Processor } from '../../sdk';
import type { PaymentMode, PaymentProgress } from '../../sdk/stores/wallet';
import { useFanstage } from '../FanstageProvider/context';
import { errorMessage, type Message } from '../shared/errorMessage';
import { isMuted, playSound } from '../sound';
import { cardLabel, formatMoney } from '../shared/money';

export interface UseWalletTopUpOptions {
  /**
   * How the card page opens: `popup` (widgets, and any page that must stay) or `redirect`
   * (the site: the page itself goes to the card page and comes back to `/gopay-return`).
   */
  mode?: PaymentMode;
  /** Where `/gopay-return` sends the person afterwards in redirect mode. */
  returnUrl?: string;
  /** Told once the credits are in the wallet. */
  onPaid?: (order: PaymentOrder) => void;
  /**
   * What the purchase that ran short costs, in the fan's credits (cents): the first package
   * offered is the smallest that brings the balance up to it (the largest if none does).
   */
  needed?: number;
}

/** `new` pays with a card entered on the processor's page; a number pays with that saved card. */
export type PayWith = 'new' | number;

export interface WalletTopUpState {
  loggedIn: boolean;
  loading: boolean;
  /** The balance as text, or null while it loads. */
  balance: string | null;
  packages: readonly CreditPackage[];
  processors: readonly Processor[];
  cards: readonly Card[];
  packageId: number | null;
  payWith: PayWith;
  processor: string;
  saveCard: boolean;
  /** Whether the chosen processor can keep the card for next time. */
  canSaveCard: boolean;
  busy: boolean;
  /** The card payment under way, if any. */
  progress: PaymentProgress | null;
  /** The text of the pay button. */
  payLabel: string;
  alert: Message;
  /** Shown after a payment or a removed card. */
  status: Message;
  /** Whether the last payment succeeded (the status is a success). */
  paid: boolean;
  cardName: (card: Card) => string;
  choosePackage: (id: number) => void;
  choosePayWith: (value: PayWith) => void;
  chooseProcessor: (name: string) => void;
  setSaveCard: (value: boolean) => void;
  /** Call from the submit or click itself, so the card window may open. */
  pay: () => void;
  deleteCard: (card: Card) => void;
  openCardPage: () => void;
  stopWaiting: () => void;
}

/** Buying credits (SPEC §7 Payments): packages, saved cards, a new card through the processor's page. */
export function useWalletTopUp({ mode = 'popup', returnUrl, onPaid, needed }: UseWalletTopUpOptions = {}): WalletTopUpState {
  useSignals();
  const { wallet, session } = useFanstage();
  const { t } = useTranslation();
  const loggedIn = session.isLoggedIn.value;
  const [packageId, setPackageId] = useState<number | null>(null);
  // Null until the fan picks: a saved card comes first, else a new card.
  const [payWith, setPayWith] = useState<PayWith | null>(null);
  const [processor, setProcessor] = useState('');
  const [saveCard, setSaveCard] = useState(true);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<Message>(null);
  const [status, setStatus] = useState<Message>(null);
  const [paid, setPaid] = useState(false);
  const [loadFailed, setLoadFailed] = useState<unknown>(null);
  const mounted = useRef(true);
  const paidRef = useRef(onPaid);
  paidRef.current = onPaid;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    Promise.all([wallet.loadPackages(), wallet.loadProcessors(), wallet.loadCards(), wallet.balance.peek() ? null : wallet.refresh()]).catch((error: unknown) => {
      if (live) setLoadFailed(error);
    });
    return () => {
      live = false;
    };
  }, [wallet, loggedIn]);

  const packages = wallet.packages.value ?? [];
  const processors = wallet.processors.value ?? [];
  const cards = wallet.cards.value ?? [];
  const balance = wallet.balance.value;
  const progress = wallet.payment.value;

  // Sensible first choices once the lists arrive: the package that covers what the fan is
  // buying (else the first), the processor a link asked for (SPEC §2 pgw) or else the first one,
  // and the saved card the fan has (else a new card).
  const chosenPackage = packages.find((p) => p.id === packageId) ?? firstPackage(packages, needed, balance?.gBalance) ?? null;
  const preferred = wallet.preferredProcessor.value;
  const chosenProcessor = processors.find((p) => p.name === processor) ?? processors.find((p) => p.name === preferred) ?? processors[0] ?? null;
  const chosenCard = payWith === null ? cards[0] : typeof payWith === 'number' ? cards.find((c) => c.id === payWith) : undefined;
  const effectivePayWith: PayWith = chosenCard ? chosenCard.id : 'new';

  function pay() {
    if (busy) return;
    setAlert(null);
    setStatus(null);
    setPaid(false);
    if (!chosenPackage) {
      setAlert(t('wallet.choosePackage'));
      return;
    }
    const processorName = chosenCard?.pgw ?? chosenProcessor?.name ?? 'sandbox';
    setBusy(true);
    // No await before topUp: in popup mode the card window must open within this click.
    wallet
      .topUp({
        packageId: chosenPackage.id,
        processor: processorName,
        ...(chosenCard ? { cardId: chosenCard.id } : { saveCard: saveCard && (chosenProcessor?.savedCards ?? false) }),
        mode,
        ...(returnUrl ? { returnUrl } : {}),
      })
      .then(
        (order) => {
          if (!mounted.current) return;
          if (order.status === 'paid') {
            const now = wallet.balance.peek();
            setPaid(true);
            setStatus(t('wallet.success', { amount: formatMoney(now?.gBalance ?? 0) }));
            playSound('success', { muted: isMuted(session.account.peek()) });
            paidRef.current?.(order);
          }
        },
        (error: unknown) => {
          if (!mounted.current) return;
          const code = (error as { code?: string } | null)?.code;
          if (code === 'aborted') return;
          setAlert(errorMessage(t, error));
          playSound('error', { muted: isMuted(session.account.peek()) });
        },
      )
      .finally(() => {
        if (mounted.current) setBusy(false);
      });
  }

  function deleteCard(card: Card) {
    setAlert(null);
    setStatus(null);
    if (chosenCard?.id === card.id) setPayWith('new');
    wallet.deleteCard(card.id).then(
      () => mounted.current && setStatus(t('wallet.cardDeleted', { card: cardLabel(card) })),
      (error: unknown) => mounted.current && setAlert(errorMessage(t, error)),
    );
  }

  const failure = wallet.balanceError.value ?? loadFailed;
  const loading = loggedIn && (wallet.packages.value === null || wallet.processors.value === null) && !failure;

  return {
    loggedIn,
    loading,
    balance: balance ? formatMoney(balance.gBalance) : null,
    packages,
    processors,
    cards,
    packageId: chosenPackage?.id ?? null,
    payWith: effectivePayWith,
    processor: chosenProcessor?.name ?? '',
    saveCard,
    canSaveCard: chosenProcessor?.savedCards ?? false,
    busy,
    progress,
    payLabel: busy ? t('wallet.paying') : t('wallet.pay', { price: formatMoney(chosenPackage?.gValue ?? 0) }),
    // SPEC §8: a balance that cannot be read says so.
    alert: alert ?? (failure ? t('errors.couldnt-get-info-from-server') : null),
    status,
    paid,
    cardName: (card) => t('wallet.savedCard', { card: cardLabel(card), month: String(card.expMonth).padStart(2, '0'), year: String(card.expYear % 100).padStart(2, '0') }),
    choosePackage: setPackageId,
    choosePayWith: setPayWith,
    chooseProcessor: setProcessor,
    setSaveCard,
    pay,
    deleteCard,
    openCardPage: () => void wallet.openCardPage(),
    stopWaiting: () => wallet.cancelPayment(),
  };
}

/**
 * The package offered first: with a purchase in view, the smallest whose credits bring the
 * balance up to its cost (the largest when none is enough); otherwise the first.
 */
export function firstPackage(packages: readonly CreditPackage[], needed: number | undefined, balance: number | undefined): CreditPackage | undefined {
  if (needed === undefined || packages.length === 0) return packages[0];
  const short = Math.max(0, needed - (balance ?? 0));
  const bySize = [...packages].sort((a, b) => a.cValue - b.cValue);
  return bySize.find((p) => p.cValue >= short) ?? bySize[bySize.length - 1];
}

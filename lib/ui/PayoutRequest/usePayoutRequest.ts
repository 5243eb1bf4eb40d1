import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { PayoutMethods, type PayoutMethod } from '../../contract/constants';
import { isSdkError } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import { formatMoney } from '../shared/money';

/** "12.50" or "12,50" → 1250 cents; null when it is not an amount. */
export function parseDollars(text: string): number | null {
  const match = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

export interface PayoutMessage {
  kind: 'success' | 'error';
  text: string;
}

/**
 * A creator's payout request (SPEC §3 Balance, §7 payout, §8 "Payout failure: FAILED with the
 * error appended", §9 minimum payout): where the money goes — a PayPal e-mail or a saved card,
 * kept by the server and filled in from it — the minimum shown before asking, the amount, and
 * the request. A refusal under the minimum names it.
 */
export function usePayoutRequest() {
  useSignals();
  const { t } = useTranslation();
  const { earnings, wallet } = useFanstage();
  const destination = earnings.destination.value;
  const cards = wallet.cards.value;
  const available = earnings.cBalance.value;
  const [loaded, setLoaded] = useState<'loading' | 'ready' | 'error'>(destination ? 'ready' : 'loading');
  const [method, setMethod] = useState<PayoutMethod>('paypal');
  const [email, setEmail] = useState('');
  const [cardId, setCardId] = useState<number | null>(null);
  const [amount, setAmount] = useState(() => (available / 100).toFixed(2));
  const [touchedAmount, setTouchedAmount] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<PayoutMessage | null>(null);

  useEffect(() => {
    let live = true;
    earnings.loadDestination().then(
      (kept) => {
        if (!live) return;
        if (kept.method) setMethod(kept.method);
        if (kept.paypalEmail) setEmail(kept.paypalEmail);
        if (kept.card) setCardId(kept.card.id);
        setLoaded('ready');
      },
      () => {
        if (live) setLoaded('error');
      },
    );
    wallet.loadCards().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [earnings, wallet]);

  // The amount follows the balance until the creator types one.
  useEffect(() => {
    if (!touchedAmount) setAmount((available / 100).toFixed(2));
  }, [available, touchedAmount]);

  const minimum = destination?.minimumCents ?? null;
  const chosenCard = cardId ?? cards?.[0]?.id ?? null;

  function fail(text: string) {
    setMessage({ kind: 'error', text: t('siteMoney.earnings.payoutFailed', { error: text }) });
  }

  async function submit(): Promise<boolean> {
    setMessage(null);
    const cents = parseDollars(amount);
    if (cents === null || cents <= 0 || cents > available) {
      fail(t('errors.invalid-amount'));
      return false;
    }
    if (minimum !== null && cents < minimum) {
      fail(t('creatorTools.payout.tooSmall', { amount: formatMoney(minimum) }));
      return false;
    }
    if (method === 'paypal' && email.trim() === '') {
      fail(t('creatorTools.payout.emailNeeded'));
      return false;
    }
    if (method === 'card' && chosenCard === null) {
      fail(t('creatorTools.payout.cardNeeded'));
      return false;
    }
    setBusy(true);
    try {
      // The destination is kept first when it changed; the request then goes there.
      const kept = earnings.destination.peek();
      const same = method === 'paypal' ? kept?.method === 'paypal' && kept.paypalEmail === email.trim() : kept?.method === 'card' && kept.card?.id === chosenCard;
      if (!same) {
        await earnings.setDestination(method === 'paypal' ? { method, paypalEmail: email.trim() } : { method, cardId: chosenCard! });
      }
      await earnings.payout(cents, method);
      setTouchedAmount(false);
      setMessage({ kind: 'success', text: t('siteMoney.earnings.payoutOk', { amount: formatMoney(cents) }) });
      return true;
    } catch (error) {
      const code = isSdkError(error) ? error.code : 'internal-error';
      const named = isSdkError(error) && code === 'payout-too-small' ? (error.body as { minimum?: unknown } | null)?.minimum : undefined;
      fail(typeof named === 'number' ? t('creatorTools.payout.tooSmall', { amount: formatMoney(named) }) : t([`errors.${code}`, 'errors.internal-error']));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return {
    loaded,
    methods: PayoutMethods,
    method,
    setMethod,
    email,
    setEmail,
    cards: cards ?? [],
    cardId: chosenCard,
    setCardId,
    amount,
    setAmount: (value: string) => {
      setTouchedAmount(true);
      setAmount(value);
    },
    available,
    minimum,
    busy,
    message,
    submit,
  };
}

export type PayoutRequestState = ReturnType<typeof usePayoutRequest>;

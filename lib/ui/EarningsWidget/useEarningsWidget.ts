import { useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useFanstage } from '../FanstageProvider/context';
import { formatMoney } from '../shared/money';

/** SPEC §9: a rise of the earnings is highlighted for 5 s. */
export const EARNINGS_HIGHLIGHT_MS = 5000;

export interface EarningsWidgetState {
  /** Nothing to show: nobody is signed in. */
  hidden: boolean;
  /** The earnings as text, or null while the balance loads. */
  amount: string | null;
  /** The latest rise as text while it is highlighted. */
  rise: string | null;
  /** Cents requested for payout, as text, when there are any. */
  payout: string | null;
  failed: boolean;
}

/**
 * The creator's earnings from the wallet's balance (`cBalance`). When the amount rises — a
 * gift, an unlock, a subscription, pushed by the websocket or found by a refresh — the rise
 * is highlighted for 5 s (SPEC §4).
 */
export function useEarningsWidget(): EarningsWidgetState {
  useSignals();
  const { wallet, earnings, session } = useFanstage();
  const loggedIn = session.isLoggedIn.value;
  const loaded = wallet.balance.value !== null;
  const cents = earnings.cBalance.value;
  const [rise, setRise] = useState<number | null>(null);
  const last = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (loggedIn && !wallet.balance.peek()) void wallet.refresh().catch(() => undefined);
  }, [loggedIn, wallet]);

  useEffect(() => {
    if (!loaded) {
      last.current = null;
      return;
    }
    const before = last.current;
    last.current = cents;
    if (before === null || cents <= before) return;
    setRise((shown) => (shown ?? 0) + (cents - before));
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      setRise(null);
    }, EARNINGS_HIGHLIGHT_MS);
  }, [cents, loaded]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const payout = earnings.cPayout.value;
  return {
    hidden: !loggedIn,
    amount: loaded ? formatMoney(cents) : null,
    rise: rise !== null ? formatMoney(rise) : null,
    payout: payout > 0 ? formatMoney(payout) : null,
    failed: !loaded && wallet.balanceError.value !== null,
  };
}

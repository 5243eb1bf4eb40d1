import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useFanstage } from '../FanstageProvider/context';
import { formatMoney } from '../shared/money';

export interface FirstEarningsPopupState {
  open: boolean;
  amount: string;
  busy: boolean;
  /** Closes the popup for good: the server remembers it was seen. */
  dismiss: () => void;
}

/**
 * The first-earnings popup: shown once, when the creator has earned something and has not
 * dismissed it before (`firstEarningsSeen`). Dismissing acknowledges the earnings too.
 */
export function useFirstEarningsPopup(): FirstEarningsPopupState {
  useSignals();
  const { wallet, earnings, session } = useFanstage();
  const loggedIn = session.isLoggedIn.value;
  const [closed, setClosed] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (loggedIn && !wallet.balance.peek()) void wallet.refresh().catch(() => undefined);
  }, [loggedIn, wallet]);

  const balance = wallet.balance.value;
  const open = loggedIn && !closed && balance !== null && earnings.hasEarnings.value && !earnings.firstEarningsSeen.value;

  function dismiss() {
    if (busy) return;
    setBusy(true);
    // It closes at once; a failed acknowledgement only means it may show again next visit.
    setClosed(true);
    earnings
      .ack({ firstEarningsSeen: true })
      .catch(() => undefined)
      .finally(() => setBusy(false));
  }

  return {
    open,
    amount: formatMoney(Math.max(balance?.myCbalance ?? 0, earnings.cBalance.value)),
    busy,
    dismiss,
  };
}

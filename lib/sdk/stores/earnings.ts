/**
 * A creator's earnings (SPEC §3 Balance, §4 "Earnings widget highlights new earnings 5 s on
 * balance rise", §7 Payments and earnings, §9 Unacknowledged earnings badge). Built on the
 * wallet's balance, so a websocket amountChange moves the earnings as well.
 *
 *   earnings.cBalance           ReadonlySignal<number>   earnings in cents (0 before the balance loads)
 *   earnings.cPayout            ReadonlySignal<number>   cents requested for payout and not yet sent
 *   earnings.unacked            ReadonlySignal<number>   myCbalance − myCbalance_acked, never below 0 (the badge)
 *   earnings.firstEarningsSeen  ReadonlySignal<boolean>  true once the first-earnings popup was dismissed
 *   earnings.hasEarnings        ReadonlySignal<boolean>  the creator has earned anything
 *   earnings.ack({firstEarningsSeen?})   POST /api/earnings/ack with the current earnings
 *   earnings.lines              PagedList<Transaction>  GET /api/earnings/ (offset pages of 30)
 *   earnings.payout(cPayout, method)     POST /api/earnings/payout, then the balance and payouts reload
 *   earnings.payouts / loadPayouts()     the payout requests
 *   earnings.destination / loadDestination() / setDestination(body)
 *                                        where payouts go (PayPal e-mail or a saved card) and the minimum
 */
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { Payout, PayoutDestination, PayoutDestinationBody, Transaction } from '../../contract';
import type { PayoutMethod } from '../../contract/constants';
import type { FanstageClient } from '../client';
import { earningsApi } from '../api-money';
import { pageSizes } from '../rules/constants';
import { createPagedList, type PagedList } from './shared/paged';
import type { WalletStore } from './wallet';

export function createEarningsStore(client: FanstageClient, wallet: Pick<WalletStore, 'balance' | 'apply' | 'refresh'>) {
  const api = earningsApi(client);
  const cBalance = computed(() => wallet.balance.value?.cBalance ?? 0);
  const cPayout = computed(() => wallet.balance.value?.cPayout ?? 0);
  const unacked = computed(() => {
    const b = wallet.balance.value;
    return b ? Math.max(0, b.myCbalance - b.myCbalance_acked) : 0;
  });
  const firstEarningsSeen = computed(() => wallet.balance.value?.firstEarningsSeen ?? false);
  const hasEarnings = computed(() => {
    const b = wallet.balance.value;
    return b !== null && (b.myCbalance > 0 || b.cBalance > 0 || b.cPayout > 0);
  });
  const payouts = signal<readonly Payout[] | null>(null);
  const payoutsError = signal<unknown>(null);
  const destination = signal<PayoutDestination | null>(null);

  const linesList = () =>
    createPagedList<Transaction>({
      pageSize: pageSizes.earnings,
      idOf: (line) => line.id,
      fetchPage: ({ offset, limit }, signal) => api.lines(offset ? { limit, offset } : { limit }, signal),
    });
  let lines = linesList();

  /**
   * The creator saw their earnings: the badge clears at once, and the server remembers up to
   * which amount. With `firstEarningsSeen` the first-earnings popup is dismissed for good.
   */
  async function ack(options: { firstEarningsSeen?: boolean } = {}): Promise<void> {
    const before = wallet.balance.peek();
    if (!before) return;
    const seen = options.firstEarningsSeen === true;
    wallet.apply({ ts: before.ts, myCbalance_acked: before.myCbalance, ...(seen ? { firstEarningsSeen: true } : {}) });
    try {
      const answer = await api.ack({ cBalance: before.myCbalance, ...(seen ? { firstEarningsSeen: true } : {}) });
      if (answer && typeof answer === 'object' && typeof answer.ts === 'number') wallet.apply(answer);
    } catch (error) {
      const now = wallet.balance.peek();
      if (now && now.ts === before.ts) {
        wallet.apply({ ts: now.ts, myCbalance_acked: before.myCbalance_acked, firstEarningsSeen: before.firstEarningsSeen });
      }
      throw error;
    }
  }

  async function loadPayouts(): Promise<readonly Payout[]> {
    try {
      const list = await api.payouts();
      batch(() => {
        payouts.value = list;
        payoutsError.value = null;
      });
      return list;
    } catch (error) {
      payoutsError.value = error;
      throw error;
    }
  }

  async function loadDestination(): Promise<PayoutDestination> {
    const kept = await api.payoutDestination();
    destination.value = kept;
    return kept;
  }

  /** Keeps where payouts go: a PayPal e-mail (invalid-email) or one of the viewer's saved cards (card-not-found). */
  async function setDestination(body: PayoutDestinationBody): Promise<PayoutDestination> {
    const kept = await api.setPayoutDestination(body);
    destination.value = kept;
    return kept;
  }

  /**
   * Asks for `cents` of the earnings to be paid out by PayPal or card, to the kept destination;
   * refused under the minimum (payout-too-small, naming it) and without a destination
   * (payout-destination-required).
   */
  async function payout(cents: number, method: PayoutMethod): Promise<Payout | undefined> {
    const answer = await api.payout({ cPayout: cents, method });
    await Promise.all([wallet.refresh().catch(() => undefined), loadPayouts().catch(() => undefined)]);
    return answer ?? undefined;
  }

  function reset(): void {
    lines.dispose();
    lines = linesList();
    payouts.value = null;
    destination.value = null;
  }

  return {
    cBalance: cBalance as ReadonlySignal<number>,
    cPayout: cPayout as ReadonlySignal<number>,
    unacked: unacked as ReadonlySignal<number>,
    firstEarningsSeen: firstEarningsSeen as ReadonlySignal<boolean>,
    hasEarnings: hasEarnings as ReadonlySignal<boolean>,
    ack,
    /** The earnings history (a fresh list after `reset`). */
    get lines(): PagedList<Transaction> {
      return lines;
    },
    payout,
    payouts: payouts as ReadonlySignal<readonly Payout[] | null>,
    payoutsError: payoutsError as ReadonlySignal<unknown>,
    loadPayouts,
    destination: destination as ReadonlySignal<PayoutDestination | null>,
    loadDestination,
    setDestination,
    reset,
  };
}

export type EarningsStore = ReturnType<typeof createEarningsStore>;

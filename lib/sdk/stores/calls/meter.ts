/**
 * The call's meter. The server is the authority on money: it says how long the held money
 * lasts (`timeLeft`, `creditOK`), when it wants more (`askForMoney`) and what the creator has
 * earned (`callEarnings`). Between its messages the meter counts what a hang-up now would cost:
 * every minute begun at the fan's price. `meterReducer` folds the server's word into a
 * `MeterState`, `meterOf` reads the meter at a moment — both pure — and `createMeter` ticks a
 * clock each second while the call runs.
 */
import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { minutesBegun } from '../../../contract/rules/calls';
import type { CallMeter, CallSession } from './types';

/** What the server said about the call's money. */
export interface MeterState {
  /** Minutes billed, the fan's cost (fan's side) and the creator's earnings (creator's side), as the server counted them. */
  minutes: number;
  cost: number;
  earnings: number;
  /** Seconds the held money lasted when the server said, and when (this page's clock). */
  secondsLeft: number | null;
  secondsLeftAt: number;
  /** The server could not hold the next minute. */
  lowCredit: boolean;
  /** The price a minute the server named when it asked for money. */
  pricePerMinuteAsked: number | null;
}

/** The server's money messages, their bodies read (numbers or null); `at` is when they came. */
export type MeterAction =
  | { type: 'timeLeft'; seconds: number | null; minutes: number | null; cost: number | null; at: number }
  | { type: 'askForMoney'; seconds: number | null; pricePerMinute: number | null; at: number }
  | { type: 'creditOK'; seconds: number | null; at: number }
  | { type: 'callEarnings'; earnings: number | null; minutes: number | null };

export const emptyMeterState: MeterState = { minutes: 0, cost: 0, earnings: 0, secondsLeft: null, secondsLeftAt: 0, lowCredit: false, pricePerMinuteAsked: null };

const idleMeter: CallMeter = { elapsedSeconds: 0, minutes: 0, cost: 0, earnings: 0, secondsLeft: null, lowCredit: false, pricePerMinute: 0 };

function withSeconds(state: MeterState, seconds: number | null, at: number): MeterState {
  return seconds === null ? state : { ...state, secondsLeft: seconds, secondsLeftAt: at };
}

/** The meter's state after one of the server's messages. Counts only grow: a late message never takes money back. */
export function meterReducer(state: MeterState, action: MeterAction): MeterState {
  switch (action.type) {
    case 'timeLeft': {
      const next = withSeconds(state, action.seconds, action.at);
      return { ...next, minutes: Math.max(next.minutes, action.minutes ?? 0), cost: Math.max(next.cost, action.cost ?? 0) };
    }
    case 'askForMoney':
      return { ...withSeconds(state, action.seconds, action.at), lowCredit: true, pricePerMinuteAsked: action.pricePerMinute };
    case 'creditOK':
      return { ...withSeconds(state, action.seconds, action.at), lowCredit: false };
    case 'callEarnings':
      return { ...state, earnings: Math.max(state.earnings, action.earnings ?? 0), minutes: Math.max(state.minutes, action.minutes ?? 0) };
  }
}

/** The meter of `call` at the moment `at`. */
export function meterOf(call: CallSession | null, state: MeterState, at: number): CallMeter {
  if (!call) return idleMeter;
  const elapsedSeconds = call.startedAt === null ? 0 : Math.max(0, Math.floor((at - call.startedAt) / 1000));
  if (call.totals) {
    return { elapsedSeconds, minutes: call.totals.minutes, cost: call.totals.cost, earnings: call.totals.earnings, secondsLeft: null, lowCredit: false, pricePerMinute: call.agreedPrice };
  }
  // A fan pays for every minute begun: the meter says what hanging up now costs.
  // A clock that stepped back behind the start still shows the first minute begun.
  const begun = call.startedAt === null ? 0 : minutesBegun(call.startedAt, Math.max(at, call.startedAt));
  const minutes = Math.max(begun, state.minutes);
  // The ticking clock may be up to a second behind the message that set the seconds.
  const secondsLeft = state.secondsLeft !== null ? Math.max(0, state.secondsLeft - Math.floor(Math.max(0, at - state.secondsLeftAt) / 1000)) : null;
  return {
    elapsedSeconds,
    minutes,
    cost: Math.max(minutes * call.agreedPrice, state.cost),
    earnings: Math.max(minutes * call.earningsPrice, state.earnings),
    secondsLeft,
    lowCredit: state.lowCredit,
    pricePerMinute: state.pricePerMinuteAsked ?? call.agreedPrice,
  };
}

/**
 * The meter of the store's current call: `meter` recomputes when the call changes, when the
 * server's word is dispatched, and each second while `start()`ed.
 */
export function createMeter(current: ReadonlySignal<CallSession | null>, now: () => number) {
  const clock = signal(now());
  const state = signal<MeterState>(emptyMeterState);
  let ticker: ReturnType<typeof setInterval> | null = null;

  const meter = computed<CallMeter>(() => meterOf(current.value, state.value, clock.value));

  return {
    meter: meter as ReadonlySignal<CallMeter>,
    dispatch(action: MeterAction): void {
      state.value = meterReducer(state.peek(), action);
    },
    /** Ticks each second from now on (the call started). */
    start(): void {
      if (ticker !== null) return;
      clock.value = now();
      ticker = setInterval(() => {
        clock.value = now();
      }, 1000);
    },
    /** Stops ticking and forgets the server's word (the call is torn down). */
    stop(): void {
      if (ticker !== null) clearInterval(ticker);
      ticker = null;
      state.value = emptyMeterState;
    },
  };
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signal } from '@preact/signals-core';
import { callReducer, reasonOfStop, refusalOf, type CallAction } from '../../lib/sdk/stores/calls/machine';
import { createMeter, emptyMeterState, meterOf, meterReducer } from '../../lib/sdk/stores/calls/meter';
import type { CallSession } from '../../lib/sdk/stores/calls/types';
import { CallStatus } from '../../lib/contract/calls';

/**
 * The calls store's phases and meter without a server or a network: the reducer and the meter
 * are pure, and the meter's clock runs on fake timers.
 */

const peer = { id: 7, username: 'anna', displayName: 'Anna', avatarUrl: null };
const dial: CallAction = { type: 'dial', callId: 'c1', peer, agreedPrice: 120, earningsPrice: 100 };
const rang: CallAction = { type: 'rang', callId: 'c2', peer, agreedPrice: 120, earningsPrice: 100 };
const zero = { minutes: 0, cost: 0, earnings: 0 };

function run(actions: CallAction[], from: CallSession | null = null): CallSession | null {
  return actions.reduce(callReducer, from);
}

describe('the call reducer', () => {
  it('walks an outgoing call from the ring to live and to its end', () => {
    const calling = run([dial]);
    expect(calling).toMatchObject({ callId: 'c1', direction: 'outgoing', phase: 'calling', startedAt: null, totals: null });
    const connecting = run([{ type: 'answered' }], calling);
    expect(connecting?.phase).toBe('connecting');
    const started = run([{ type: 'started', at: 5_000 }], connecting);
    expect(started).toMatchObject({ phase: 'connecting', startedAt: 5_000 });
    const live = run([{ type: 'connected' }], started);
    expect(live?.phase).toBe('live');
    const ended = run([{ type: 'ended', reason: 'hangup', estimate: { minutes: 1, cost: 120, earnings: 0 } }], live);
    expect(ended).toMatchObject({ phase: 'ended', endReason: 'hangup', status: CallStatus.ended, totals: { minutes: 1, cost: 120, earnings: 0 } });
  });

  it('rings the viewer, answers, and takes the server’s status and totals over the estimate', () => {
    const ringing = run([rang]);
    expect(ringing).toMatchObject({ direction: 'incoming', phase: 'ringing' });
    const ended = run([{ type: 'answered' }, { type: 'started', at: 0 }, { type: 'ended', reason: 'noCredit', status: CallStatus.noCredit, totals: { minutes: 3, cost: 360, earnings: 300 }, estimate: zero }], ringing);
    expect(ended).toMatchObject({ phase: 'ended', endReason: 'noCredit', status: CallStatus.noCredit, totals: { minutes: 3, cost: 360, earnings: 300 } });
  });

  it('ignores what a phase does not take', () => {
    const calling = run([dial]);
    // Media before the server started the call, or an answer to a live call, change nothing.
    expect(run([{ type: 'connected' }], calling)).toBe(calling);
    const live = run([{ type: 'answered' }, { type: 'started', at: 1 }, { type: 'connected' }], calling);
    expect(run([{ type: 'answered' }], live)).toBe(live);
    expect(run([{ type: 'started', at: 99 }], live)).toBe(live);
    // A second call does not replace one that is open; an ended one it does.
    expect(run([rang], live)).toBe(live);
    const ended = run([{ type: 'ended', reason: 'hangup', estimate: zero }], live);
    expect(run([{ type: 'ended', reason: 'failed', estimate: zero }], ended)).toBe(ended);
    expect(run([rang], ended)?.callId).toBe('c2');
    // Nothing happens to no call, and a price for another call is not this one's.
    expect(run([{ type: 'answered' }, { type: 'connected' }, { type: 'ended', reason: 'hangup', estimate: zero }])).toBeNull();
    expect(run([{ type: 'priced', callId: 'other', agreedPrice: 1 }], calling)).toBe(calling);
    expect(run([{ type: 'priced', callId: 'c1', agreedPrice: 150 }], calling)?.agreedPrice).toBe(150);
    expect(run([{ type: 'priced', callId: 'c1', agreedPrice: 150 }], ended)).toBe(ended);
  });

  it('settles an ended call with the server’s later totals, and forgets it when cleared', () => {
    const ended = run([dial, { type: 'ended', reason: 'hangup', estimate: { minutes: 1, cost: 120, earnings: 0 } }]);
    const settled = run([{ type: 'settled', totals: { minutes: 2, cost: 240, earnings: 0 }, status: CallStatus.noCredit }], ended);
    expect(settled).toMatchObject({ totals: { minutes: 2, cost: 240 }, status: CallStatus.noCredit });
    expect(run([{ type: 'settled', totals: zero, status: null }], run([dial]))?.totals).toBeNull();
    expect(run([{ type: 'cleared' }], settled)).toBeNull();
  });

  it('reads the ends the server names', () => {
    expect(refusalOf(null)).toEqual({ reason: 'declined', status: CallStatus.declined });
    expect(refusalOf(CallStatus.busy)).toEqual({ reason: 'busy', status: CallStatus.busy });
    const ringing = run([rang]) as CallSession;
    const calling = run([dial]) as CallSession;
    // The caller hung up before anyone answered: for the callee that is a cancelled ring.
    expect(reasonOfStop(ringing, 'hangup', null)).toBe('cancelled');
    expect(reasonOfStop(calling, null, CallStatus.notAnswering)).toBe('missed');
    expect(reasonOfStop(calling, null, null)).toBe('hangup');
  });
});

describe('the call meter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts every minute begun at the fan’s price as the clock ticks, and stops ticking', () => {
    const current = signal<CallSession | null>(null);
    const meter = createMeter(current, () => Date.now());
    expect(meter.meter.value).toMatchObject({ elapsedSeconds: 0, minutes: 0, cost: 0 });
    current.value = run([dial, { type: 'answered' }, { type: 'started', at: Date.now() }]);
    meter.start();
    // The first minute is paid the moment the call starts.
    expect(meter.meter.value).toMatchObject({ elapsedSeconds: 0, minutes: 1, cost: 120, earnings: 100, pricePerMinute: 120 });
    vi.advanceTimersByTime(59_000);
    expect(meter.meter.value).toMatchObject({ elapsedSeconds: 59, minutes: 1, cost: 120 });
    vi.advanceTimersByTime(1_000);
    expect(meter.meter.value).toMatchObject({ elapsedSeconds: 60, minutes: 2, cost: 240, earnings: 200 });
    meter.stop();
    vi.advanceTimersByTime(120_000);
    expect(meter.meter.value.elapsedSeconds).toBe(60);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('follows the server: seconds left count down, a low credit shows until creditOK, and counts never go back', () => {
    const current = signal<CallSession | null>(run([dial, { type: 'started', at: Date.now() }]));
    const meter = createMeter(current, () => Date.now());
    meter.start();
    meter.dispatch({ type: 'timeLeft', seconds: 90, minutes: 1, cost: 120, at: Date.now() });
    vi.advanceTimersByTime(30_000);
    expect(meter.meter.value).toMatchObject({ secondsLeft: 60, lowCredit: false });
    meter.dispatch({ type: 'askForMoney', seconds: 20, pricePerMinute: 130, at: Date.now() });
    expect(meter.meter.value).toMatchObject({ secondsLeft: 20, lowCredit: true, pricePerMinute: 130 });
    vi.advanceTimersByTime(25_000);
    expect(meter.meter.value.secondsLeft).toBe(0);
    meter.dispatch({ type: 'creditOK', seconds: 300, at: Date.now() });
    expect(meter.meter.value).toMatchObject({ secondsLeft: 300, lowCredit: false });
    // The server billed three minutes: more than the clock counted, so the meter says three.
    meter.dispatch({ type: 'timeLeft', seconds: null, minutes: 3, cost: 360, at: Date.now() });
    meter.dispatch({ type: 'timeLeft', seconds: null, minutes: 2, cost: 240, at: Date.now() });
    expect(meter.meter.value).toMatchObject({ minutes: 3, cost: 360, secondsLeft: 300 });
    meter.stop();
    expect(meter.meter.value).toMatchObject({ minutes: 1, lowCredit: false, secondsLeft: null });
  });

  it('shows an ended call’s totals, and the creator’s earnings as the server counts them', () => {
    const start = Date.now();
    const live = run([rang, { type: 'answered' }, { type: 'started', at: start }, { type: 'connected' }]);
    const earned = meterReducer(emptyMeterState, { type: 'callEarnings', earnings: 500, minutes: 4 });
    expect(meterOf(live, earned, start + 61_000)).toMatchObject({ elapsedSeconds: 61, minutes: 4, earnings: 500, cost: 480 });
    const ended = run([{ type: 'ended', reason: 'hangup', estimate: { minutes: 4, cost: 480, earnings: 500 } }], live);
    expect(meterOf(ended, earned, start + 600_000)).toMatchObject({ minutes: 4, cost: 480, earnings: 500, secondsLeft: null, lowCredit: false });
    expect(meterOf(null, earned, start)).toMatchObject({ minutes: 0, cost: 0, pricePerMinute: 0 });
  });
});

/**
 * The call's phases as a pure reducer over typed actions: what the store shows as `current`
 * follows only from the actions dispatched to it, never from a field set by hand. The store
 * decides when an action happens (a server message, a button, a timer); this decides what it
 * does to the call, and ignores an action its phase does not take.
 *
 *   idle ──dial──▶ calling ──answered──▶ connecting ──connected──▶ live
 *   idle ──rang──▶ ringing ──answered──▶ connecting
 *   calling | connecting ──started (the server's callStart: the meter runs)──▶ connecting
 *   any but ended ──ended──▶ ended ──settled (the server's totals, later)──▶ ended
 *   any ──cleared──▶ idle (null)
 */
import type { CallEndReason, CallParty, CallStatusCode } from '../../../contract';
import { CallStatus } from '../../../contract/rules/calls';
import type { CallSession, CallTotals } from './types';

export type CallAction =
  /** This page rings a creator. */
  | { type: 'dial'; callId: string; peer: CallParty; agreedPrice: number; earningsPrice: number }
  /** Someone rings the viewer. */
  | { type: 'rang'; callId: string; peer: CallParty; agreedPrice: number; earningsPrice: number }
  /** The fan's price of a ringing call, once the settings' salt is known. */
  | { type: 'priced'; callId: string; agreedPrice: number }
  /** The callee answered (the caller's side hears it; the callee's side said it). */
  | { type: 'answered' }
  /** The server started the call (the first minute is held) at `at`. */
  | { type: 'started'; at: number }
  /** Media flow between the two sides. */
  | { type: 'connected' }
  /**
   * The call is over. `status` and `totals` are the server's when it gave them; else the
   * reason's status and `estimate` (what the meter counted).
   */
  | { type: 'ended'; reason: CallEndReason; status?: CallStatusCode | null; totals?: CallTotals | null; estimate: CallTotals }
  /** The server's totals (and status) for a call that ended here first. */
  | { type: 'settled'; totals: CallTotals; status: CallStatusCode | null }
  /** Forgotten: back to idle. */
  | { type: 'cleared' };

/** SPEC §5 status → why the call ended. */
export const reasonOfStatus: Partial<Record<number, CallEndReason>> = {
  [CallStatus.noCredit]: 'noCredit',
  [CallStatus.couldNotBePaid]: 'couldNotBePaid',
  [CallStatus.declined]: 'declined',
  [CallStatus.notAnswering]: 'missed',
  [CallStatus.busy]: 'busy',
  [CallStatus.ended]: 'hangup',
};

/** Why the call ended → SPEC §5 status. */
export const statusOfReason: Record<CallEndReason, CallStatusCode> = {
  hangup: CallStatus.ended,
  declined: CallStatus.declined,
  cancelled: CallStatus.ended,
  missed: CallStatus.notAnswering,
  busy: CallStatus.busy,
  noCredit: CallStatus.noCredit,
  couldNotBePaid: CallStatus.couldNotBePaid,
  disconnected: CallStatus.ended,
  failed: CallStatus.ended,
};

/** The ending a refused answer (`preAnswer` with `accept: false`) means. */
export function refusalOf(status: number | null): { reason: CallEndReason; status: CallStatusCode } {
  const code = status ?? CallStatus.declined;
  return { reason: reasonOfStatus[code] ?? 'declined', status: code as CallStatusCode };
}

/** Why the server's `callStop` ended a call in this phase: a caller who hung up before the answer cancelled the ring. */
export function reasonOfStop(call: CallSession, given: CallEndReason | null, status: number | null): CallEndReason {
  const reason = given ?? reasonOfStatus[status ?? CallStatus.ended] ?? 'hangup';
  return call.phase === 'ringing' && reason === 'hangup' ? 'cancelled' : reason;
}

function session(action: Extract<CallAction, { type: 'dial' | 'rang' }>): CallSession {
  return {
    callId: action.callId,
    direction: action.type === 'dial' ? 'outgoing' : 'incoming',
    peer: action.peer,
    agreedPrice: action.agreedPrice,
    earningsPrice: action.earningsPrice,
    phase: action.type === 'dial' ? 'calling' : 'ringing',
    startedAt: null,
    endReason: null,
    status: null,
    totals: null,
  };
}

/** The call after `action`; the same object when the action does not apply to its phase. */
export function callReducer(call: CallSession | null, action: CallAction): CallSession | null {
  switch (action.type) {
    case 'dial':
    case 'rang':
      // A new call replaces only an ended one.
      return call === null || call.phase === 'ended' ? session(action) : call;
    case 'cleared':
      return null;
  }
  if (call === null) return null;
  switch (action.type) {
    case 'priced':
      return call.callId === action.callId && call.phase !== 'ended' ? { ...call, agreedPrice: action.agreedPrice } : call;
    case 'answered':
      return call.phase === 'calling' || call.phase === 'ringing' ? { ...call, phase: 'connecting' } : call;
    case 'started':
      return call.phase === 'calling' || call.phase === 'connecting' ? { ...call, phase: 'connecting', startedAt: action.at } : call;
    case 'connected':
      return call.phase === 'connecting' ? { ...call, phase: 'live' } : call;
    case 'ended':
      if (call.phase === 'ended') return call;
      return { ...call, phase: 'ended', endReason: action.reason, status: action.status ?? statusOfReason[action.reason], totals: action.totals ?? action.estimate };
    case 'settled':
      return call.phase === 'ended' ? { ...call, totals: action.totals, ...(action.status !== null ? { status: action.status } : {}) } : call;
  }
}

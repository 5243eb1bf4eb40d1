/**
 * The rules of a paid call both sides keep (SPEC §3 Call, §5, §7 callMessage; docs/calls.md):
 * its states and status codes, which call messages a client may send, its timeouts and the
 * minute arithmetic. Plain values, no schema library: the browser imports them as they are,
 * and the server decides with the same ones.
 */

/** Where a call is in its life. `ringing` and `live` are open; every other state is final. */
export const CallStates = ['ringing', 'live', 'ended', 'declined', 'cancelled', 'missed', 'busy', 'noCredit', 'failed'] as const;
export type CallState = (typeof CallStates)[number];
export const openCallStates: readonly CallState[] = ['ringing', 'live'];

/** SPEC §5 call status codes, as clients show them. */
export const CallStatus = {
  incomingRing: 1,
  outgoing: 2,
  ringing: 21,
  inCall: 22,
  accepted: 23,
  live: 24,
  noCredit: 51,
  couldNotBePaid: 53,
  declined: 54,
  notAnswering: 55,
  busy: 57,
  ended: 58,
} as const;
export type CallStatusCode = (typeof CallStatus)[keyof typeof CallStatus];

/** Why a call ended, for the end screen (SPEC §8 "Call end" texts callstatus_*). */
export const CallEndReasons = ['hangup', 'declined', 'cancelled', 'missed', 'busy', 'noCredit', 'couldNotBePaid', 'disconnected', 'failed'] as const;
export type CallEndReason = (typeof CallEndReasons)[number];

/** A call id, made by the caller's client: 22 to 64 base64url characters (at least 128 random bits). */
export const CALL_ID_PATTERN = '^[A-Za-z0-9_-]{22,64}$';

/** Seconds a call rings before it is missed (SPEC §9). */
export const CALL_RING_TIMEOUT_S = 120;
/** A minute of a call, the unit it is billed in. */
export const CALL_MINUTE_S = 60;


/** SPEC §7 call message types, relayed between the two parties of a call. */
export const CallMessageTypes = [
  'preOffer',
  'preAnswer',
  'callStart',
  'callStop',
  'iceCandidate',
  'rtcOffer',
  'creditOK',
  'askForMoney',
  'callEarnings',
  'chatMessage',
  'giftMessage',
  'timeLeft',
  'remoteStream',
  'viewFrame',
] as const;
export type CallMessageType = (typeof CallMessageTypes)[number];

/** What a client may send. */
export const ClientCallTypes = ['preOffer', 'preAnswer', 'callStop', 'rtcOffer', 'iceCandidate', 'chatMessage', 'giftMessage', 'remoteStream', 'viewFrame'] as const;
export type ClientCallType = (typeof ClientCallTypes)[number];
export const clientCallTypes: ReadonlySet<CallMessageType> = new Set<CallMessageType>(ClientCallTypes);

/** What only the server says (the billing clock and `callStart`): a client sending one is refused (`forbidden`), and a client ignores one from anybody else. */
export const ServerOnlyCallTypes = ['callStart', 'creditOK', 'askForMoney', 'callEarnings', 'timeLeft'] as const;
export type ServerOnlyCallType = (typeof ServerOnlyCallTypes)[number];
export const serverOnlyCallTypes: ReadonlySet<CallMessageType> = new Set<CallMessageType>(ServerOnlyCallTypes);

/** Relayed as they are to the other party of the call. */
export const relayedCallTypes: ReadonlySet<CallMessageType> = new Set<CallMessageType>(['rtcOffer', 'iceCandidate', 'chatMessage', 'giftMessage', 'remoteStream', 'viewFrame']);
/** Relayed only while the call is live: the media connection is made once the first minute is held. */
export const liveOnlyCallTypes: ReadonlySet<CallMessageType> = new Set<CallMessageType>(['rtcOffer', 'iceCandidate']);

/** The `senderId` of the call messages the server itself sends. */
export const CALL_SERVER_SENDER = 0;

/**
 * Minutes begun at `at` of a call that went live at `started` (epoch ms): minute n runs
 * [started + (n−1)·60 s, started + n·60 s), so the first instant already begins minute 1. A fan
 * pays for every minute begun: the server bills with it, the meter shows what hanging up costs.
 */
export function minutesBegun(started: number, at: number): number {
  if (at < started) return 0;
  return Math.floor((at - started) / (CALL_MINUTE_S * 1000)) + 1;
}

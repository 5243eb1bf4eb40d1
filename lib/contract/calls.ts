import { Type, type Static } from 'typebox';
import { Int } from './bounds';
import { CALL_ID_PATTERN, CallEndReasons, CallStates, type CallEndReason, type CallStatusCode } from './rules/calls';

/**
 * Paid video calls (SPEC §3 Call, §5 call status and billing, §7 callMessage; docs/calls.md).
 *
 * A fan calls a creator; the creator's `callPrice` (cents a minute) is what she earns, the fan
 * pays it with the platform's fee (`fanPriceCents`). The server keeps the call's record and
 * runs its billing clock: on accept the fan's wallet holds the first minute, at each minute the
 * server settles it to the creator and holds the next; the billing messages (`creditOK`,
 * `askForMoney`, `callEarnings`, `timeLeft`) come only from the server.
 */

export * from './rules/calls';

/** `GET /api/calls/{id}`. */
export const CallIdParams = Type.Object({ id: Type.String({ pattern: CALL_ID_PATTERN, description: 'The call id the caller made.' }) });
export type CallIdParams = Static<typeof CallIdParams>;

/** `GET /api/users/{id}/call-packages`: a creator's numeric id. */
export const CallPackagesParams = Type.Object({ id: Int({ minimum: 1 }) });
export type CallPackagesParams = Static<typeof CallPackagesParams>;

export const CallParty = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  displayName: Type.String(),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
});
export type CallParty = Static<typeof CallParty>;

/** SPEC §3 Call, as `GET /api/calls/{id}` answers it to either party. */
export const Call = Type.Object({
  callId: Type.String(),
  /** Who called (the fan who pays). */
  caller: CallParty,
  /** Who was called (the creator who earns). */
  callee: CallParty,
  /** The other party's id, from the viewer's side. */
  peerId: Type.Integer(),
  callIsIncoming: Type.Boolean(),
  state: Type.Enum(CallStates),
  endReason: Type.Union([Type.Enum(CallEndReasons), Type.Null()]),
  /** Credits a minute the fan pays (the creator's price with the platform's fee). */
  agreedPrice: Type.Integer({ minimum: 0 }),
  /** Cents a minute the creator earns. */
  earningsPrice: Type.Integer({ minimum: 0 }),
  /** Minutes begun and paid so far. */
  minutes: Type.Integer({ minimum: 0 }),
  /** Credits the fan paid so far; shown to the caller. */
  cost: Type.Integer({ minimum: 0 }),
  /** Cents the creator earned so far; shown to the callee (0 for the caller). */
  earnings: Type.Integer({ minimum: 0 }),
  created: Type.Integer({ description: 'ms since epoch' }),
  started: Type.Union([Type.Integer(), Type.Null()]),
  ended: Type.Union([Type.Integer(), Type.Null()]),
});
export type Call = Static<typeof Call>;

/** `GET /api/users/{id}/call-packages`: what a minute with this creator costs and what each credit package buys. */
export const CallPackages = Type.Object({
  /** Credits a minute for the viewer. */
  pricePerMinute: Type.Integer({ minimum: 0 }),
  packages: Type.Array(
    Type.Object({
      packageId: Type.Integer(),
      /** Credits the package adds to the wallet. */
      credits: Type.Integer({ minimum: 0 }),
      /** Cents it costs by card. */
      priceCents: Type.Integer({ minimum: 0 }),
      /** Whole minutes of this creator's calls it pays for (null when calls are free). */
      minutes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    }),
  ),
});
export type CallPackages = Static<typeof CallPackages>;

/** One STUN or TURN server, as `RTCPeerConnection` takes it. */
export const CallIceServer = Type.Object({
  urls: Type.Union([Type.String(), Type.Array(Type.String())]),
  username: Type.Optional(Type.String()),
  credential: Type.Optional(Type.String()),
});
export type CallIceServer = Static<typeof CallIceServer>;

/**
 * `GET /api/calls/{id}/ice-servers`: the ICE servers for one party of an open call — the
 * platform's STUN servers and, when a TURN server is configured, a credential for it minted for
 * this person (coturn's `use-auth-secret`: `username` is `<expiry unix seconds>:<userId>`,
 * `credential` base64 HMAC-SHA1 of it) that is good for `ttl` seconds.
 */
export const CallIceServers = Type.Object({
  iceServers: Type.Array(CallIceServer),
  /** Seconds the TURN credential is good for from now; null when there is none. */
  ttl: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
export type CallIceServers = Static<typeof CallIceServers>;

/**
 * The bodies of the call messages over the websocket (`callMessage` in lib/contract/realtime.ts).
 * Client → server: preOffer, preAnswer, callStop, rtcOffer, iceCandidate, chatMessage,
 * giftMessage, remoteStream, viewFrame. Server → client only: creditOK, askForMoney,
 * callEarnings, timeLeft, and the server's own preOffer/preAnswer/callStop answers.
 */
export interface CallMessageBodies {
  /** Caller → server: ring `receiverId`. Server → callee: who is calling and at what price. */
  preOffer: { caller?: CallParty; agreedPrice?: number; earningsPrice?: number };
  /** Callee → server: accept or decline. Server → caller: the answer, or busy/noCredit. */
  preAnswer: { accept: boolean; status?: CallStatusCode };
  /** Server → both: the call is live (the first minute is held); the caller starts WebRTC. */
  callStart: { started: number };
  /** Either → server: hang up. Server → both: the call ended and why. */
  callStop: { reason?: CallEndReason; status?: CallStatusCode; minutes?: number; cost?: number; earnings?: number };
  /** simple-peer's signal data (SDP offer/answer or a candidate), relayed as is. */
  rtcOffer: { signal: unknown };
  iceCandidate: { signal: unknown };
  /** Server → fan: seconds the held money lasts. */
  timeLeft: { seconds: number; minutes: number; cost: number };
  /** Server → fan: the next minute cannot be held; top up within `seconds`. */
  askForMoney: { seconds: number; pricePerMinute: number };
  /** Server → fan: after a top-up the next minute is held again. */
  creditOK: { seconds: number };
  /** Server → creator: earnings of the call so far. */
  callEarnings: { earnings: number; minutes: number };
  chatMessage: { text: string };
  giftMessage: { giftId: number };
  remoteStream: { audio: boolean; video: boolean };
  viewFrame: Record<string, never>;
}

/**
 * The calls' side of the websocket: what the store sends as `callMessage`, and what it hears —
 * each server message's body read here, in one place, by the type the contract gives it
 * (`CallMessageBodies`, lib/contract/calls.ts), and handed on as a typed event.
 * Every subscription it makes is undone by `dispose()`.
 *
 * Two checks belong to the message and are made here too: nothing is heard while nobody is
 * logged in, and the call's start and its money are the server's word alone (`senderId` 0).
 */
import type { CallEndReason, CallParty } from '../../../contract';
import type { CallMessageBodies } from '../../../contract/calls';
import { CALL_SERVER_SENDER, serverOnlyCallTypes } from '../../../contract/rules/calls';
import type { CallMessageType, ServerMessageOf } from '../../../contract/realtime';
import type { SpendRequestRef } from '../../../contract/spending';
import type { FanstageSocket } from '../../socket';
import type { MeterAction } from './meter';
import type { CallSignalData, CallTotals } from './types';

/** What the other side or the server said in a call, its body read. */
export type CallEvent =
  | { type: 'preAnswer'; accept: boolean; status: number | null }
  | { type: 'callStart' }
  | { type: 'callStop'; status: number | null; reason: CallEndReason | null; totals: CallTotals | null }
  /** A simple-peer signal (`rtcOffer` or `iceCandidate`), its peer generation inside. */
  | { type: 'signal'; signal: CallSignalData }
  | { type: 'meter'; action: MeterAction }
  | { type: 'chatMessage'; text: string }
  | { type: 'giftMessage'; giftId: number }
  | { type: 'remoteStream'; audio: boolean; video: boolean };

/** A ring: who calls, and the prices when the server named them. */
export interface CallOffer {
  caller: CallParty;
  agreedPrice: number | null;
  earningsPrice: number | null;
}

/** The server refused one of the calls' messages (`error` with `ref: 'callMessage'`). */
export interface CallRefusal {
  statusText: string;
  msgId: string | undefined;
  body: SpendRequestRef | undefined;
}

export interface CallTarget {
  callId: string;
  peerId: number;
}

export interface CallSignallingHandlers {
  /** Whether someone is logged in: nobody hears calls otherwise. */
  loggedIn(): boolean;
  now(): number;
  offer(callId: string, senderId: number, offer: CallOffer): void;
  event(callId: string, senderId: number, event: CallEvent): void;
  refused(refusal: CallRefusal): void;
  /** The connection (re)opened. */
  hello(): void;
}

/** A call message as the store reads it: its type, and the body the contract gives that type. */
type IncomingCallMessage = { [T in CallMessageType]: { type: T; body: CallMessageBodies[T] } }[CallMessageType];

/** The caller a ring names (its sender when the body does not say). */
export function partyFromBody(body: CallMessageBodies['preOffer'], senderId: number): CallParty {
  return body.caller ?? { id: senderId, username: String(senderId), displayName: '', avatarUrl: null };
}

/** A ring's body read. */
export function offerOf(body: CallMessageBodies['preOffer'], senderId: number): CallOffer {
  return { caller: partyFromBody(body, senderId), agreedPrice: body.agreedPrice ?? null, earningsPrice: body.earningsPrice ?? null };
}

/** The event a call message means, or null when it means nothing to the store. */
function eventOf(message: IncomingCallMessage, at: number): CallEvent | null {
  switch (message.type) {
    case 'preAnswer':
      return { type: message.type, accept: message.body.accept, status: message.body.status ?? null };
    case 'callStart':
      return { type: message.type };
    case 'callStop': {
      const { minutes, cost, earnings, status, reason } = message.body;
      return { type: message.type, status: status ?? null, reason: reason ?? null, totals: minutes !== undefined ? { minutes, cost: cost ?? 0, earnings: earnings ?? 0 } : null };
    }
    case 'rtcOffer':
    case 'iceCandidate':
      // simple-peer's signal data, as the other side's store sent it (with its peer generation).
      return { type: 'signal', signal: message.body.signal as CallSignalData };
    case 'timeLeft':
      return { type: 'meter', action: { type: message.type, seconds: message.body.seconds, minutes: message.body.minutes, cost: message.body.cost, at } };
    case 'askForMoney':
      return { type: 'meter', action: { type: message.type, seconds: message.body.seconds, pricePerMinute: message.body.pricePerMinute, at } };
    case 'creditOK':
      return { type: 'meter', action: { type: message.type, seconds: message.body.seconds, at } };
    case 'callEarnings':
      return { type: 'meter', action: { type: message.type, earnings: message.body.earnings, minutes: message.body.minutes } };
    case 'chatMessage':
      return message.body.text.trim() ? { type: message.type, text: message.body.text } : null;
    case 'giftMessage':
      return { type: message.type, giftId: message.body.giftId };
    case 'remoteStream':
      return { type: message.type, audio: message.body.audio, video: message.body.video };
    default:
      return null;
  }
}

export function createCallSignalling(socket: FanstageSocket, handlers: CallSignallingHandlers) {
  function onMessage(message: ServerMessageOf<'callMessage'>): void {
    const { callId, callMessageType: type, senderId } = message;
    // The body the contract gives this call type (lib/contract/calls.ts): the server checked it
    // when a client sent it, or built it itself.
    const incoming = { type, body: message.callMessageBody ?? {} } as IncomingCallMessage;
    if (!handlers.loggedIn()) return;
    if (incoming.type === 'preOffer') return handlers.offer(callId, senderId, offerOf(incoming.body, senderId));
    // The call's start and its money are the server's word alone (senderId 0).
    if (serverOnlyCallTypes.has(type) && senderId !== CALL_SERVER_SENDER) return;
    const event = eventOf(incoming, handlers.now());
    if (event) handlers.event(callId, senderId, event);
  }

  const unsubscribe = [
    socket.on('callMessage', onMessage),
    socket.on('hello', () => handlers.hello()),
    socket.on('error', (message) => {
      if (message.ref === 'callMessage') handlers.refused({ statusText: message.statusText, msgId: message.msgId, body: message.body });
    }),
  ];

  return {
    /** Sends one of the calls' messages to the other side; false when the socket is not open (or the type is the server's). */
    send<T extends CallMessageType>(type: T, body: T extends keyof CallMessageBodies ? CallMessageBodies[T] : never, to: CallTarget, confirmation?: string): boolean {
      if (serverOnlyCallTypes.has(type)) return false;
      return socket.send({
        type: 'callMessage',
        callId: to.callId,
        callMessageType: type,
        receiverId: to.peerId,
        callMessageBody: body,
        ...(confirmation !== undefined ? { confirmation } : {}),
      });
    },
    dispose(): void {
      for (const off of unsubscribe.splice(0)) off();
    },
  };
}

export type CallSignalling = ReturnType<typeof createCallSignalling>;

/**
 * The calls' side of the websocket: what the store sends as `callMessage`, and what it hears —
 * each server message's shape checked here, in one place, and handed on as a typed event.
 * Every subscription it makes is undone by `dispose()`.
 *
 * Two checks belong to the message and are made here too: nothing is heard while nobody is
 * logged in, and the call's start and its money are the server's word alone (`senderId` 0).
 */
import type { CallEndReason, CallParty } from '../../../contract';
import type { CallMessageBodies } from '../../../contract/calls';
import type { CallMessageType, ServerMessageOf } from '../../../contract/realtime';
import type { SpendRequestRef } from '../../../contract/spending';
import type { FanstageSocket } from '../../socket';
import type { MeterAction } from './meter';
import type { CallTotals } from './types';

/** What the other side or the server said in a call, its body read. */
export type CallEvent =
  | { type: 'preAnswer'; accept: boolean; status: number | null }
  | { type: 'callStart' }
  | { type: 'callStop'; status: number | null; reason: CallEndReason | null; totals: CallTotals | null }
  /** A simple-peer signal (`rtcOffer` or `iceCandidate`), its peer generation inside. */
  | { type: 'signal'; signal: Record<string, unknown> }
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

/** The calls' message types only the server sends; never sent by a client. */
const serverOnly: ReadonlySet<CallMessageType> = new Set<CallMessageType>(['creditOK', 'askForMoney', 'callEarnings', 'timeLeft', 'callStart']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The caller a ring names (its sender when the body does not say). */
export function partyFromBody(body: Record<string, unknown>, senderId: number): CallParty {
  const caller = body.caller;
  if (isObject(caller) && typeof caller.id === 'number') {
    return {
      id: caller.id,
      username: typeof caller.username === 'string' ? caller.username : String(caller.id),
      displayName: typeof caller.displayName === 'string' ? caller.displayName : '',
      avatarUrl: typeof caller.avatarUrl === 'string' ? caller.avatarUrl : null,
    };
  }
  return { id: senderId, username: String(senderId), displayName: '', avatarUrl: null };
}

/** A ring's body read. */
export function offerOf(body: Record<string, unknown>, senderId: number): CallOffer {
  return { caller: partyFromBody(body, senderId), agreedPrice: num(body.agreedPrice), earningsPrice: num(body.earningsPrice) };
}

/** The event a call message's body means, or null when it means nothing to the store. */
function eventOf(type: CallMessageType, body: Record<string, unknown>, at: number): CallEvent | null {
  switch (type) {
    case 'preAnswer':
      return { type, accept: body.accept === true, status: num(body.status) };
    case 'callStart':
      return { type };
    case 'callStop': {
      const minutes = num(body.minutes);
      return {
        type,
        status: num(body.status),
        reason: typeof body.reason === 'string' ? (body.reason as CallEndReason) : null,
        totals: minutes !== null ? { minutes, cost: num(body.cost) ?? 0, earnings: num(body.earnings) ?? 0 } : null,
      };
    }
    case 'rtcOffer':
    case 'iceCandidate':
      return isObject(body.signal) ? { type: 'signal', signal: body.signal } : null;
    case 'timeLeft':
      return { type: 'meter', action: { type, seconds: num(body.seconds), minutes: num(body.minutes), cost: num(body.cost), at } };
    case 'askForMoney':
      return { type: 'meter', action: { type, seconds: num(body.seconds), pricePerMinute: num(body.pricePerMinute), at } };
    case 'creditOK':
      return { type: 'meter', action: { type, seconds: num(body.seconds), at } };
    case 'callEarnings':
      return { type: 'meter', action: { type, earnings: num(body.earnings), minutes: num(body.minutes) } };
    case 'chatMessage':
      return typeof body.text === 'string' && body.text.trim() ? { type, text: body.text } : null;
    case 'giftMessage': {
      const giftId = num(body.giftId);
      return giftId !== null ? { type, giftId } : null;
    }
    case 'remoteStream':
      return { type, audio: body.audio !== false, video: body.video !== false };
    default:
      return null;
  }
}

export function createCallSignalling(socket: FanstageSocket, handlers: CallSignallingHandlers) {
  function onMessage(message: ServerMessageOf<'callMessage'>): void {
    const { callId, callMessageType: type, senderId } = message;
    const body = isObject(message.callMessageBody) ? message.callMessageBody : {};
    if (!handlers.loggedIn()) return;
    if (type === 'preOffer') return handlers.offer(callId, senderId, offerOf(body, senderId));
    // The call's start and its money are the server's word alone (senderId 0).
    if (serverOnly.has(type) && senderId !== 0) return;
    const event = eventOf(type, body, handlers.now());
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
      if (serverOnly.has(type)) return false;
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

import { CallStatus, type CallEndReason, type CallMessageBodies } from '../../../../lib/contract/calls';
import type { CallMessageType, ServerMessage } from '../../../../lib/contract/realtime';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../../db/availability';
import type { RealtimePublisher } from '../../realtime';
import { secondsLeft, statusOfEnd } from './domain';
import type { CallRow } from './service';

/** The server speaks as user 0: `creditOK`, `askForMoney`, `callEarnings`, `timeLeft`, `callStart` and its own `callStop`s. */
export const SERVER_SENDER = 0;

/** A `callMessage` as a client receives it. */
export function callMessage<T extends CallMessageType>(
  callId: string,
  type: T,
  senderId: number,
  receiverId: number,
  body: T extends keyof CallMessageBodies ? CallMessageBodies[T] : Record<string, unknown>,
): ServerMessage {
  return { type: 'callMessage', callId, callMessageType: type, senderId, receiverId, callMessageBody: body };
}

/** `callStop` for one party of an ended call: the caller sees what it cost, the callee what she earned. */
export function stopFor(call: CallRow, receiverId: number): ServerMessage {
  const reason = (call.endReason ?? 'hangup') as CallEndReason;
  const totals = receiverId === call.callerId ? { minutes: call.minutes, cost: call.cost } : { minutes: call.minutes, earnings: call.earnings };
  return callMessage(call.id, 'callStop', SERVER_SENDER, receiverId, { reason, status: statusOfEnd(reason), ...totals });
}

/** Tells both people of a call the entry its end wrote into their chat histories. */
export type CallEntryDelivery = (callId: string) => Promise<unknown>;

/**
 * A call stopped ringing the callee — answered, declined, missed, cancelled — told to her
 * browsers outside the page (web push), where a notification of the ring may still be up.
 */
export type RingStopped = (call: CallRow) => void;

/**
 * What the calls feature tells people's sockets, on every node. Everything here is sent after
 * the change it tells of committed. `deliverEntry` sends the chat entry of an ended call;
 * `ringStopped` closes the ring's notifications.
 */
export function createCallNotices(realtime: RealtimePublisher, deliverEntry?: CallEntryDelivery, log?: FastifyBaseLogger, ringStopped?: RingStopped) {
  const to = (userId: number, message: ServerMessage) => realtime.publish(userId, message);

  return {
    /** The callee's sockets ring. */
    ringing(call: CallRow, caller: CallMessageBodies['preOffer']['caller']): void {
      to(call.calleeId, callMessage(call.id, 'preOffer', call.callerId, call.calleeId, { caller, agreedPrice: call.agreedPrice, earningsPrice: call.earningsPrice }));
    },

    /** The call is live: the caller hears the accept, both get `callStart`, the fan the time the held minute lasts. */
    started(call: CallRow, now: number): void {
      const started = call.startedAt!.getTime();
      to(call.callerId, callMessage(call.id, 'preAnswer', call.calleeId, call.callerId, { accept: true, status: CallStatus.accepted }));
      for (const userId of [call.callerId, call.calleeId]) to(userId, callMessage(call.id, 'callStart', SERVER_SENDER, userId, { started }));
      ringStopped?.(call);
      if (call.agreedPrice > 0) this.timeLeft(call, now);
    },

    /**
     * The call ended: both parties get `callStop` with its reason and their totals (a declined
     * caller also the `preAnswer`), then the call's entry in their chat histories as a
     * `chatMessage`. Resolves once that is sent; it never rejects — an entry that could not be
     * sent now is in the database, and a client's `resume` brings it.
     */
    async ended(call: CallRow): Promise<void> {
      if (call.state === 'declined') to(call.callerId, callMessage(call.id, 'preAnswer', call.calleeId, call.callerId, { accept: false, status: CallStatus.declined }));
      to(call.callerId, stopFor(call, call.callerId));
      to(call.calleeId, stopFor(call, call.calleeId));
      // A call that ended while it rang (a live one closed its ring when it started).
      if (call.startedAt === null) ringStopped?.(call);
      if (deliverEntry === undefined) return;
      try {
        await deliverEntry(call.id);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) log?.warn({ err: error, callId: call.id }, 'calls: could not send a call’s chat entry; a resume brings it');
      }
    },

    /** The fan: how long the minutes held last, and what the call cost so far. */
    timeLeft(call: CallRow, now: number): void {
      to(
        call.callerId,
        callMessage(call.id, 'timeLeft', SERVER_SENDER, call.callerId, {
          seconds: secondsLeft(call.startedAt!.getTime(), call.heldThrough, now),
          minutes: call.minutes,
          cost: call.cost,
        }),
      );
    },

    /** The creator: what the call earned so far. */
    earnings(call: CallRow): void {
      to(call.calleeId, callMessage(call.id, 'callEarnings', SERVER_SENDER, call.calleeId, { earnings: call.earnings, minutes: call.minutes }));
    },

    /** The fan's wallet cannot hold the next minute: top up within `seconds`. */
    askForMoney(call: CallRow, now: number): void {
      to(
        call.callerId,
        callMessage(call.id, 'askForMoney', SERVER_SENDER, call.callerId, {
          seconds: secondsLeft(call.startedAt!.getTime(), call.heldThrough, now),
          pricePerMinute: call.agreedPrice,
        }),
      );
    },

    /** After a top-up the next minute is held again. */
    creditOK(call: CallRow, now: number): void {
      to(call.callerId, callMessage(call.id, 'creditOK', SERVER_SENDER, call.callerId, { seconds: secondsLeft(call.startedAt!.getTime(), call.heldThrough, now) }));
    },
  };
}

export type CallNotices = ReturnType<typeof createCallNotices>;

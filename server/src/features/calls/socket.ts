import type { FastifyBaseLogger } from 'fastify';
import type { ServerMessage } from '../../../../lib/contract/realtime';
import type { SpendRequestRef } from '../../../../lib/contract/spending';
import type { AppContext } from '../../context';
import { isDatabaseUnavailable } from '../../db/availability';
import { batched } from '../../db/batched';
import { AppError } from '../../errors';
import type { SocketFeature, SocketPeer } from '../../realtime/transport';
import { isOpenState, liveOnlyCallTypes, parseCallMessage } from './domain';
import { callMessage, SERVER_SENDER, stopFor } from './notices';
import { callRuntime } from './runtime';
import { pushTo } from '../push/service';
import { ConfirmationNeeded } from '../../ledger';
import { createSpendRequests, socketVia } from '../spending/requests';

/** The calls' client messages (docs/calls.md "Signalling"). */
export const callClientMessages: ReadonlySet<string> = new Set(['callMessage']);

/** What the calls' socket feature offers beyond the transport's `SocketFeature`. */
export interface CallSocketExtras {
  /** `handle` for a transport that sends the replies itself: never throws, refusals are `error`s. */
  answer(userId: number, type: string, fields: Record<string, unknown>, origin?: string | null): Promise<ServerMessage[]>;
}

/**
 * The websocket side of calls: `callMessage`s from clients, checked and turned into the work
 * of the call service, and the presence of the parties. Nothing is relayed blindly: a call
 * message goes only between the two parties of a call the server knows, and the billing types
 * come only from the server.
 *
 * The transport calls `handle(peer, 'callMessage', fields)` for each client `callMessage`
 * (one at a time per connection), `onConnect(peer)` after a connection's `hello` and
 * `onDisconnect(peer)` when it closed, for whatever reason. What the sender must hear comes
 * back through `peer.send` (or from `answer`, for a transport that sends replies itself); what
 * the other party must hear is published through `ctx.realtime`, after the change committed.
 */
export function createCallSocket(ctx: AppContext, log: FastifyBaseLogger = ctx.log): SocketFeature & CallSocketExtras {
  const { service, clock, notices } = callRuntime(ctx, log);
  const spendRequests = createSpendRequests(ctx);
  /** Open connections per user on this node: a party is gone when the last one closes. */
  const connections = new Map<number, number>();
  /**
   * Live calls as the relay last read them. A connection's signalling (its offer, answer and a
   * dozen candidates) is relayed one message at a time; reading the call for each would put a
   * database round trip before every one of them. Only live calls are kept, for a second: a call
   * that ended meanwhile may relay signalling between its two parties for that second, which
   * moves nothing; one that went live is read afresh until it is.
   */
  const liveCalls = new Map<string, { call: NonNullable<Awaited<ReturnType<typeof service.find>>>; until: number }>();

  async function callToRelay(callId: string) {
    const now = Date.now();
    const kept = liveCalls.get(callId);
    if (kept !== undefined && kept.until > now) return kept.call;
    const call = await service.find(callId);
    if (call?.state === 'live') {
      if (liveCalls.size >= 10_000) for (const [id, entry] of liveCalls) if (entry.until <= now) liveCalls.delete(id);
      liveCalls.set(callId, { call, until: now + 1_000 });
    } else {
      liveCalls.delete(callId);
    }
    return call;
  }

  async function handle(userId: number, fields: Record<string, unknown>, origin: string | null): Promise<ServerMessage[]> {
    const parsed = parseCallMessage(fields, userId);
    if ('problem' in parsed) throw new AppError(parsed.problem);
    const { callId, type, receiverId, body } = parsed.value;
    switch (type) {
      case 'preOffer': {
        const confirmation = typeof fields.confirmation === 'string' && /^[A-Za-z0-9_-]{16,32}$/.test(fields.confirmation) ? fields.confirmation : null;
        let outcome;
        try {
          outcome = await service.offer(userId, callId, receiverId, socketVia(ctx, origin, confirmation));
        } catch (error) {
          // A paid call from a partner site: the fan accepts its price in the platform's popup,
          // and the widget offers the call again with the confirmation.
          if (!(error instanceof ConfirmationNeeded)) throw error;
          const refusal = await spendRequests.open(userId, error.ask);
          return [{ type: 'error', statusText: refusal.key, ref: 'callMessage', msgId: callId, ...(refusal.body === undefined ? {} : { body: refusal.body as SpendRequestRef }) }];
        }
        if (outcome.kind === 'ringing') {
          clock.ringing(callId);
          notices.ringing(outcome.call, outcome.caller);
          // A creator with the site closed still learns someone is calling.
          pushTo(ctx, outcome.call.calleeId, { kind: 'incomingCall', fromUserId: outcome.call.callerId, callId });
        }
        if (outcome.kind === 'refused') return [callMessage(callId, 'preAnswer', SERVER_SENDER, userId, { accept: false, status: outcome.status })];
        return [];
      }
      case 'preAnswer': {
        const outcome = await service.answer(userId, callId, body.accept === true, receiverId);
        if (outcome.kind === 'live') {
          clock.run(outcome.call);
          notices.started(outcome.call, ctx.clock.now().getTime());
        } else if (outcome.kind === 'ended') {
          clock.forget(callId);
          await notices.ended(outcome.call);
        } else if (outcome.kind === 'over') {
          return [stopFor(outcome.call, userId)];
        } else if (outcome.kind === 'taken') {
          // Answered on another page or device of hers: this one stops ringing and takes nothing.
          return [{ type: 'error', statusText: 'call-taken', ref: 'callMessage', msgId: callId }];
        }
        return [];
      }
      case 'callStop': {
        liveCalls.delete(callId);
        const outcome = await service.stop(userId, callId, receiverId);
        if (outcome.kind === 'over') return [stopFor(outcome.call, userId)];
        if (outcome.kind === 'ended') {
          clock.forget(callId);
          await notices.ended(outcome.call);
        }
        return [];
      }
      default: {
        // Signalling, chat and gifts during the call: to the other party of an open call only.
        const call = await callToRelay(callId);
        const parties = call === undefined ? [] : [call.callerId, call.calleeId];
        if (call === undefined || !isOpenState(call.state) || !parties.includes(userId) || !parties.includes(receiverId)) throw new AppError('call-not-found');
        if (liveOnlyCallTypes.has(type) && call.state !== 'live') throw new AppError('call-not-live');
        ctx.realtime.publish(receiverId, { type: 'callMessage', callId, callMessageType: type, senderId: userId, receiverId, callMessageBody: body });
        return [];
      }
    }
  }

  /**
   * Presence is written for everyone whose sockets came or went in one turn together
   * (db/batched.ts): a crowd reconnecting after a restart costs two statements, not two each.
   */
  const presenceOf = (mark: (userIds: readonly number[]) => Promise<void>) =>
    batched<number, true>(async (userIds) => {
      await mark(userIds);
      return new Map<number, true>();
    });
  const back = presenceOf((userIds) => service.markBack(userIds));
  const gone = presenceOf((userIds) => service.markGone(userIds));

  /** Runs presence work without holding up the socket; it is retried by the next connect or close. */
  function presence(work: Promise<unknown>, userId: number): void {
    work.catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) log.warn({ err: error, userId }, 'calls: could not record a party’s presence');
    });
  }

  return {
    name: 'calls',
    types: [...callClientMessages],

    /** Answers a client `callMessage` on its connection; refusals throw an `AppError` with their key. */
    async handle(peer: SocketPeer, type: string, fields: Record<string, unknown>): Promise<void> {
      if (!callClientMessages.has(type)) throw new AppError('invalid-request');
      for (const reply of await handle(peer.userId, fields, peer.origin)) peer.send(reply);
    },

    /** See `CallSocketExtras`: a refusal is an `error` with its key and `ref: 'callMessage'`. */
    async answer(userId: number, type: string, fields: Record<string, unknown>, origin: string | null = null): Promise<ServerMessage[]> {
      try {
        if (!callClientMessages.has(type)) throw new AppError('invalid-request');
        return await handle(userId, fields, origin);
      } catch (error) {
        if (error instanceof AppError) return [{ type: 'error', statusText: error.key, ref: 'callMessage' }];
        if (isDatabaseUnavailable(error)) return [{ type: 'error', statusText: 'service-unavailable', ref: 'callMessage' }];
        log.warn({ err: error }, 'realtime: a call message failed');
        return [{ type: 'error', statusText: 'internal-error', ref: 'callMessage' }];
      }
    },

    /** A connection of the user opened: they are back for any open call of theirs. */
    onConnect(peer: Pick<SocketPeer, 'userId'>): void {
      const count = (connections.get(peer.userId) ?? 0) + 1;
      connections.set(peer.userId, count);
      if (count === 1) presence(back(peer.userId), peer.userId);
    },

    /** A connection closed: when it was the user's last here, their open calls start waiting for them (DISCONNECT_GRACE_MS). */
    onDisconnect(peer: Pick<SocketPeer, 'userId'>): void {
      const count = (connections.get(peer.userId) ?? 1) - 1;
      if (count > 0) {
        connections.set(peer.userId, count);
        return;
      }
      connections.delete(peer.userId);
      presence(gone(peer.userId), peer.userId);
    },
  };
}

export type CallSocket = ReturnType<typeof createCallSocket>;

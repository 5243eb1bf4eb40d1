import { and, eq, or, sql } from 'drizzle-orm';
import type { CallMessageType } from '../../../../lib/contract/realtime';
import type { AppContext } from '../../context';
import { blocks } from '../../db/schema';
import { AppError } from '../../errors';
import type { SocketFeature } from '../../realtime/transport';

const callMessageTypes: ReadonlySet<string> = new Set<CallMessageType>([
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
]);

/**
 * Call signalling as it stood before calls had a record: a `callMessage` relayed to the other
 * person with the sender named — never to oneself, never across a block. The calls feature
 * replaces it with signalling between the two parties of a call the server knows.
 */
export function callRelaySocketFeature(ctx: AppContext): SocketFeature {
  return {
    name: 'call-relay',
    types: ['callMessage'],
    async handle(peer, _type, fields) {
      const { callId, callMessageType, receiverId } = fields;
      if (
        typeof callId !== 'string' ||
        callId.length === 0 ||
        callId.length > 64 ||
        typeof callMessageType !== 'string' ||
        !callMessageTypes.has(callMessageType) ||
        typeof receiverId !== 'number' ||
        !Number.isSafeInteger(receiverId) ||
        receiverId < 1 ||
        receiverId > 2_147_483_647
      ) {
        throw new AppError('invalid-request');
      }
      if (receiverId === peer.userId) throw new AppError('cannot-target-self');
      const blocked = await ctx.db
        .select({ one: sql<number>`1` })
        .from(blocks)
        .where(or(and(eq(blocks.blockerId, peer.userId), eq(blocks.blockedId, receiverId)), and(eq(blocks.blockerId, receiverId), eq(blocks.blockedId, peer.userId))))
        .limit(1);
      if (blocked.length > 0) throw new AppError('user-not-found');
      ctx.realtime.publish(receiverId, {
        type: 'callMessage',
        callId,
        callMessageType: callMessageType as CallMessageType,
        senderId: peer.userId,
        receiverId,
        ...(fields.callMessageBody === undefined ? {} : { callMessageBody: fields.callMessageBody }),
      });
    },
  };
}

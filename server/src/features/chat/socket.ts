import { and, eq, isNotNull, notExists, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerMessage } from '../../../../lib/contract/realtime';
import type { CheckedClientMessage } from '../../../../lib/contract/socket';
import type { SpendRequestRef } from '../../../../lib/contract/spending';
import type { AppContext } from '../../context';
import { isDatabaseUnavailable } from '../../db/availability';
import { blocks, chatConversations } from '../../db/schema';
import { AppError } from '../../errors';
import { writesOf } from '../../http/writes';
import type { SocketFeature } from '../../realtime/transport';
import { ConfirmationNeeded } from '../../ledger';
import { createSpendRequests, socketVia } from '../spending/requests';
import { parseChatMessage, parseMassMessage, parseReaction, parseResume, parseUserField, type Problem } from './domain';
import { IndicatorPairs } from './indicators';
import { createChatService } from './service';

/** The chat's client messages (docs/realtime.md "Chat"); the websocket hands them over as they came. */
export const chatClientMessages: ReadonlySet<string> = new Set(['chatMessage', 'massChatMessage', 'chatReaction', 'chatConvRead', 'resume']);

/** The client waits for these with a msgId: every answer to them names it, so the right draft is marked. */
function msgIdOf(fields: Record<string, unknown>): string | undefined {
  return typeof fields.msgId === 'string' && fields.msgId.length <= 64 ? fields.msgId : undefined;
}

function refusal(type: string, fields: Record<string, unknown>, key: string): ServerMessage {
  const msgId = msgIdOf(fields);
  return { type: 'error', statusText: key, ref: type, ...(msgId === undefined ? {} : { msgId }) };
}

/**
 * Turns a chat client message into the work of the chat service and the answers for the
 * socket that sent it. What others must hear (the stored message, reactions, read receipts)
 * the service publishes itself once stored; what comes back here goes to the sending socket
 * only: refusals, errors and the resumed messages.
 */
export function createChatSocket(ctx: AppContext, log: FastifyBaseLogger) {
  const chat = createChatService(ctx);
  const spendRequests = createSpendRequests(ctx);

  async function handle(userId: number, type: string, fields: Record<string, unknown>, origin: string | null): Promise<ServerMessage[]> {
    const problem = (parsed: Problem) => [refusal(type, fields, parsed.problem)];
    switch (type) {
      case 'chatMessage': {
        const parsed = parseChatMessage(fields);
        if ('problem' in parsed) return problem(parsed);
        let outcome;
        try {
          outcome = await chat.send(userId, parsed.value, socketVia(ctx, origin, parsed.value.confirmation));
        } catch (error) {
          // A widget's paid message beyond the site's allowance: the fan confirms it in the
          // platform's popup, and the widget sends it again with the confirmation.
          if (!(error instanceof ConfirmationNeeded)) throw error;
          const refusal = await spendRequests.open(userId, error.ask);
          return [{ type: 'error', statusText: refusal.key, ref: type, msgId: parsed.value.msgId, ...(refusal.body === undefined ? {} : { body: refusal.body as SpendRequestRef }) }];
        }
        if ('refused' in outcome) return [{ type: 'eventMessage', event: outcome.refused, userId: outcome.receiverId, data: outcome.data }];
        return [];
      }
      case 'massChatMessage': {
        const parsed = parseMassMessage(fields, userId);
        if ('problem' in parsed) return problem(parsed);
        const outcome = await chat.sendMass(userId, parsed.value);
        if ('refused' in outcome) return [{ type: 'eventMessage', event: outcome.refused, userId, data: outcome.data }];
        return [];
      }
      case 'chatReaction': {
        const parsed = parseReaction(fields);
        if ('problem' in parsed) return problem(parsed);
        await chat.react(userId, parsed.value.messageId, parsed.value.reactionId);
        return [];
      }
      case 'chatConvRead': {
        const parsed = parseUserField(fields, 'userId');
        if ('problem' in parsed) return problem(parsed);
        await chat.markRead(userId, parsed.value);
        return [];
      }
      case 'resume': {
        const parsed = parseResume(fields);
        if ('problem' in parsed) return problem(parsed);
        const { messages, last, more } = await chat.resume(userId, parsed.value);
        const replies: ServerMessage[] = messages.map((message) => ({ type: 'chatMessage', message }));
        replies.push({ type: 'resumed', last, more });
        return replies;
      }
      default:
        return [refusal(type, fields, 'invalid-request')];
    }
  }

  return {
    /** The last position of the user's chat stream, for `hello`. */
    head: (userId: number): Promise<number> => chat.head(userId),

    /**
     * Never throws: a broken rule answers its key; a database that cannot be reached right now
     * `service-unavailable` (the client marks the draft not delivered and may send it again with
     * the same msgId); anything else `internal-error` — each with the msgId.
     */
    async handle(userId: number, type: string, fields: Record<string, unknown>, origin: string | null = null): Promise<ServerMessage[]> {
      try {
        return await handle(userId, type, fields, origin);
      } catch (error) {
        if (error instanceof AppError) return [refusal(type, fields, error.key)];
        if (isDatabaseUnavailable(error)) {
          log.debug({ err: error, type }, 'realtime: a chat message waits for the database');
          return [refusal(type, fields, 'service-unavailable')];
        }
        log.warn({ err: error, type }, 'realtime: a chat message failed');
        return [refusal(type, fields, 'internal-error')];
      }
    },
  };
}

/**
 * The chat's part of the websocket: its client messages, the typing-like events relayed to the
 * other person of a conversation (never to oneself, never to a stranger, never across a block),
 * and the chat stream's position in `hello`.
 */
export function chatSocketFeature(ctx: AppContext): SocketFeature {
  const chat = createChatSocket(ctx, ctx.log);

  /**
   * Whether `from` may show `to` an indicator: they have exchanged a message (the sender's side
   * of the conversation has one; a row opened only for a custom price has none), and neither
   * blocked the other. Otherwise anyone could put "… is typing" on anyone's screen: strangers
   * pestering a creator they never wrote to.
   */
  async function sharesConversation(from: number, to: number): Promise<boolean> {
    const rows = await ctx.db
      .select({ one: sql<number>`1` })
      .from(chatConversations)
      .where(
        and(
          eq(chatConversations.userId, from),
          eq(chatConversations.partnerId, to),
          isNotNull(chatConversations.lastMessageId),
          notExists(
            ctx.db
              .select({ one: sql`1` })
              .from(blocks)
              .where(or(and(eq(blocks.blockerId, from), eq(blocks.blockedId, to)), and(eq(blocks.blockerId, to), eq(blocks.blockedId, from)))),
          ),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  // Made on first use: the app counts its writes by then. Without a count nothing is held.
  let pairs: IndicatorPairs | null | undefined;
  const pairsOf = (): IndicatorPairs | null => {
    if (pairs === undefined) {
      const writes = writesOf(ctx);
      if (writes === undefined) {
        pairs = null;
      } else {
        const held = new IndicatorPairs(sharesConversation);
        writes.onWrite(() => held.forget());
        ctx.realtime.onLogout(() => held.forget());
        pairs = held;
      }
    }
    return pairs;
  };

  return {
    name: 'chat',
    types: [...chatClientMessages, 'eventMessage'],
    async handle(peer, type, fields) {
      if (type === 'eventMessage') {
        // Checked against the contract's schema by the transport before it got here.
        const { userId: target, event } = fields as CheckedClientMessage<'eventMessage'>;
        if (target === peer.userId) return;
        const held = pairsOf();
        const allowed = held === null ? await sharesConversation(peer.userId, target) : await held.allows(peer.userId, target);
        if (!allowed) return;
        ctx.realtime.publish(target, { type: 'eventMessage', event, userId: peer.userId });
        return;
      }
      const replies = await chat.handle(peer.userId, type, fields, peer.origin);
      for (let i = 0; i < replies.length; i++) {
        peer.send(replies[i]!);
        // A long resume yields now and then, so the socket drains instead of piling up.
        if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
      }
    },
    hello: async (userId) => ({ chatSeq: await chat.head(userId) }),
  };
}

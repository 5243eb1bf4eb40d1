import type { FastifyBaseLogger } from 'fastify';
import type { ServerMessage } from '../../../../lib/contract/realtime';
import type { AppContext } from '../../context';
import { isDatabaseUnavailable } from '../../db/availability';
import { AppError } from '../../errors';
import { parseChatMessage, parseMassMessage, parseReaction, parseResume, parseUserField, type Problem } from './domain';
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

  async function handle(userId: number, type: string, fields: Record<string, unknown>): Promise<ServerMessage[]> {
    const problem = (parsed: Problem) => [refusal(type, fields, parsed.problem)];
    switch (type) {
      case 'chatMessage': {
        const parsed = parseChatMessage(fields);
        if ('problem' in parsed) return problem(parsed);
        const outcome = await chat.send(userId, parsed.value);
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
    async handle(userId: number, type: string, fields: Record<string, unknown>): Promise<ServerMessage[]> {
      try {
        return await handle(userId, type, fields);
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

import {
  ChatHistory,
  ChatHistoryParams,
  ChatHistoryQuery,
  ConversationIdParams,
  ConversationList,
  ConversationMediaList,
  ConversationMediaQuery,
  ConversationPriceBody,
  ConversationsQuery,
  MassConversationList,
  MassConversationParams,
  MassHistory,
} from '../../../../lib/contract/chat';
import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import type { App } from '../../context';
import { ok, withBody } from '../../http/envelope';
import { viewerOf } from '../auth/guard';
import { chatPageSize } from './domain';
import { createChatService } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';
import { chatSocketFeature } from './socket';

/**
 * The chat's HTTP side (SPEC §7 Chat): conversations, history, prices and archiving. The
 * messages themselves travel over the websocket (docs/realtime.md).
 */
export async function chatFeature(app: App, { ctx, realtime }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  // Its websocket messages (docs/realtime.md).
  realtime.register(chatSocketFeature(ctx));
  const chat = createChatService(ctx);
  const tags = ['chat'];

  api.get(
    '/api/chat/conversations',
    {
      schema: {
        tags,
        summary: `The viewer’s conversations, latest activity first, ${chatPageSize} a page, archived ones hidden unless \`archived\`; \`q\` matches the partner’s username or display name; \`senderId\` answers just the conversation with that person (a fresh one when none exists)`,
        querystring: ConversationsQuery,
        response: { 200: BodyEnvelope(ConversationList) },
      },
    },
    async (request) => withBody({ conversations: await chat.conversations(viewerOf(request).id, request.query) }),
  );

  api.get(
    '/api/chat/conversations/:userId',
    {
      schema: {
        tags,
        summary: `A page of the history with a person, oldest first (${chatPageSize} by default); \`ts\` asks for the messages sent before it. Does not mark anything read (the websocket's chatConvRead does)`,
        params: ChatHistoryParams,
        querystring: ChatHistoryQuery,
        response: { 200: BodyEnvelope(ChatHistory) },
      },
    },
    async (request) => withBody(await chat.history(viewerOf(request).id, request.params.userId, request.query)),
  );

  api.put(
    '/api/chat/conversations/',
    {
      schema: {
        tags,
        summary:
          'A seller prices one person’s messages (a chat-message price step, or null for the usual message price): verify-required (-2) for non-sellers, invalid-price for other amounts',
        body: ConversationPriceBody,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      await chat.setCustomPrice(viewerOf(request).id, request.body);
      return ok;
    },
  );

  api.delete(
    '/api/chat/conversations/:id',
    {
      schema: {
        tags,
        summary: 'Archive the conversation with a person (by their user id): hidden from the list until the next message either way',
        params: ConversationIdParams,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      await chat.archive(viewerOf(request).id, request.params.id);
      return ok;
    },
  );

  api.get(
    '/api/chat/conversations-media/',
    {
      schema: {
        tags,
        summary: `The messages with media exchanged with a person, newest first, ${chatPageSize} a page`,
        querystring: ConversationMediaQuery,
        response: { 200: BodyEnvelope(ConversationMediaList) },
      },
    },
    async (request) => {
      const { receiverId, offset, limit } = request.query;
      return withBody({ messages: await chat.media(viewerOf(request).id, receiverId, { limit: limit ?? chatPageSize, offset: offset ?? 0 }) });
    },
  );

  api.get(
    '/api/chat/mass-conversations',
    {
      schema: {
        tags,
        summary: 'The viewer’s mass-message groups (followers, subscribers, expired-subscribers): how many each holds now and the latest mass message sent to it',
        response: { 200: BodyEnvelope(MassConversationList) },
      },
    },
    async (request) => withBody({ groups: await chat.massConversations(viewerOf(request).id) }),
  );

  api.get(
    '/api/chat/mass-conversations/:id',
    {
      schema: {
        tags,
        summary: `The viewer’s mass messages to one group, oldest first (${chatPageSize} by default); \`ts\` asks for those sent before it`,
        params: MassConversationParams,
        querystring: ChatHistoryQuery,
        response: { 200: BodyEnvelope(MassHistory) },
      },
    },
    async (request) => withBody({ messages: await chat.massHistory(viewerOf(request).id, request.params.id, request.query) }),
  );
}

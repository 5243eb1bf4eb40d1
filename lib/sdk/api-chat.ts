import type {
  ChatHistory,
  ChatHistoryQuery,
  ConversationList,
  ConversationMediaList,
  ConversationsQuery,
  MassConversationList,
  MassGroup,
  MassHistory,
} from '../contract';
import type { FanstageClient } from './client';

/** Calls of the chat's HTTP side (SPEC §7 Chat); messages themselves travel over the websocket. */
export function chatApi(client: FanstageClient) {
  return {
    /** The viewer's conversations, newest activity first; `senderId` asks for one (a fresh one when none exists). */
    conversations: (query: ConversationsQuery, signal?: AbortSignal) =>
      client.get<ConversationList>('/api/chat/conversations', { ...query }, { signal }),
    /** A page of the history with `userId`, oldest first; `ts` asks for messages before that sendDt. */
    history: (userId: number, query: ChatHistoryQuery = {}, signal?: AbortSignal) =>
      client.get<ChatHistory>(`/api/chat/conversations/${userId}`, { ...query }, { signal }),
    /** A seller's price for one fan's conversation (cents, a chat-message step), or null for their usual price. */
    setCustomPrice: (senderId: number, customPrice: number | null) =>
      client.request<undefined>('PUT', '/api/chat/conversations/', { body: { senderId, customPrice } }),
    /** Archives the conversation with `userId` (hidden until the next message). */
    archive: (userId: number) => client.request<undefined>('DELETE', `/api/chat/conversations/${userId}`),
    /** The media exchanged with a person, 30 a page. */
    media: (receiverId: number, query: { offset?: number; limit?: number } = {}, signal?: AbortSignal) =>
      client.get<ConversationMediaList>('/api/chat/conversations-media/', { receiverId, ...query }, { signal }),
    /** A creator's mass-message groups with their latest message. */
    massGroups: (signal?: AbortSignal) => client.get<MassConversationList>('/api/chat/mass-conversations', undefined, { signal }),
    /** The mass messages sent to one group, oldest first; `ts` pages back. */
    massHistory: (group: MassGroup, query: ChatHistoryQuery = {}, signal?: AbortSignal) =>
      client.get<MassHistory>(`/api/chat/mass-conversations/${encodeURIComponent(group)}`, { ...query }, { signal }),
  };
}

export type ChatApi = ReturnType<typeof chatApi>;

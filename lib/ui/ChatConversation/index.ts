export { ChatConversation, ChatConversationView } from './ChatConversation';
export type { ChatConversationProps } from './ChatConversation';
export { useChatConversation } from './useChatConversation';
export type { ChatCallView, ChatConversationState, ChatMessageView, ChatMediaView, ChatReactionView, ChatRowView, UseChatConversationOptions } from './useChatConversation';
export { useChatConnection, RECONNECT_WARNING_MS } from './useChatConnection';
export type { ChatConnectionState } from './useChatConnection';

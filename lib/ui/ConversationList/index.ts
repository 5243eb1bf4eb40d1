export { ConversationList, ConversationListView } from './ConversationList';
export type { ConversationListProps } from './ConversationList';
export { useConversationList, CHAT_SEARCH_DEBOUNCE_MS, ARCHIVED_NOTICE_MS, ARCHIVE_FAILED_MS } from './useConversationList';
export type { ConversationListState, ConversationRow, UseConversationListOptions } from './useConversationList';

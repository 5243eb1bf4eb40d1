export { ChatPriceBadge, ChatPriceBadgeView } from './ChatPriceBadge';
export type { ChatPriceBadgeProps } from './ChatPriceBadge';
export { useChatPriceBadge } from './useChatPriceBadge';
export type { ChatPriceBadgeState } from './useChatPriceBadge';

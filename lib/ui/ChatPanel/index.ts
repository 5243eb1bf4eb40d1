export { ChatPanel } from './ChatPanel';
export type { ChatPanelProps } from './ChatPanel';
export { useChatPartner } from './useChatPanel';
export type { ChatPartnerState } from './useChatPanel';

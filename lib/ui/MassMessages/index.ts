export { MassMessages } from './MassMessages';
export type { MassMessagesProps } from './MassMessages';
export { useMassMessages } from './useMassMessages';
export type { MassMessagesState, MassSendMessage, MassAttachment } from './useMassMessages';

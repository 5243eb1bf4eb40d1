export { ChatComposer, ChatComposerView } from './ChatComposer';
export type { ChatComposerProps } from './ChatComposer';
export { useChatComposer } from './useChatComposer';
export type { ChatComposerState, UseChatComposerOptions, AttachKind } from './useChatComposer';

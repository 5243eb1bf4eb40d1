export { CallWindow, CallWindowView } from './CallWindow';
export type { CallWindowProps } from './CallWindow';
export { useCallWindow } from './useCallWindow';
export type { CallWindowState, CallWindowLine, UseCallWindowOptions } from './useCallWindow';

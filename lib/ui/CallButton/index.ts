export { CallButton, CallButtonView } from './CallButton';
export type { CallButtonProps } from './CallButton';
export { useCallButton } from './useCallButton';
export type { CallButtonState, UseCallButtonOptions } from './useCallButton';

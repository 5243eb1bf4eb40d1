export { SubscribeButton } from './SubscribeButton';
export type { SubscribeButtonProps } from './SubscribeButton';
export { useSubscribeButton } from './useSubscribeButton';
export type { SubscribeButtonState, UseSubscribeButtonOptions } from './useSubscribeButton';

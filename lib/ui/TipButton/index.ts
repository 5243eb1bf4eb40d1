export { TipButton, TipButtonView } from './TipButton';
export type { TipButtonProps } from './TipButton';
export { useTipButton, TIP_SENT_MS } from './useTipButton';
export type { TipButtonState, UseTipButtonOptions, TipView } from './useTipButton';

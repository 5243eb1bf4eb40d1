export { UnlockMediaPopup } from './UnlockMediaPopup';
export type { UnlockMediaPopupProps } from './UnlockMediaPopup';
export { useUnlockMedia, UNLOCK_DELAY_MS, GONE_WARNING_MS } from './useUnlockMedia';
export type { UseUnlockMediaOptions, UnlockPhase, UnlockSource } from './useUnlockMedia';

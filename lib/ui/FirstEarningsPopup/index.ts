export { FirstEarningsPopup, FirstEarningsPopupView } from './FirstEarningsPopup';
export { useFirstEarningsPopup } from './useFirstEarningsPopup';
export type { FirstEarningsPopupState } from './useFirstEarningsPopup';

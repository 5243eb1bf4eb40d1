export { GiftPicker } from './GiftPicker';
export type { GiftPickerProps } from './GiftPicker';
export { useGifts } from './useGifts';
export type { GiftsState } from './useGifts';
export { giftName } from './giftName';

export { OfferSettings } from './OfferSettings';
export type { OfferSettingsProps } from './OfferSettings';
export { useOfferSettings } from './useOfferSettings';
export type { OfferSettingsState, OfferMessage } from './useOfferSettings';

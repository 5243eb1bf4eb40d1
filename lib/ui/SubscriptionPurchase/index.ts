export { SubscriptionPurchase } from './SubscriptionPurchase';
export type { SubscriptionPurchaseProps, RenderTopUp } from './SubscriptionPurchase';
export { useSubscriptionPurchase } from './useSubscriptionPurchase';
export type { UseSubscriptionPurchaseOptions, OfferView, PayWith as SubscriptionPayWith, PurchaseMessage } from './useSubscriptionPurchase';
export { standingOf, holdsSubscription, heldOffer } from './rules';
export type { OfferStanding } from './rules';
export { TopUpDialog, renderTopUpDialog } from './TopUpDialog';
export type { TopUpDialogProps } from './TopUpDialog';

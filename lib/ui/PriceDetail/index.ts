export { PriceDetail } from './PriceDetail';
export type { PriceDetailProps } from './PriceDetail';
export { usePriceDetail, priceBreakdown } from './usePriceDetail';
export type { PriceBreakdown } from './usePriceDetail';
export { exactDollars } from './money';

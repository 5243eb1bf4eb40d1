export { PriceSelector } from './PriceSelector';
export type { PriceSelectorProps } from './PriceSelector';
export { usePriceSelector } from './usePriceSelector';
export type { UsePriceSelectorOptions } from './usePriceSelector';

export { MediaEarnings, formatEarned } from './MediaEarnings';
export type { MediaEarningsProps } from './MediaEarnings';

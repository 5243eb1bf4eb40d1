export { BalanceBadge, EarningsBadge } from './Badges';
export type { BalanceBadgeProps, EarningsBadgeProps } from './Badges';

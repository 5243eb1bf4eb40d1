export { EarningsWidget, EarningsWidgetView } from './EarningsWidget';
export type { EarningsWidgetProps } from './EarningsWidget';
export { useEarningsWidget, EARNINGS_HIGHLIGHT_MS } from './useEarningsWidget';
export type { EarningsWidgetState } from './useEarningsWidget';

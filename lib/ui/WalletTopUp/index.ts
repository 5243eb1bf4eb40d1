export { WalletTopUp, WalletTopUpView } from './WalletTopUp';
export type { WalletTopUpProps } from './WalletTopUp';
export { useWalletTopUp } from './useWalletTopUp';
export type { UseWalletTopUpOptions, WalletTopUpState, PayWith } from './useWalletTopUp';
export { formatMoney, cardLabel } from '../shared/money';

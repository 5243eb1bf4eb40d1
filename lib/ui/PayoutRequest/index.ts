export { PayoutRequest } from './PayoutRequest';
export type { PayoutRequestProps } from './PayoutRequest';
export { usePayoutRequest, parseDollars } from './usePayoutRequest';
export type { PayoutRequestState, PayoutMessage } from './usePayoutRequest';

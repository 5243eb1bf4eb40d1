export { IncomingCall, IncomingCallView } from './IncomingCall';
export type { IncomingCallProps } from './IncomingCall';
export { useIncomingCall, RING_EVERY_MS } from './useIncomingCall';
export type { IncomingCallState, UseIncomingCallOptions } from './useIncomingCall';

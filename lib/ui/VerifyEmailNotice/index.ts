export { VerifyEmailNotice, VerifyEmailNoticeView } from './VerifyEmailNotice';
export type { VerifyEmailNoticeProps, VerifyEmailNoticeViewProps } from './VerifyEmailNotice';
export { useVerifyEmailNotice } from './useVerifyEmailNotice';
export type { VerifyEmailNoticeState } from './useVerifyEmailNotice';

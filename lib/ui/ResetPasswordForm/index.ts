export { ResetPasswordForm, ResetPasswordFormView } from './ResetPasswordForm';
export type { ResetPasswordFormProps, ResetPasswordFormViewProps } from './ResetPasswordForm';
export { useResetPasswordForm } from './useResetPasswordForm';
export type { ResetPasswordFormState, UseResetPasswordFormOptions } from './useResetPasswordForm';

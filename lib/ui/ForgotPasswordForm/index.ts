export { ForgotPasswordForm, ForgotPasswordFormView } from './ForgotPasswordForm';
export type { ForgotPasswordFormProps, ForgotPasswordFormViewProps } from './ForgotPasswordForm';
export { useForgotPasswordForm } from './useForgotPasswordForm';
export type { ForgotPasswordFormState } from './useForgotPasswordForm';

export { LoginForm, LoginFormView } from './LoginForm';
export type { LoginFormProps, LoginFormViewProps } from './LoginForm';
export { useLoginForm } from './useLoginForm';
export type { LoginFormState, UseLoginFormOptions } from './useLoginForm';

export { LoginForm, LoginFormView } from './LoginForm';
export type { LoginFormProps, LoginFormViewProps } from './LoginForm';
export { useLoginForm } from './useLoginForm';
export { ExternalSignIn, useExternalSignIn } from './ExternalSignIn';
export type { ExternalSignInLink } from './ExternalSignIn';
export type { LoginFormState, UseLoginFormOptions } from './useLoginForm';

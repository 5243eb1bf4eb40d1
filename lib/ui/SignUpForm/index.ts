export { SignUpForm, SignUpFormView } from './SignUpForm';
export type { SignUpFormProps, SignUpFormViewProps } from './SignUpForm';
export { useSignUpForm } from './useSignUpForm';
export type { SignUpFormState, UseSignUpFormOptions } from './useSignUpForm';

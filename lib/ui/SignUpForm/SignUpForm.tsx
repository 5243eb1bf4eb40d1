import { useTranslation } from 'react-i18next';
import { ExternalSignIn, useExternalSignIn, type ExternalSignInLink } from '../LoginForm/ExternalSignIn';
import { CheckboxField, FormAlert, FormShell, SubmitButton, TextField } from '../shared/formParts';
import { useSignUpForm, type SignUpFormState, type UseSignUpFormOptions } from './useSignUpForm';
import styles from './SignUpForm.module.css';

interface ViewOptions {
  headingLevel?: 1 | 2 | 3;
  autoFocus?: boolean;
  className?: string;
  lang?: string;
  /** "Continue with …" links under the form (the platform's external sign-in providers). */
  externalSignIn?: readonly ExternalSignInLink[];
}

export type SignUpFormViewProps = SignUpFormState & ViewOptions;
export type SignUpFormProps = UseSignUpFormOptions & ViewOptions;

/** Creates an account and logs in with it, through the nearest FanstageProvider's session. */
export function SignUpForm({ onSuccess, noMail, ...view }: SignUpFormProps) {
  const state = useSignUpForm({ ...(onSuccess ? { onSuccess } : {}), ...(noMail ? { noMail } : {}) });
  const { i18n } = useTranslation();
  const externalSignIn = useExternalSignIn();
  return <SignUpFormView lang={i18n.resolvedLanguage ?? i18n.language} externalSignIn={externalSignIn} {...state} {...view} />;
}

export function SignUpFormView(props: SignUpFormViewProps) {
  const { password } = props;
  return (
    <FormShell
      title={props.title}
      headingLevel={props.headingLevel}
      onSubmit={props.onSubmit}
      busy={props.busy}
      className={[styles.signup, props.className].filter(Boolean).join(' ')}
      lang={props.lang}
      describedBy={props.alert ? props.alertId : undefined}
    >
      <TextField type="email" autoComplete="email" autoFocus={props.autoFocus} {...props.email} />
      <TextField
        type="password"
        autoComplete="new-password"
        label={password.label}
        value={password.value}
        onChange={password.onChange}
        error={password.error}
        hint={password.hint}
        toggle={{ show: password.show, hide: password.hide }}
      />
      <CheckboxField {...props.agree} />
      <FormAlert id={props.alertId} message={props.alert} />
      <SubmitButton label={props.submitLabel} busyLabel={props.busyLabel} busy={props.busy} />
      <ExternalSignIn links={props.externalSignIn} />
    </FormShell>
  );
}

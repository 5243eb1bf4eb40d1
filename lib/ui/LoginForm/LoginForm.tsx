import { useTranslation } from 'react-i18next';
import { ExternalSignIn, useExternalSignIn, type ExternalSignInLink } from './ExternalSignIn';
import { FormAlert, FormShell, LinkButton, SubmitButton, TextField } from '../shared/formParts';
import { useLoginForm, type LoginFormState, type UseLoginFormOptions } from './useLoginForm';
import styles from './LoginForm.module.css';

interface ViewOptions {
  /** Heading level of the title: 2 by default, 1 on a page of its own. */
  headingLevel?: 1 | 2 | 3;
  /** Shows a "forgot your password?" link that calls this. */
  onForgotPassword?: () => void;
  /** Focuses the e-mail field at once, e.g. when the form opens in a prompt. */
  autoFocus?: boolean;
  className?: string;
  lang?: string;
  /** "Continue with …" links under the form (the platform's external sign-in providers). */
  externalSignIn?: readonly ExternalSignInLink[];
  /** A message shown in the form's alert until the form has one of its own (e.g. why an external sign-in failed). */
  notice?: string | null;
}

export type LoginFormViewProps = LoginFormState & ViewOptions;
export type LoginFormProps = UseLoginFormOptions & ViewOptions;

/** E-mail and password login through the nearest FanstageProvider's session. */
export function LoginForm({ onSuccess, ...view }: LoginFormProps) {
  const state = useLoginForm(onSuccess ? { onSuccess } : {});
  const { i18n } = useTranslation();
  const externalSignIn = useExternalSignIn();
  return <LoginFormView lang={i18n.resolvedLanguage ?? i18n.language} externalSignIn={externalSignIn} {...state} {...view} />;
}

export function LoginFormView(props: LoginFormViewProps) {
  return (
    <FormShell
      title={props.title}
      headingLevel={props.headingLevel}
      onSubmit={props.onSubmit}
      busy={props.busy}
      className={[styles.login, props.className].filter(Boolean).join(' ')}
      lang={props.lang}
      describedBy={props.alert || props.notice ? props.alertId : undefined}
    >
      <TextField type="email" autoComplete="email" autoFocus={props.autoFocus} {...props.email} />
      <TextField
        type="password"
        autoComplete="current-password"
        label={props.password.label}
        value={props.password.value}
        onChange={props.password.onChange}
        error={props.password.error}
        toggle={{ show: props.password.show, hide: props.password.hide }}
      />
      <FormAlert id={props.alertId} message={props.alert ?? props.notice ?? null} />
      <SubmitButton label={props.submitLabel} busyLabel={props.busyLabel} busy={props.busy} />
      {props.onForgotPassword ? <LinkButton label={props.forgotLabel} onClick={props.onForgotPassword} /> : null}
      <ExternalSignIn links={props.externalSignIn} />
    </FormShell>
  );
}

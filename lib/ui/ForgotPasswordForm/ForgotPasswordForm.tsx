import { useTranslation } from 'react-i18next';
import { FormAlert, FormShell, FormSuccess, SubmitButton, TextField } from '../shared/formParts';
import { useForgotPasswordForm, type ForgotPasswordFormState } from './useForgotPasswordForm';
import styles from './ForgotPasswordForm.module.css';

interface ViewOptions {
  headingLevel?: 1 | 2 | 3;
  autoFocus?: boolean;
  className?: string;
  lang?: string;
}

export type ForgotPasswordFormViewProps = ForgotPasswordFormState & ViewOptions;
export type ForgotPasswordFormProps = ViewOptions;

/** Asks for a link to set a new password. */
export function ForgotPasswordForm(view: ForgotPasswordFormProps) {
  const state = useForgotPasswordForm();
  const { i18n } = useTranslation();
  return <ForgotPasswordFormView lang={i18n.resolvedLanguage ?? i18n.language} {...state} {...view} />;
}

export function ForgotPasswordFormView(props: ForgotPasswordFormViewProps) {
  return (
    <FormShell
      title={props.title}
      text={props.text}
      headingLevel={props.headingLevel}
      onSubmit={props.onSubmit}
      busy={props.busy}
      className={[styles.forgot, props.className].filter(Boolean).join(' ')}
      lang={props.lang}
      describedBy={props.alert ? props.alertId : undefined}
    >
      <TextField type="email" autoComplete="email" autoFocus={props.autoFocus} {...props.email} />
      <FormAlert id={props.alertId} message={props.alert} />
      <FormSuccess message={props.sent} />
      <SubmitButton label={props.submitLabel} busyLabel={props.busyLabel} busy={props.busy} />
    </FormShell>
  );
}

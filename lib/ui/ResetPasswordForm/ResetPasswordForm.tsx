import { useTranslation } from 'react-i18next';
import { FormAlert, FormShell, FormSuccess, SubmitButton, TextField } from '../shared/formParts';
import { useResetPasswordForm, type ResetPasswordFormState, type UseResetPasswordFormOptions } from './useResetPasswordForm';
import styles from './ResetPasswordForm.module.css';

interface ViewOptions {
  headingLevel?: 1 | 2 | 3;
  autoFocus?: boolean;
  className?: string;
  lang?: string;
}

export type ResetPasswordFormViewProps = ResetPasswordFormState & ViewOptions;
export type ResetPasswordFormProps = UseResetPasswordFormOptions & ViewOptions;

/** Sets a new password with the hash of a mailed reset link. */
export function ResetPasswordForm({ hash, onSuccess, ...view }: ResetPasswordFormProps) {
  const state = useResetPasswordForm({ hash, ...(onSuccess ? { onSuccess } : {}) });
  const { i18n } = useTranslation();
  return <ResetPasswordFormView lang={i18n.resolvedLanguage ?? i18n.language} {...state} {...view} />;
}

export function ResetPasswordFormView(props: ResetPasswordFormViewProps) {
  const { password } = props;
  return (
    <FormShell
      title={props.title}
      headingLevel={props.headingLevel}
      onSubmit={props.onSubmit}
      busy={props.busy}
      className={[styles.reset, props.className].filter(Boolean).join(' ')}
      lang={props.lang}
      describedBy={props.alert ? props.alertId : undefined}
    >
      <TextField
        type="password"
        autoComplete="new-password"
        autoFocus={props.autoFocus}
        label={password.label}
        value={password.value}
        onChange={password.onChange}
        error={password.error}
        hint={password.hint}
        toggle={{ show: password.show, hide: password.hide }}
      />
      <FormAlert id={props.alertId} message={props.alert} />
      <FormSuccess message={props.done} />
      {props.done ? null : <SubmitButton label={props.submitLabel} busyLabel={props.busyLabel} busy={props.busy} />}
    </FormShell>
  );
}

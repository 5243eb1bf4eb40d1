import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { FormAlert, FormShell, FormSuccess, SubmitButton, formStyles, type Message } from '../shared/formParts';
import { useEditProfileForm, type EditProfileField, type EditProfileFormState, type SelectOption, type UseEditProfileFormOptions } from './useEditProfileForm';
import styles from './EditProfileForm.module.css';

interface ViewOptions {
  className?: string;
  lang?: string;
  /** Heading level of the title: 2 by default, 1 on a page of its own. */
  headingLevel?: 1 | 2 | 3;
  autoFocus?: boolean;
  /**
   * Whether the form offers the account's language (default yes). A site whose own language
   * picker already sets the account's language leaves it out, so the page has one such control.
   */
  languageField?: boolean;
}

export type EditProfileFormViewProps = EditProfileFormState & ViewOptions;
export type EditProfileFormProps = UseEditProfileFormOptions & ViewOptions;

/** The logged-in user's profile editor, through the nearest FanstageProvider. */
export function EditProfileForm({ onSuccess, ...view }: EditProfileFormProps) {
  const state = useEditProfileForm(onSuccess ? { onSuccess } : {});
  const { i18n } = useTranslation();
  return <EditProfileFormView lang={i18n.resolvedLanguage ?? i18n.language} {...state} {...view} />;
}

export function EditProfileFormView(props: EditProfileFormViewProps) {
  const { t } = useTranslation();
  const alertId = useId();
  const { values, errors, onChange } = props;
  if (props.loading) {
    return (
      <p className={['fs-root', styles.loading, props.className].filter(Boolean).join(' ')} role="status" lang={props.lang}>
        {t('profileEdit.loading')}
      </p>
    );
  }
  const text = (field: EditProfileField, label: string, autoComplete: string, extra: Partial<FieldProps> = {}) => (
    <Field label={label} error={errors[field] ?? null} {...extra}>
      {(ids) => (
        <input
          {...ids}
          className={formStyles.input}
          type={field === 'birthday' ? 'date' : 'text'}
          value={values[field]}
          onChange={(event) => onChange(field, event.target.value)}
          autoComplete={autoComplete}
          spellCheck={field === 'username' ? false : undefined}
          autoCapitalize={field === 'username' ? 'none' : undefined}
          required={field === 'displayName' || field === 'username'}
          autoFocus={field === 'displayName' ? props.autoFocus : undefined}
        />
      )}
    </Field>
  );
  const select = (field: EditProfileField, label: string, options: SelectOption[], placeholder?: string, hint?: string) => (
    <Field label={label} error={errors[field] ?? null} {...(hint ? { hint } : {})}>
      {(ids) => (
        <select {...ids} className={formStyles.input} value={values[field]} onChange={(event) => onChange(field, event.target.value)}>
          {placeholder !== undefined && !values[field] ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  return (
    <FormShell
      title={t('profileEdit.title')}
      headingLevel={props.headingLevel}
      onSubmit={props.onSubmit}
      busy={props.busy}
      className={[styles.root, props.className].filter(Boolean).join(' ')}
      lang={props.lang}
      describedBy={props.alert ? alertId : undefined}
    >
      {text('displayName', t('profileEdit.displayName'), 'nickname')}
      {text('username', t('profileEdit.username'), 'username', props.usernameHint ? { hint: props.usernameHint } : {})}
      <Field label={t('profileEdit.bio')} error={errors.bio ?? null} hint={t('profileEdit.bioHint')}>
        {(ids) => (
          <textarea
            {...ids}
            className={[formStyles.input, styles.bio].join(' ')}
            value={values.bio}
            maxLength={1000}
            rows={4}
            onChange={(event) => onChange('bio', event.target.value)}
          />
        )}
      </Field>
      {select('gender', t('profileEdit.gender'), props.options.gender)}
      {select('sexuality', t('profileEdit.sexuality'), props.options.sexuality, t('profileEdit.notSet'))}
      {text('birthday', t('profileEdit.birthday'), 'bday', { hint: t('profileEdit.birthdayHint') })}
      {props.languageField === false ? null : select('appLanguage', t('profileEdit.appLanguage'), props.options.appLanguage)}
      {props.showPrices ? (
        <fieldset className={styles.prices}>
          <legend className={formStyles.label}>{t('profileEdit.prices')}</legend>
          {select('messagePrice', t('profileEdit.messagePrice'), props.options.messagePrice, undefined, props.priceHints.messagePrice)}
          {select('callPrice', t('profileEdit.callPrice'), props.options.callPrice, undefined, props.priceHints.callPrice)}
        </fieldset>
      ) : null}
      {props.warning ? (
        <p className={styles.warning} role="alert">
          {props.warning}
        </p>
      ) : null}
      <FormAlert id={alertId} message={props.alert} />
      <FormSuccess message={props.saved} />
      <SubmitButton label={t('profileEdit.done')} busyLabel={t('profileEdit.busy')} busy={props.busy} />
    </FormShell>
  );
}

interface FieldProps {
  label: string;
  error: Message;
  hint?: string;
  children: (ids: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}

function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor={id}>
        {label}
      </label>
      {children({ id, ...(error ? { 'aria-invalid': true as const } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {error ? (
        <p id={errorId} className={formStyles.fieldError}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className={formStyles.hint} aria-live="polite">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

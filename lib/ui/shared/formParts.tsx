import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import '../theme/tokens.css';
import type { Message } from './errorMessage';
import styles from './formParts.module.css';

/** The account forms' shared markup: fields with their labels, hints and errors, alerts, submit. */

export { errorMessage, type Message } from './errorMessage';

/** After a refused submit, moves focus to the first field that needs attention once it is marked. */
export function focusFirstInvalid(form: HTMLFormElement): void {
  setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(t: TFunction, value: string): Message {
  if (!value.trim()) return t('auth.required');
  return emailPattern.test(value.trim()) ? null : t('auth.emailInvalid');
}

export function validateNewPassword(t: TFunction, value: string): Message {
  if (!value) return t('auth.required');
  return value.length < 8 ? t('auth.passwordShort') : null;
}

export interface FormShellProps {
  title: string;
  /** Heading level of the title: 2 by default, 1 on a page of its own. */
  headingLevel?: 1 | 2 | 3;
  text?: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  busy: boolean;
  className?: string;
  lang?: string;
  /** Id of the form's alert while it shows, so the form is described by it. */
  describedBy?: string | undefined;
  children: ReactNode;
}

/** The form, its heading and its busy state; `noValidate` because the hook validates and explains. */
export function FormShell({ title, headingLevel = 2, text, onSubmit, busy, className, lang, describedBy, children }: FormShellProps) {
  const titleId = useId();
  const Heading = `h${headingLevel}` as 'h2';
  return (
    <div className={['fs-root', styles.root, className].filter(Boolean).join(' ')} lang={lang}>
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-labelledby={titleId} aria-describedby={describedBy} aria-busy={busy}>
        <Heading id={titleId} className={styles.title}>
          {title}
        </Heading>
        {text ? <p className={styles.text}>{text}</p> : null}
        {children}
      </form>
    </div>
  );
}

export interface TextFieldProps {
  label: string;
  type: 'email' | 'text' | 'password';
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  error?: Message;
  hint?: string;
  required?: boolean;
  /** Adds a show/hide button to a password field, with these two labels. */
  toggle?: { show: string; hide: string };
  autoFocus?: boolean;
}

export function TextField({ label, type, value, onChange, autoComplete, error, hint, required = true, toggle, autoFocus }: TextFieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const inputType = type === 'password' && visible ? 'text' : type;
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <div className={styles.control}>
        <input
          id={id}
          className={[styles.input, toggle ? styles.withToggle : ''].filter(Boolean).join(' ')}
          type={inputType}
          name={autoComplete === 'email' ? 'email' : type === 'password' ? 'password' : undefined}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoComplete={autoComplete}
          autoCapitalize={type === 'text' ? undefined : 'none'}
          spellCheck={false}
          inputMode={type === 'email' ? 'email' : undefined}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          autoFocus={autoFocus}
        />
        {toggle ? (
          <button type="button" className={styles.toggle} aria-pressed={visible} aria-controls={id} onClick={() => setVisible((v) => !v)}>
            {visible ? toggle.hide : toggle.show}
          </button>
        ) : null}
      </div>
      {error ? (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export interface CheckboxFieldProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: Message;
}

export function CheckboxField({ label, checked, onChange, error }: CheckboxFieldProps) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={styles.field}>
      <div className={styles.checkRow}>
        <input
          id={id}
          className={styles.check}
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {error ? (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A failure of the whole form, announced as soon as it appears. */
export function FormAlert({ id, message }: { id?: string; message: Message }) {
  return message ? (
    <p id={id} className={styles.alert} role="alert">
      {message}
    </p>
  ) : null;
}

/** A success, announced politely. */
export function FormSuccess({ message }: { message: Message }) {
  return (
    <div role="status" aria-live="polite">
      {message ? <p className={styles.success}>{message}</p> : null}
    </div>
  );
}

/** Stays focusable while busy (aria-disabled, not disabled), so keyboard focus is not lost. */
export function SubmitButton({ label, busyLabel, busy }: { label: string; busyLabel: string; busy: boolean }) {
  return (
    <button type="submit" className={styles.submit} aria-disabled={busy || undefined}>
      {busy ? busyLabel : label}
    </button>
  );
}

export function LinkButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className={styles.link} onClick={onClick}>
      {label}
    </button>
  );
}

export { styles as formStyles };

import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SignupStatus } from '../../contract/constants';
import { isSdkError } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import { errorMessage, focusFirstInvalid, validateEmail, validateNewPassword, type Message } from '../shared/formParts';

export interface UseSignUpFormOptions {
  /** Called once the account exists and the user is logged in with it. */
  onSuccess?: () => void;
  /** Sent with the sign-up: no marketing mail, when an affiliate partner is present (SPEC §3). */
  noMail?: boolean;
}

interface Field {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: Message;
}

export interface SignUpFormState {
  title: string;
  email: Field;
  password: Field & { hint: string; show: string; hide: string };
  agree: { label: string; checked: boolean; onChange: (checked: boolean) => void; error: Message };
  alert: Message;
  alertId: string;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

/** Sign-up with the age-and-terms agreement; the session logs in with the new account at once. */
export function useSignUpForm(options: UseSignUpFormOptions = {}): SignUpFormState {
  const fanstage = useFanstage();
  const { t, i18n } = useTranslation();
  const alertId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  // A taken e-mail is the e-mail field's problem, so it is shown and announced there.
  const emailTaken = isSdkError(failure) && failure.statusCode === SignupStatus.emailTaken;
  const emailError = (submitted ? validateEmail(t, email) : null) ?? (emailTaken ? t('auth.signup.emailTaken') : null);
  const passwordError = submitted ? validateNewPassword(t, password) : null;
  const agreeError = submitted && !agreed ? t('auth.signup.agreeRequired') : null;

  let alert: Message = null;
  if (failure && !emailTaken) {
    alert = isSdkError(failure) && failure.statusCode === SignupStatus.usernameTaken ? t('auth.signup.usernameTaken') : errorMessage(t, failure);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // React clears currentTarget once the handler returns; the answer comes later.
    const form = event.currentTarget;
    if (busy) return;
    setSubmitted(true);
    if (validateEmail(t, email) || validateNewPassword(t, password) || !agreed) {
      focusFirstInvalid(form);
      return;
    }
    setBusy(true);
    setFailure(null);
    const language = i18n.resolvedLanguage ?? i18n.language;
    fanstage.session
      .signup({ email: email.trim(), password, ...(options.noMail ? { noMail: true } : {}), ...(language ? { language } : {}) })
      .then(() => options.onSuccess?.())
      .catch((error: unknown) => {
        setFailure(error);
        if (isSdkError(error) && error.statusCode === SignupStatus.emailTaken) focusFirstInvalid(form);
      })
      .finally(() => setBusy(false));
  }

  return {
    title: t('auth.signup.title'),
    email: {
      label: t('auth.email'),
      value: email,
      onChange: (value) => {
        setEmail(value);
        if (emailTaken) setFailure(null);
      },
      error: emailError,
    },
    password: {
      label: t('auth.password'),
      value: password,
      onChange: setPassword,
      error: passwordError,
      hint: t('auth.passwordHint'),
      show: t('auth.showPassword'),
      hide: t('auth.hidePassword'),
    },
    agree: { label: t('auth.signup.agree'), checked: agreed, onChange: setAgreed, error: agreeError },
    alert,
    alertId,
    busy,
    submitLabel: t('auth.signup.submit'),
    busyLabel: t('auth.signup.busy'),
    onSubmit,
  };
}

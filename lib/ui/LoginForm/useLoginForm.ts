import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../FanstageProvider/context';
import { errorMessage, focusFirstInvalid, validateEmail, type Message } from '../shared/formParts';

export interface UseLoginFormOptions {
  /** Called once the user is logged in, e.g. to close the login prompt. */
  onSuccess?: () => void;
}

export interface LoginFormState {
  title: string;
  email: { label: string; value: string; onChange: (value: string) => void; error: Message };
  password: { label: string; value: string; onChange: (value: string) => void; error: Message; show: string; hide: string };
  /** The server's answer when logging in failed (SPEC §5: a -1 answer warns with its message). */
  alert: Message;
  alertId: string;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  forgotLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

/** The login form's state and texts; the session store does the logging in. */
export function useLoginForm(options: UseLoginFormOptions = {}): LoginFormState {
  const { session } = useFanstage();
  const { t } = useTranslation();
  const alertId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  // Fields are judged only after a first submit: errors while typing the first letters only nag.
  const emailError = submitted ? validateEmail(t, email) : null;
  const passwordError = submitted && !password ? t('auth.required') : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    if (validateEmail(t, email) || !password) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setBusy(true);
    setFailure(null);
    session
      .login(email.trim(), password)
      .then(() => options.onSuccess?.())
      .catch((error: unknown) => setFailure(error))
      .finally(() => setBusy(false));
  }

  return {
    title: t('auth.login.title'),
    email: { label: t('auth.email'), value: email, onChange: setEmail, error: emailError },
    password: { label: t('auth.password'), value: password, onChange: setPassword, error: passwordError, show: t('auth.showPassword'), hide: t('auth.hidePassword') },
    alert: failure ? errorMessage(t, failure) : null,
    alertId,
    busy,
    submitLabel: t('auth.login.submit'),
    busyLabel: t('auth.login.busy'),
    forgotLabel: t('auth.login.forgot'),
    onSubmit,
  };
}

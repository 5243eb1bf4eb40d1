import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../FanstageProvider/context';
import { errorMessage, focusFirstInvalid, validateNewPassword, type Message } from '../shared/formParts';

export interface UseResetPasswordFormOptions {
  /** The hash of the mailed `/reset-password/{hash}` link. */
  hash: string;
  /** Called once the new password is saved, e.g. to show the login form. */
  onSuccess?: () => void;
}

export interface ResetPasswordFormState {
  title: string;
  password: { label: string; value: string; onChange: (value: string) => void; error: Message; hint: string; show: string; hide: string };
  done: Message;
  alert: Message;
  alertId: string;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

/** Sets a new password with the hash from the reset mail. */
export function useResetPasswordForm({ hash, onSuccess }: UseResetPasswordFormOptions): ResetPasswordFormState {
  const { account } = useFanstage();
  const { t } = useTranslation();
  const alertId = useId();
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || done) return;
    setSubmitted(true);
    if (validateNewPassword(t, password)) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setBusy(true);
    setFailure(null);
    account
      .resetPassword(hash, password)
      .then(() => {
        setDone(true);
        setPassword('');
        onSuccess?.();
      })
      .catch((error: unknown) => setFailure(error))
      .finally(() => setBusy(false));
  }

  return {
    title: t('auth.reset.title'),
    password: {
      label: t('auth.newPassword'),
      value: password,
      onChange: setPassword,
      error: submitted && !done ? validateNewPassword(t, password) : null,
      hint: t('auth.passwordHint'),
      show: t('auth.showPassword'),
      hide: t('auth.hidePassword'),
    },
    done: done ? t('auth.reset.done') : null,
    alert: failure ? errorMessage(t, failure) : null,
    alertId,
    busy,
    submitLabel: t('auth.reset.submit'),
    busyLabel: t('auth.reset.busy'),
    onSubmit,
  };
}

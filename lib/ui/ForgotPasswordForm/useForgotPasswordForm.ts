import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../FanstageProvider/context';
import { errorMessage, focusFirstInvalid, validateEmail, type Message } from '../shared/formParts';

export interface ForgotPasswordFormState {
  title: string;
  text: string;
  email: { label: string; value: string; onChange: (value: string) => void; error: Message };
  /** "Check your inbox": shown whether or not the address has an account, so it reveals none. */
  sent: Message;
  alert: Message;
  alertId: string;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

/** Asks for a password-reset mail. */
export function useForgotPasswordForm(): ForgotPasswordFormState {
  const { account } = useFanstage();
  const { t } = useTranslation();
  const alertId = useId();
  const [email, setEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    if (validateEmail(t, email)) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    const address = email.trim();
    setBusy(true);
    setFailure(null);
    setSentTo(null);
    account
      .requestPasswordReset(address)
      .then(() => setSentTo(address))
      .catch((error: unknown) => setFailure(error))
      .finally(() => setBusy(false));
  }

  return {
    title: t('auth.forgot.title'),
    text: t('auth.forgot.text'),
    email: { label: t('auth.email'), value: email, onChange: setEmail, error: submitted ? validateEmail(t, email) : null },
    sent: sentTo ? t('auth.forgot.sent', { email: sentTo }) : null,
    alert: failure ? errorMessage(t, failure) : null,
    alertId,
    busy,
    submitLabel: t('auth.forgot.submit'),
    busyLabel: t('auth.forgot.busy'),
    onSubmit,
  };
}

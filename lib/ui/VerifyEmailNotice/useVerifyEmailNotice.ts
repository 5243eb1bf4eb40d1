import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../FanstageProvider/context';
import { errorMessage, type Message } from '../shared/errorMessage';

export interface VerifyEmailNoticeState {
  /** True once the account is known to be verified: nothing left to ask. */
  verified: boolean;
  title: string;
  text: string;
  resendLabel: string;
  /** The one resend is used up (or on its way): the button stays disabled. */
  resendDisabled: boolean;
  busy: boolean;
  sent: Message;
  alert: Message;
  onResend: () => void;
}

/** Asks the user to open the verification mail, with one resend (SPEC §5). */
export function useVerifyEmailNotice(): VerifyEmailNoticeState {
  useSignals();
  const { session, account: accountApi } = useFanstage();
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [failure, setFailure] = useState<unknown>(null);
  const account = session.account.value;

  function onResend() {
    if (state !== 'idle') return;
    setState('sending');
    setFailure(null);
    accountApi
      .resendVerification()
      .then(() => setState('sent'))
      .catch((error: unknown) => {
        // A resend that did not go out was not used: it may be tried again.
        setFailure(error);
        setState('idle');
      });
  }

  return {
    verified: account?.emailVerified === true,
    title: t('auth.verify.title'),
    text: account?.email ? t('auth.verify.text', { email: account.email }) : t('auth.verify.textNoEmail'),
    resendLabel: state === 'sending' ? t('auth.verify.busy') : t('auth.verify.resend'),
    resendDisabled: state !== 'idle',
    busy: state === 'sending',
    sent: state === 'sent' ? t('errors.resent_email_verify') : null,
    alert: failure ? errorMessage(t, failure) : null,
    onResend,
  };
}

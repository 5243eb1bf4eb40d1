import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMBED_CODE_MESSAGE, isSdkError, requestEmbedCode, type EmbedCodeMessage } from '../../lib/sdk';
import { LoginForm, useFanstage } from '../../lib/ui';

type Step = 'checking' | 'login' | 'sending' | 'sent' | 'forbidden' | 'failed' | 'bad-origin' | 'no-opener';

/** The opener's origin from `?origin=`, only when it is an origin exactly (no path, no query). */
export function openerOriginOf(search: string): string | null {
  const value = new URLSearchParams(search).get('origin');
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.origin === value ? value : null;
  } catch {
    return null;
  }
}

export interface EmbedLoginProps {
  /** `location.search` of the popup. */
  search: string;
  /** The widget's window, which receives the code. */
  opener: Pick<Window, 'postMessage'> | null;
  /** Called once the code is on its way: closes the popup. */
  onDone: () => void;
}

/**
 * Signs the fan in on the platform and hands the widget's page a one-time code. The code is
 * posted to the origin named in the address, and to that origin only: if the opener is now a
 * different page, the browser drops the message. The server issues codes only for origins a
 * creator listed, so a page nobody allowed gets a clear refusal and nothing is sent.
 */
export function EmbedLogin({ search, opener, onDone }: EmbedLoginProps) {
  const { session, client } = useFanstage();
  const { t } = useTranslation();
  const origin = openerOriginOf(search);
  const [step, setStep] = useState<Step>(() => (origin === null ? 'bad-origin' : opener === null ? 'no-opener' : 'checking'));
  const sending = useRef(false);

  const sendCode = useCallback(async () => {
    if (origin === null || opener === null || sending.current) return;
    sending.current = true;
    setStep('sending');
    try {
      const { code } = await requestEmbedCode(client, origin);
      const message: EmbedCodeMessage = { type: EMBED_CODE_MESSAGE, code };
      // Never '*': the code is for the page on this origin alone.
      opener.postMessage(message, origin);
      setStep('sent');
      onDone();
    } catch (error) {
      setStep(isSdkError(error) && error.code === 'forbidden' ? 'forbidden' : 'failed');
    } finally {
      sending.current = false;
    }
  }, [client, onDone, opener, origin]);

  useEffect(() => {
    if (step !== 'checking') return;
    let live = true;
    void session.restore().then((resumed) => {
      if (!live) return;
      if (resumed) void sendCode();
      else setStep('login');
    });
    return () => {
      live = false;
    };
  }, [session, sendCode, step]);

  const host = origin ?? '';
  return (
    <main className="fs-root embed-login">
      <h1 className="embed-login__title">{t('embedLogin.title')}</h1>
      {origin !== null ? (
        <p className="embed-login__asking">
          {t('embedLogin.asking')} <strong className="embed-login__origin">{host}</strong>
        </p>
      ) : null}

      {step === 'checking' || step === 'sending' ? (
        <p role="status" className="embed-login__status">
          {step === 'checking' ? t('embedLogin.checking') : t('embedLogin.sending', { origin: host })}
        </p>
      ) : null}

      {step === 'login' ? (
        <>
          <LoginForm
            headingLevel={2}
            autoFocus
            onSuccess={() => void sendCode()}
            // The reset happens on the site, in a tab of its own; this window waits for the login.
            onForgotPassword={() => void window.open('/sign-up/forgotpassword', '_blank', 'noopener')}
          />
          <p className="embed-login__signup">
            {t('embedLogin.noAccount')}{' '}
            <a href="/sign-up" target="_blank" rel="noopener">
              {t('embedLogin.signUp')}
            </a>{' '}
            <span className="embed-login__hint">{t('embedLogin.signUpHint')}</span>
          </p>
        </>
      ) : null}

      {step === 'sent' ? (
        <p role="status" className="embed-login__status">
          {t('embedLogin.sent')}
        </p>
      ) : null}

      {step === 'forbidden' || step === 'failed' || step === 'bad-origin' || step === 'no-opener' ? (
        <div role="alert" className="embed-login__alert">
          <p>{t(`embedLogin.${alertKey[step]}`, { origin: host })}</p>
          {step === 'failed' ? (
            <button type="button" className="embed-login__button" onClick={() => void sendCode()}>
              {t('embedLogin.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
    </main>
  );
}

const alertKey = {
  forbidden: 'forbidden',
  failed: 'failed',
  'bad-origin': 'badOrigin',
  'no-opener': 'noOpener',
} as const;

import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { EMBED_CODE_MESSAGE, avatarUrl, embedConsentState, isSdkError, requestEmbedCode, type EmbedCodeMessage } from '../../lib/sdk';
import type { EmbedConsentState } from '../../lib/contract';
import { ALLOWANCE_STEPS } from '../../lib/contract/constants';
import { formatMoney } from '../../lib/contract/money';
import { LoginForm, useFanstage } from '../../lib/ui';

type Step = 'checking' | 'login' | 'consent' | 'sending' | 'sent' | 'cancelled' | 'failed' | 'bad-origin' | 'no-opener';

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
 * Signs the fan in on the platform and, once the fan allowed the site, hands the widget's page
 * a one-time code. The first time a fan signs in on a site, the popup shows the site's origin
 * and the fan's own account, says what the site will and will not be able to do, and asks to
 * allow or cancel; the platform remembers the answer per fan and site (revocable in settings).
 * The code is posted to the origin named in the address, and to that origin only: if the
 * opener is now a different page, the browser drops the message.
 */
export function EmbedLogin({ search, opener, onDone }: EmbedLoginProps) {
  useSignals();
  const { session, client, settings } = useFanstage();
  const { t } = useTranslation();
  const origin = openerOriginOf(search);
  const [step, setStep] = useState<Step>(() => (origin === null ? 'bad-origin' : opener === null ? 'no-opener' : 'checking'));
  const [consent, setConsent] = useState<EmbedConsentState | null>(null);
  // What the site may spend a month without asking: nothing, unless the fan chooses otherwise.
  const [allowance, setAllowance] = useState(0);
  const sending = useRef(false);

  const sendCode = useCallback(
    async (allow: boolean) => {
      if (origin === null || opener === null || sending.current) return;
      sending.current = true;
      setStep('sending');
      try {
        const { code } = await requestEmbedCode(client, origin, allow, allow ? allowance : 0);
        const message: EmbedCodeMessage = { type: EMBED_CODE_MESSAGE, code };
        // Never '*': the code is for the page on this origin alone.
        opener.postMessage(message, origin);
        setStep('sent');
        onDone();
      } catch (error) {
        setStep(isSdkError(error) && error.code === 'consent-required' ? 'consent' : 'failed');
      } finally {
        sending.current = false;
      }
    },
    [allowance, client, onDone, opener, origin],
  );

  /** Signed in: a site the fan allowed before gets its code at once, any other is asked about. */
  const decide = useCallback(async () => {
    if (origin === null) return;
    try {
      const state = await embedConsentState(client, origin);
      setConsent(state);
      if (state.allowed) await sendCode(false);
      else {
        await session.loadAccount().catch(() => undefined);
        setStep('consent');
      }
    } catch {
      setStep('failed');
    }
  }, [client, origin, sendCode, session]);

  useEffect(() => {
    if (step !== 'checking') return;
    let live = true;
    void session.restore().then((resumed) => {
      if (!live) return;
      if (resumed) void decide();
      else setStep('login');
    });
    return () => {
      live = false;
    };
  }, [session, decide, step]);

  const switchAccount = async () => {
    await session.logout().catch(() => undefined);
    setConsent(null);
    setStep('login');
  };

  const host = origin ?? '';
  const account = session.account.value;
  const cdn = settings.settings.value?.mediaCDN;
  const avatar = account && cdn ? avatarUrl(cdn, account.avatarMedia, 60) : null;
  return (
    <main className="fs-root embed-login">
      <h1 className="embed-login__title">{step === 'consent' ? t('embedLogin.consentTitle', { origin: host }) : t('embedLogin.title')}</h1>
      {origin !== null && step !== 'consent' ? (
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
            onSuccess={() => void decide()}
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

      {step === 'consent' ? (
        <section className="embed-login__consent" aria-labelledby="embed-login-account">
          <div className="embed-login__account">
            {avatar ? <img className="embed-login__avatar" src={avatar} alt="" width={48} height={48} /> : <span className="embed-login__avatar" aria-hidden="true" />}
            <p id="embed-login-account" className="embed-login__who">
              <span className="embed-login__hint">{t('embedLogin.signedInAs')}</span>{' '}
              <strong>{account?.displayName ?? ''}</strong> <span className="embed-login__hint">@{account?.username ?? ''}</span>
            </p>
          </div>
          <p className="embed-login__site">
            <strong className="embed-login__origin">{host}</strong>{' '}
            {consent && consent.listedBy.length > 0
              ? t('embedLogin.listedBy', { names: consent.listedBy.map((c) => c.displayName).join(', ') })
              : t('embedLogin.notListed')}
          </p>
          <div className="embed-login__lists">
            <div>
              <h2 className="embed-login__subtitle">{t('embedLogin.canTitle')}</h2>
              <ul>
                <li>{t('embedLogin.can.social')}</li>
                <li>{t('embedLogin.can.money')}</li>
                <li>{t('embedLogin.can.chat')}</li>
                <li>{t('embedLogin.can.topUp')}</li>
              </ul>
            </div>
            <div>
              <h2 className="embed-login__subtitle">{t('embedLogin.cannotTitle')}</h2>
              <ul>
                <li>{t('embedLogin.cannot.account')}</li>
                <li>{t('embedLogin.cannot.money')}</li>
              </ul>
            </div>
          </div>
          <div className="embed-login__allowance">
            <label htmlFor="embed-login-allowance">{t('embedLogin.allowance')}</label>
            <select id="embed-login-allowance" value={allowance} onChange={(event) => setAllowance(Number(event.target.value))}>
              {ALLOWANCE_STEPS.map((step) => (
                <option key={step} value={step}>
                  {step === 0 ? t('embedLogin.askEveryTime') : t('embedLogin.upTo', { amount: formatMoney(step) })}
                </option>
              ))}
            </select>
            <span className="embed-login__hint">{t('embedLogin.allowanceHint')}</span>
          </div>
          <p className="embed-login__hint">{t('embedLogin.revokeHint')}</p>
          <div className="embed-login__actions">
            <button type="button" className="embed-login__button" onClick={() => void sendCode(true)}>
              {t('embedLogin.allow')}
            </button>
            <button
              type="button"
              className="embed-login__button embed-login__button--quiet"
              onClick={() => {
                setStep('cancelled');
                onDone();
              }}
            >
              {t('embedLogin.cancel')}
            </button>
          </div>
          <button type="button" className="embed-login__link" onClick={() => void switchAccount()}>
            {t('embedLogin.anotherAccount')}
          </button>
        </section>
      ) : null}

      {step === 'sent' || step === 'cancelled' ? (
        <p role="status" className="embed-login__status">
          {t(step === 'sent' ? 'embedLogin.sent' : 'embedLogin.cancelled')}
        </p>
      ) : null}

      {step === 'failed' || step === 'bad-origin' || step === 'no-opener' ? (
        <div role="alert" className="embed-login__alert">
          <p>{t(`embedLogin.${alertKey[step]}`, { origin: host })}</p>
          {step === 'failed' ? (
            <button type="button" className="embed-login__button" onClick={() => setStep('checking')}>
              {t('embedLogin.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
    </main>
  );
}

const alertKey = {
  failed: 'failed',
  'bad-origin': 'badOrigin',
  'no-opener': 'noOpener',
} as const;

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { cookieExpiryDays } from '../../lib/sdk';
import { useSite } from '../site';
import styles from './PushPrompt.module.css';

/** Set when the prompt was dismissed or push declined: it stays away for 14 days (SPEC §9). */
const DISMISSED_COOKIE = 'pushdis';
/** SPEC §8: push_registered shows 3 s; push_declined and push_error 5 s. */
const SHOWN_MS = { push_registered: 3_000, push_declined: 5_000, push_error: 5_000 } as const;
type Outcome = keyof typeof SHOWN_MS;

function dismissedRecently(): boolean {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${DISMISSED_COOKIE}=`));
}

/**
 * The web push opt-in (SPEC §4, §5, §9): a signed-in person whose browser can take pushes, who
 * has not registered one (or whose browser has never been asked), and who has not dismissed
 * the prompt in the last 14 days is offered notifications. "Turn on" asks the browser, subscribes
 * and registers (fanstage.push.register); the outcome shows as push_registered (3 s), or
 * push_declined / push_error (5 s). Declining or "Not now" sets the `pushdis` cookie.
 *
 * It sits at the top of the Notifications screen, where someone is thinking about being told
 * things, rather than over every page: browsers quieten sites whose permission requests come
 * out of the blue and get refused, and a card in the page's flow never covers what someone
 * was about to press. The browser's own dialog comes only after a click on "Turn on".
 */
export function PushPrompt() {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const account = fanstage.session.account.value;
  const [dismissed, setDismissed] = useState(() => dismissedRecently());
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    if (outcome === null) return;
    const timer = setTimeout(() => setOutcome(null), SHOWN_MS[outcome]);
    return () => clearTimeout(timer);
  }, [outcome]);

  const permission = fanstage.push.permission();
  const wanted =
    loggedIn &&
    account !== null &&
    !dismissed &&
    permission !== 'unsupported' &&
    permission !== 'denied' &&
    (!account.isPushRegistered || permission === 'default');

  const dismiss = () => {
    setDismissed(true);
    void fanstage.client.post('/papi/users/cookie', { name: DISMISSED_COOKIE, value: '1', expires: cookieExpiryDays.pushdis }).catch(() => undefined);
  };

  const allow = async () => {
    setBusy(true);
    try {
      const result = await fanstage.push.register();
      if (result === 'registered') {
        setOutcome('push_registered');
        setDismissed(true);
      } else {
        setOutcome('push_declined');
        dismiss();
      }
    } catch {
      setOutcome('push_error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="push-prompt-region" data-state={account === null || !loggedIn ? 'waiting' : wanted ? 'asking' : 'quiet'}>
      {wanted && outcome === null ? (
        <section className={styles.card} aria-labelledby="push-prompt-title" data-testid="push-prompt">
          <h2 id="push-prompt-title" className={styles.title}>
            {t('push.title')}
          </h2>
          <p className={styles.text}>{t('push.text')}</p>
          <div className={styles.actions}>
            <button type="button" className={styles.secondary} onClick={dismiss}>
              {t('push.later')}
            </button>
            <button type="button" className={styles.primary} disabled={busy} onClick={() => void allow()}>
              {t('push.allow')}
            </button>
          </div>
        </section>
      ) : null}
      <div role={outcome === 'push_registered' ? 'status' : 'alert'}>
        {outcome !== null ? (
          <p className={styles.message} data-testid="push-message">
            {t(`push.${outcome}`)}
          </p>
        ) : null}
      </div>
    </div>
  );
}

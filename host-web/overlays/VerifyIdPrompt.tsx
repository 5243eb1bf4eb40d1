import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { partnerApi } from '../../lib/sdk';
import { useSite } from '../site';
import { Dialog } from '../../lib/ui';
import styles from './LoginPrompt.module.css';

/** The prompt asks once per browser session; "Later" is remembered until the tab closes. */
const ASKED_KEY = 'fanstage.verifyIdPrompt';

function askedBefore(): boolean {
  try {
    return sessionStorage.getItem(ASKED_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberAsked(): void {
  try {
    sessionStorage.setItem(ASKED_KEY, '1');
  } catch {
    // Without storage the prompt may come again on the next load; nothing else depends on it.
  }
}

/**
 * SPEC §2 overlays, the verify-ID prompt: a person whose registration waits for the identity
 * check (approved state 101) is asked to verify — on arriving, or when the state comes to 101
 * while the page is open (a finished registration elsewhere, a declined check). "Verify now"
 * starts the check at the provider; the partner screens themselves never show it.
 */
export function VerifyIdPrompt({ location }: { location: string }) {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const state = fanstage.session.account.value?.approvedState;
  const api = useMemo(() => partnerApi(fanstage.client), [fanstage]);
  const onPartnerScreen = /^\/(partner-registration|verify-request|admin)(\/|\?|$)/.test(location);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const previous = useRef<number | undefined>(undefined);
  const later = () => {
    setOpen(false);
    rememberAsked();
  };

  useEffect(() => {
    const before = previous.current;
    previous.current = state;
    if (!loggedIn || state !== 101 || onPartnerScreen) return;
    // A state that just moved to 101 asks again, whatever was answered before.
    if (before !== undefined && before !== 101) setOpen(true);
    else if (!askedBefore()) setOpen(true);
  }, [loggedIn, state, onPartnerScreen]);

  useEffect(() => {
    if (open && (state !== 101 || onPartnerScreen)) setOpen(false);
  }, [open, state, onPartnerScreen]);

  const verify = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const started = await api.startIdCheck();
      rememberAsked();
      window.location.assign(started.redirectUrl);
    } catch {
      setFailed(true);
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} title={t('partner.prompt.title')} description={t('partner.prompt.text')} closeLabel={t('loginPrompt.close')} size="small" onClose={later} className={styles.centredText} data-testid="verify-id-prompt">
      {failed ? <p role="alert">{t('errors.couldnt-get-info-from-server')}</p> : null}
      <div className={styles.buttons}>
        <button type="button" className={styles.secondary} onClick={later}>
          {t('partner.prompt.later')}
        </button>
        <button type="button" className={styles.primary} disabled={busy} onClick={() => void verify()}>
          {t('partner.prompt.verify')}
        </button>
      </div>
    </Dialog>
  );
}

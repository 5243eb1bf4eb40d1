import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { partnerApi, timelineBadgeError } from '../../lib/sdk';
import { useSite } from '../site';
import styles from './PartnerBanner.module.css';

/** Screens where the request-check banner shows (the partner screens say it themselves). */
const bannerScreens = ['/timeline', '/settings', '/notifications'];

export function showsPartnerBanner(location: string): boolean {
  const path = location.split('?')[0] ?? '';
  return bannerScreens.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * SPEC §4: the request-check banner of approved states 7, 101, 105 and 107 — finish the
 * registration, verify (101 carries the 'verify' message and starts the identity check at
 * once), or a word that the check or the review is running. It follows the account, which
 * `partnerStatusChanged` reloads.
 */
export function PartnerBanner({ location }: { location: string }) {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const state = fanstage.session.account.value?.approvedState;
  const api = useMemo(() => partnerApi(fanstage.client), [fanstage]);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!loggedIn || !timelineBadgeError(state) || !showsPartnerBanner(location) || state === undefined) return null;

  const verify = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const started = await api.startIdCheck();
      window.location.assign(started.redirectUrl);
    } catch {
      setFailed(true);
      setBusy(false);
    }
  };

  return (
    <aside className={styles.banner} aria-label={t('partner.banner.label')} data-testid="partner-banner" data-approved-state={state}>
      <p className={styles.text}>{t(`partner.banner.${state}`)}</p>
      {failed ? (
        <p className={styles.error} role="alert">
          {t('errors.couldnt-get-info-from-server')}
        </p>
      ) : null}
      {state === 101 ? (
        <button type="button" className={styles.action} disabled={busy} onClick={() => void verify()}>
          {t('partner.banner.verify')}
        </button>
      ) : (
        <Link href="/partner-registration" className={styles.action}>
          {t('partner.banner.open')}
        </Link>
      )}
    </aside>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { TERMS_VERSION } from '../../lib/contract/constants';
import { useSite } from '../site';
import { Dialog } from '../../lib/ui';
import styles from './LoginPrompt.module.css';

/**
 * SPEC §2: a logged-in person who agreed to older terms is asked again, without the blurred
 * gate of a first visit. Agreeing stamps the current version; declining leads to Settings >
 * ManageAccount (`/settings/account`), where the account can be deleted or its data downloaded,
 * and the question returns on the next visit.
 */
export function ChangedTerms({ onAgreed, onDeclined }: { onAgreed: () => void; onDeclined: () => void }) {
  const { t } = useTranslation();
  const { fanstage } = useSite();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(true);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function agree() {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    try {
      await fanstage.client.post('/papi/users/cookie', { name: 'accept', value: TERMS_VERSION });
      setOpen(false);
      onAgreed();
    } catch {
      setFailed(true);
      setBusy(false);
    }
  }

  function decline() {
    navigate('/settings/account');
    setOpen(false);
    onDeclined();
  }

  return (
    <Dialog open={open} title={t('changedTerms.title')} description={t('changedTerms.text')} closeLabel={t('loginPrompt.close')} size="small" onClose={decline} className={styles.centredText} data-testid="changed-terms">
      <p>
        <Link href="/terms">{t('footer.terms')}</Link> · <Link href="/privacy">{t('footer.privacy')}</Link>
      </p>
      {failed ? <p role="alert">{t('consent.failed')}</p> : null}
      <div className={styles.buttons}>
        <button type="button" className={styles.secondary} onClick={decline}>
          {t('changedTerms.decline')}
        </button>
        <button type="button" className={styles.primary} onClick={() => void agree()} aria-busy={busy}>
          {t('changedTerms.agree')}
        </button>
      </div>
    </Dialog>
  );
}

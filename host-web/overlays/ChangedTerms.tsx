import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { TERMS_VERSION } from '../../lib/contract/constants';
import { useSite } from '../site';
import { useModalDialog } from './useModalDialog';
import styles from './LoginPrompt.module.css';

/**
 * SPEC §2: a logged-in person who agreed to older terms is asked again, without the blurred
 * gate of a first visit. Agreeing stamps the current version; declining leads to the
 * settings, where the account can be managed, and the question returns on the next visit.
 */
export function ChangedTerms({ onAgreed, onDeclined }: { onAgreed: () => void; onDeclined: () => void }) {
  const { t } = useTranslation();
  const { fanstage } = useSite();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(true);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const titleId = useId();
  const textId = useId();
  const dialog = useModalDialog(open, () => {
    setOpen(false);
    onDeclined();
  });

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
    navigate('/settings');
    dialog.ref.current?.close();
  }

  return (
    <dialog
      ref={dialog.ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onClose={dialog.onClose}
      onClick={dialog.onClick}
      onKeyDown={dialog.onKeyDown}
      data-testid="changed-terms"
    >
      <div className={styles.content}>
        <h2 id={titleId} className={styles.title}>
          {t('changedTerms.title')}
        </h2>
        <p id={textId}>{t('changedTerms.text')}</p>
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
      </div>
    </dialog>
  );
}

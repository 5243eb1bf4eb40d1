import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { SdkError, type Fanstage } from '../../lib/sdk';
import type { ActionResult } from '../../lib/contract';
import { usePageTitle, useSite } from '../site';
import styles from './Account.module.css';

type Outcome = { state: 'pending' } | { state: 'done'; action: string } | { state: 'failed'; expired: boolean };

/**
 * A link works once: the confirmation is shared per hash, so a second mount (React's strict
 * mode, or coming back to the screen) shows the same answer instead of spending it again.
 */
const confirmations = new Map<string, Promise<ActionResult>>();

function confirmOnce(fanstage: Fanstage, hash: string): Promise<ActionResult> {
  let pending = confirmations.get(hash);
  if (!pending) {
    pending = fanstage.account.confirmAction(hash);
    confirmations.set(hash, pending);
  }
  return pending;
}

/** `/action/{hash}` from a mail (SPEC §2): today the e-mail verification link. */
export default function MailAction({ hash }: { hash: string }) {
  const { t } = useTranslation();
  const { fanstage } = useSite();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'pending' });
  usePageTitle(t('account.action.pageTitle'), { inHeader: false });

  useEffect(() => {
    let live = true;
    confirmOnce(fanstage, hash)
      .then((result) => {
        if (!live) return;
        setOutcome({ state: 'done', action: result.action });
        // A logged-in account learns at once that it is verified (the notice disappears).
        if (fanstage.session.isLoggedIn.peek()) fanstage.session.loadAccount().catch(() => undefined);
      })
      .catch((error: unknown) => {
        if (live) setOutcome({ state: 'failed', expired: error instanceof SdkError && error.code === 'link-expired' });
      });
    return () => {
      live = false;
    };
  }, [fanstage, hash]);

  return (
    <div className={styles.screen}>
      <section className={styles.panel} aria-labelledby="mail-action-title" aria-busy={outcome.state === 'pending'} data-testid="mail-action">
        <h1 id="mail-action-title" className={styles.title}>
          {t('account.action.pageTitle')}
        </h1>
        <div role="status">
          {outcome.state === 'pending' ? <p className={styles.text}>{t('account.action.pending')}</p> : null}
          {outcome.state === 'done' ? (
            <p className={`${styles.text} ${styles.success}`}>
              {outcome.action === 'verify-email' ? t('account.action.verified') : t('account.action.done')}
            </p>
          ) : null}
        </div>
        {outcome.state === 'failed' ? (
          <p className={`${styles.text} ${styles.failure}`} role="alert">
            {outcome.expired ? t('errors.link-expired') : t('auth.genericError')}
          </p>
        ) : null}
        {outcome.state === 'pending' ? null : (
          <Link href="/discover" className={styles.action}>
            {t('account.signUp.discover')}
          </Link>
        )}
      </section>
    </div>
  );
}

import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Invite } from '../../lib/contract';
import { useFanstage } from '../../lib/ui';
import styles from './SettingsInvite.module.css';

/**
 * Settings › Invite friends: the account's invite link (`/?aff=CODE`) with a copy button, and
 * who invited the account. People who sign up through the link are the account's invited
 * people; their spending earns it affiliate shares, listed in Earnings.
 */
export function SettingsInvite() {
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const [invite, setInvite] = useState<Invite | null>(null);
  const [percent, setPercent] = useState<number | null>(fanstage.settings.settings.peek()?.affiliateSharePercent ?? null);
  const [failed, setFailed] = useState(false);
  const [notice, setNotice] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const linkId = useId();

  const load = useCallback(() => {
    setFailed(false);
    fanstage.account.invite().then(setInvite, () => setFailed(true));
    fanstage.settings.load().then(
      (settings) => setPercent(settings.affiliateSharePercent ?? null),
      () => undefined,
    );
  }, [fanstage]);
  useEffect(load, [load]);

  const copy = async () => {
    if (!invite) return;
    try {
      await navigator.clipboard.writeText(invite.link);
      setNotice(t('invites.settings.copied'));
    } catch {
      // No clipboard (an older browser, or permission refused): the link is selected instead.
      input.current?.select();
      setNotice(t('invites.settings.noClipboard'));
    }
  };

  return (
    <section className={styles.invite} aria-labelledby="settings-invite" data-testid="settings-invite">
      <h2 id="settings-invite" className={styles.title}>
        {t('invites.settings.title')}
      </h2>
      <p className={styles.text}>{t('invites.settings.text', { percent: percent ?? '…' })}</p>
      {failed ? (
        <p role="alert">
          {t('invites.settings.failed')}{' '}
          <button type="button" className={styles.textButton} onClick={load}>
            {t('invites.settings.retry')}
          </button>
        </p>
      ) : invite === null ? (
        <p role="status">{t('invites.settings.loading')}</p>
      ) : (
        <>
          <label htmlFor={linkId} className={styles.label}>
            {t('invites.settings.link')}
          </label>
          <div className={styles.row}>
            <input
              ref={input}
              id={linkId}
              className={styles.link}
              type="text"
              readOnly
              value={invite.link}
              onFocus={(event) => event.currentTarget.select()}
              data-testid="invite-link"
            />
            <button type="button" className={styles.copy} onClick={() => void copy()}>
              {t('invites.settings.copy')}
            </button>
          </div>
          <p className={styles.hint}>{t('invites.settings.code', { code: invite.code })}</p>
          {invite.invitedBy ? (
            <p className={styles.hint} data-testid="invited-by">
              {t('invites.settings.invitedBy', { name: invite.invitedBy.displayName || invite.invitedBy.username })}
            </p>
          ) : null}
          <Link href="/settings/earnings" className={styles.earnings}>
            {t('invites.settings.earnings')}
          </Link>
        </>
      )}
      <p role="status" aria-live="polite" className={styles.notice}>
        {notice}
      </p>
    </section>
  );
}

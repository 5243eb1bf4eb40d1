import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { avatarUrl } from '../../lib/sdk';
import type { Invitation } from '../landing';
import { useSite } from '../site';
import { Icon } from '../layout/icons';
import { useModalDialog } from './useModalDialog';
import styles from './InvitationPrompt.module.css';

/**
 * The invitation sign-up prompt (SPEC §2 `aff`): a visitor who came through someone's invite
 * link is told who invites them and offered the sign-up; the invite code already waits in the
 * `affcode` cookie, so the account made next is theirs.
 */
export function InvitationPrompt({ invitation, onClosed }: { invitation: Invitation | null; onClosed: () => void }) {
  const { t } = useTranslation();
  const { fanstage, openLoginPrompt } = useSite();
  const [, navigate] = useLocation();
  const dialog = useModalDialog(invitation !== null, onClosed);
  const titleId = useId();
  const textId = useId();
  const [mediaCDN, setMediaCDN] = useState<string | null>(fanstage.settings.settings.peek()?.mediaCDN ?? null);
  // The last invitation stays rendered while the dialog closes.
  const [shown, setShown] = useState<Invitation | null>(invitation);
  if (invitation !== null && invitation !== shown) setShown(invitation);

  useEffect(() => {
    if (invitation === null || mediaCDN !== null) return;
    fanstage.settings.load().then(
      (settings) => setMediaCDN(settings.mediaCDN),
      () => undefined,
    );
  }, [fanstage, invitation, mediaCDN]);

  const close = () => dialog.ref.current?.close();
  const affiliate = shown?.affiliate;
  const name = affiliate ? affiliate.displayName || affiliate.username : '';
  const avatar = affiliate && mediaCDN ? avatarUrl(mediaCDN, affiliate.avatarMedia, 120) : null;

  return (
    <dialog
      ref={dialog.ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onClose={dialog.onClose}
      onClick={dialog.onClick}
      onKeyDown={dialog.onKeyDown}
      data-testid="invitation-prompt"
    >
      {affiliate ? (
        <div className={styles.content}>
          <button type="button" className={styles.close} aria-label={t('invites.prompt.close')} onClick={close}>
            <Icon name="close" />
          </button>
          <div className={styles.avatar} aria-hidden="true">
            {avatar ? <img src={avatar} alt="" width={96} height={96} /> : <span>{name.slice(0, 1).toUpperCase()}</span>}
          </div>
          <h2 id={titleId} className={styles.title}>
            {t('invites.prompt.title', { name })}
          </h2>
          <p className={styles.handle}>@{affiliate.username}</p>
          <p id={textId} className={styles.text}>
            {t('invites.prompt.text')}
          </p>
          <button
            type="button"
            className={styles.primary}
            onClick={() => {
              close();
              navigate('/sign-up');
            }}
          >
            {t('invites.prompt.signUp')}
          </button>
          <p className={styles.switch}>
            {t('invites.prompt.haveAccount')}{' '}
            <button
              type="button"
              className={styles.textButton}
              aria-haspopup="dialog"
              onClick={() => {
                close();
                openLoginPrompt();
              }}
            >
              {t('invites.prompt.login')}
            </button>
          </p>
        </div>
      ) : null}
    </dialog>
  );
}

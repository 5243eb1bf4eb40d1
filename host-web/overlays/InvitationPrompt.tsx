import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { avatarUrl } from '../../lib/sdk';
import type { Invitation } from '../landing';
import { useSite } from '../site';
import { Dialog } from '../../lib/ui';
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

  const close = onClosed;
  const affiliate = shown?.affiliate;
  const name = affiliate ? affiliate.displayName || affiliate.username : '';
  const avatar = affiliate && mediaCDN ? avatarUrl(mediaCDN, affiliate.avatarMedia, 120) : null;

  return (
    <Dialog
      open={invitation !== null}
      title={t('invites.prompt.title', { name })}
      icon={<span className={styles.avatar}>{avatar ? <img src={avatar} alt="" width={96} height={96} /> : <span>{name.slice(0, 1).toUpperCase()}</span>}</span>}
      closeLabel={t('invites.prompt.close')}
      size="small"
      onClose={close}
      data-testid="invitation-prompt"
    >
      {affiliate ? (
        <div className={styles.content}>
          <p className={styles.handle}>@{affiliate.username}</p>
          <p className={styles.text}>{t('invites.prompt.text')}</p>
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
    </Dialog>
  );
}

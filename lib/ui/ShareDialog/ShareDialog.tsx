import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import styles from './ShareDialog.module.css';
import { Dialog } from '../dialog/Dialog';
import { useShareDialog, type UseShareDialogOptions } from './useShareDialog';

export interface ShareDialogProps extends UseShareDialogOptions {
  /** The post shared, if any (for the record; the address is `url`). */
  postId?: number;
  onClose: () => void;
}

/** Share a post (SPEC §2 overlays): each network's share page, or copy the link. */
export function ShareDialog({ onClose, postId: _postId, ...options }: ShareDialogProps) {
  const { t } = useTranslation();
  const { targets, open, copyLink, copy } = useShareDialog(options);
  return (
    <Dialog title={t('share.title')} closeLabel={t('share.close')} size="small" onClose={onClose}>
      <ul className={styles.networks}>
        {targets.map((target) => (
          <li key={target.network}>
            <a
              className={styles.network}
              href={target.href}
              target="_blank"
              rel="noopener noreferrer"
              data-network={target.network}
              onClick={(event) => {
                if (open(target)) event.preventDefault();
              }}
            >
              <span className={styles.dot} aria-hidden="true">
                {t(`share.networks.${target.network}`).slice(0, 1)}
              </span>
              {t(`share.networks.${target.network}`)}
            </a>
          </li>
        ))}
      </ul>
      <button type="button" className={styles.copy} onClick={() => void copyLink()}>
        {t('share.copy')}
      </button>
      <p className={styles.message} role="status">
        {copy === 'copied' ? t('share.copied') : copy === 'failed' ? <span className={styles.warning}>{t('share.noClipboard')}</span> : null}
      </p>
    </Dialog>
  );
}

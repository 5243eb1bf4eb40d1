import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { postMediaUrl, type Post } from '../../sdk';
import { Dialog } from '../dialog/Dialog';
import styles from './MediaEarnings.module.css';

export interface MediaEarningsProps {
  post: Post;
  /** Where media are served from (settings' `mediaCDN`). */
  mediaCDN: string;
  onClose: () => void;
}

/** Earned cents as dollars with cents, the way the earnings screens show money. */
export function formatEarned(cents: number): string {
  const whole = Math.max(0, Math.round(cents));
  return `$${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

/**
 * The media earnings of SPEC §2, for the post's author: what each media of the post earned
 * (`earnedCents`, which the server fills for the owner only), and the sum.
 */
export function MediaEarnings({ post, mediaCDN, onClose }: MediaEarningsProps) {
  const { t, i18n } = useTranslation();
  const total = post.media.reduce((sum, media) => sum + media.earnedCents, 0);
  const count = post.media.length;
  return (
    <Dialog title={t('posts.mediaEarnings.title')} size="sheet" onClose={onClose} lang={i18n.resolvedLanguage ?? i18n.language} data-testid="media-earnings">
      <ul className={styles.list}>
        {post.media.map((media, index) => {
          const label = t(media.mediaType === 'video' ? 'posts.mediaEarnings.video' : media.mediaType === 'voice' ? 'posts.mediaEarnings.voice' : 'posts.mediaEarnings.photo', { index: index + 1, total: count });
          return (
            <li key={media.mediaId} className={styles.row}>
              {media.mediaType === 'voice' ? (
                <span className={styles.thumb} aria-hidden="true" />
              ) : (
                <img className={styles.thumb} src={postMediaUrl(mediaCDN, media, 320)} alt="" width={48} height={48} loading="lazy" />
              )}
              <span className={styles.label}>{label}</span>
              <span className={styles.amount}>{t('posts.mediaEarnings.earned', { amount: formatEarned(media.earnedCents) })}</span>
            </li>
          );
        })}
      </ul>
      <p className={styles.total}>{t('posts.mediaEarnings.total', { amount: formatEarned(total) })}</p>
    </Dialog>
  );
}

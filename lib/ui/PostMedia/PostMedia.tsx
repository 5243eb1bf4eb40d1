import { useRef, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { MediaView } from '../../sdk';
import '../theme/tokens.css';
import styles from './PostMedia.module.css';
import { useAutoplay, usePostMedia, type PostMediaItem } from './usePostMedia';

export interface PostMediaProps {
  media: readonly MediaView[];
  mediaCDN: string;
  salt: number;
  /** Whose post, for the pictures' descriptions. */
  authorName: string;
  /** Opens a media full screen; without it the media are not buttons. */
  onOpen?: (index: number) => void;
  /** The unlock button of a locked media; without it the price is only shown. */
  onUnlock?: (index: number) => void;
  /** Scheduled posts: nothing to open or unlock yet. */
  disabled?: boolean;
}

/** A post's pictures and videos, locked ones blurred behind their price. */
export function PostMedia({ media, mediaCDN, salt, authorName, onOpen, onUnlock, disabled }: PostMediaProps) {
  const { t } = useTranslation();
  const { items, toggleReveal } = usePostMedia(media, mediaCDN, salt, t('price.free'));
  if (items.length === 0) return null;
  return (
    <div className={styles.root} data-count={items.length}>
      {items.map((item, index) => (
        <MediaFrame
          key={item.media.mediaId}
          item={item}
          label={
            items.length > 1
              ? t('posts.mediaOf', { index: index + 1, count: items.length, name: authorName })
              : t(item.media.mediaType === 'video' ? 'posts.videoBy' : 'posts.photoBy', { name: authorName })
          }
          onOpen={onOpen && !disabled && !item.locked ? () => onOpen(index) : undefined}
          onUnlock={onUnlock && !disabled && !item.ownerLocked ? () => onUnlock(index) : undefined}
          onReveal={() => toggleReveal(item.media.mediaId)}
        />
      ))}
    </div>
  );
}

function MediaFrame({ item, label, onOpen, onUnlock, onReveal }: { item: PostMediaItem; label: string; onOpen: (() => void) | undefined; onUnlock: (() => void) | undefined; onReveal: () => void }) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const isVideo = item.media.mediaType === 'video';
  useAutoplay(videoRef, isVideo && !item.locked);
  const ratio = item.media.mediaAspectRatio > 0 ? item.media.mediaAspectRatio : 1;
  // Very tall pictures would fill several screens: they are cropped to 4:5 like other feeds do.
  const frameStyle = { aspectRatio: String(Math.max(ratio, 0.8)), backgroundColor: item.media.mediaDominantColor || undefined } as CSSProperties;

  const content = isVideo && !item.locked ? (
    <video ref={videoRef} className={styles.media} src={item.src} poster={item.poster ?? undefined} muted playsInline loop controls preload="metadata" aria-label={label} />
  ) : (
    <img
      className={`${styles.media} ${item.locked ? styles.blurred : ''}`}
      src={item.locked && isVideo && item.poster ? item.poster : item.src}
      srcSet={item.srcSet || undefined}
      sizes={item.srcSet ? '(min-width: 870px) 640px, 100vw' : undefined}
      alt={item.locked ? t('posts.lockedMedia', { label }) : label}
      loading="lazy"
      decoding="async"
    />
  );

  return (
    <figure className={styles.frame} style={frameStyle} data-locked={item.locked || undefined}>
      {onOpen ? (
        <button type="button" className={styles.open} onClick={onOpen} aria-label={t('posts.openMedia', { label })}>
          {content}
        </button>
      ) : (
        content
      )}
      {item.duration && item.locked ? <span className={styles.duration}>{item.duration}</span> : null}
      {item.locked ? (
        <div className={styles.lock}>
          <svg className={styles.lockIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 1 1 6 0v3H9z" />
          </svg>
          <span className={styles.price}>{t('posts.lockedPrice', { price: item.price })}</span>
          {item.ownerLocked ? (
            <button type="button" className={styles.lockButton} onClick={onReveal}>
              {t('posts.showUnlocked')}
            </button>
          ) : onUnlock ? (
            <button type="button" className={styles.lockButton} onClick={onUnlock}>
              {t('posts.unlockFor', { price: item.price })}
            </button>
          ) : null}
        </div>
      ) : item.ownerLocked ? (
        <button type="button" className={styles.relock} onClick={onReveal}>
          {t('posts.showLocked')}
        </button>
      ) : null}
    </figure>
  );
}

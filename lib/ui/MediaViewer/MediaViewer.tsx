import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isLocked, pictureSrcSet, postMediaUrl, type MediaView } from '../../sdk';
import '../theme/tokens.css';
import { Dialog } from '../dialog/Dialog';
import styles from './MediaViewer.module.css';
import { useMediaViewer } from './useMediaViewer';
import { MAX_ZOOM, MIN_ZOOM } from './gestures';

export interface MediaViewerProps {
  /** The media to show (a post's); locked ones are left out. */
  post?: { media: readonly MediaView[] };
  media?: readonly MediaView[];
  index?: number;
  mediaCDN: string;
  authorName: string;
  onClose: () => void;
}

/**
 * Full-screen media (SPEC §2 FullScreenMedia and the pinch-zoom overlay): pinch or wheel or
 * +/- to zoom between 0.5× and 4×, double tap for 2×, Escape or a swipe to close, arrows
 * between a post's media.
 */
export function MediaViewer({ post, media, index = 0, mediaCDN, authorName, onClose }: MediaViewerProps) {
  const { t } = useTranslation();
  const list = (media ?? post?.media ?? []).filter((m) => !isLocked(m) && m.mediaStatus !== 4);
  const viewer = useMediaViewer(list.length, index, onClose);
  const current = list[viewer.index];

  useEffect(() => {
    // The page behind must not scroll while the viewer is open.
    const overflow = document.documentElement.style.overflow;
    document.documentElement.style.overflow = 'hidden';
    return () => {
      document.documentElement.style.overflow = overflow;
    };
  }, []);

  const label = current
    ? list.length > 1
      ? t('posts.mediaOf', { index: viewer.index + 1, count: list.length, name: authorName })
      : t(current.mediaType === 'video' ? 'posts.videoBy' : 'posts.photoBy', { name: authorName })
    : '';

  return (
    <Dialog
      title={t('posts.viewer.title', { label })}
      titleHidden
      size="full"
      closeButton={false}
      initialFocus="dialog"
      onClose={onClose}
      bodyClassName={styles.root}
      // Escape is the dialog's own; the viewer's keys are the rest.
      onKeyDown={(event) => event.key !== 'Escape' && viewer.onKeyDown(event)}
    >
      <div
        className={styles.stage}
        onPointerDown={viewer.onPointerDown}
        onPointerMove={viewer.onPointerMove}
        onPointerUp={viewer.onPointerUp}
        onPointerCancel={viewer.onPointerUp}
        onWheel={(event) => viewer.onWheel(event.deltaY)}
        data-scale={viewer.scale}
      >
        {current ? (
          current.mediaType === 'video' ? (
            <video className={styles.media} src={postMediaUrl(mediaCDN, current)} poster={postMediaUrl(mediaCDN, current, 'poster')} controls autoPlay playsInline aria-label={label} />
          ) : (
            <img
              className={styles.media}
              src={postMediaUrl(mediaCDN, current, 1280)}
              srcSet={pictureSrcSet(mediaCDN, current) || undefined}
              sizes="100vw"
              alt={label}
              draggable={false}
              style={{ transform: `translate(${viewer.offset.x}px, ${viewer.offset.y}px) scale(${viewer.scale})` }}
            />
          )
        ) : (
          <p className={styles.empty}>{t('posts.viewer.nothing')}</p>
        )}
      </div>
      <div className={styles.toolbar} role="toolbar" aria-label={t('posts.viewer.tools')}>
        {list.length > 1 ? (
          <button type="button" className={styles.tool} onClick={() => viewer.go(-1)} aria-label={t('posts.viewer.previous')}>
            ‹
          </button>
        ) : null}
        <button type="button" className={styles.tool} onClick={() => viewer.zoomTo(viewer.scale / 1.5)} aria-disabled={viewer.scale <= MIN_ZOOM} aria-label={t('posts.viewer.zoomOut')}>
          −
        </button>
        <span className={styles.zoom} aria-live="polite">
          {t('posts.viewer.zoom', { percent: Math.round(viewer.scale * 100) })}
        </span>
        <button type="button" className={styles.tool} onClick={() => viewer.zoomTo(viewer.scale * 1.5)} aria-disabled={viewer.scale >= MAX_ZOOM} aria-label={t('posts.viewer.zoomIn')}>
          +
        </button>
        {list.length > 1 ? (
          <button type="button" className={styles.tool} onClick={() => viewer.go(1)} aria-label={t('posts.viewer.next')}>
            ›
          </button>
        ) : null}
        <button type="button" className={styles.tool} onClick={onClose} aria-label={t('posts.viewer.close')}>
          ✕
        </button>
      </div>
    </Dialog>
  );
}

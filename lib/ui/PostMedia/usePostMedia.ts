import { useEffect, useState, type RefObject } from 'react';
import { formatDuration, formatPrice, isLocked, mediaUrl, pictureSrcSet, postMediaUrl, type MediaView } from '../../sdk';

export interface PostMediaItem {
  media: MediaView;
  /** Shown blurred behind the lock: priced and not unlocked, or the owner's locked view. */
  locked: boolean;
  /** The owner can switch between the fans' view and the original. */
  ownerLocked: boolean;
  src: string;
  srcSet: string;
  poster: string | null;
  price: string;
  duration: string | null;
}

/**
 * The media of a post as they must be shown: the blurred preview with the price while locked
 * (SPEC §4), the original with its key once unlocked. The owner sees the locked view first,
 * as fans do, until 'show unlocked'.
 */
export function usePostMedia(media: readonly MediaView[], mediaCDN: string, salt: number, freeLabel: string) {
  const [revealed, setRevealed] = useState<ReadonlySet<number>>(new Set());
  const items: PostMediaItem[] = media
    // A rejected media (status 4) has nothing to show.
    .filter((m) => m.mediaStatus !== 4)
    .map((m) => {
      const priced = m.mediaPrice > 0;
      const ownerLocked = m.mediaIsOwner && priced && !isLocked(m);
      const locked = isLocked(m) || (ownerLocked && !revealed.has(m.mediaId));
      return {
        media: m,
        locked,
        ownerLocked,
        src: locked ? mediaUrl(mediaCDN, m, { variant: 'blur' }) : postMediaUrl(mediaCDN, m, m.mediaType === 'image' ? 640 : undefined),
        srcSet: locked || m.mediaType !== 'image' ? '' : pictureSrcSet(mediaCDN, m),
        poster: m.mediaType === 'video' ? postMediaUrl(mediaCDN, m, locked ? 'blur' : 'poster') : null,
        price: formatPrice(m.mediaPrice, salt, freeLabel),
        duration: m.mediaDuration ? formatDuration(m.mediaDuration) : null,
      };
    });
  function toggleReveal(mediaId: number) {
    setRevealed((current) => {
      const next = new Set(current);
      if (next.has(mediaId)) next.delete(mediaId);
      else next.add(mediaId);
      return next;
    });
  }
  return { items, toggleReveal };
}

/** SPEC §4: videos play while in view and pause otherwise (muted, so browsers allow it). */
export function useAutoplay(ref: RefObject<HTMLVideoElement | null>, enabled: boolean): void {
  useEffect(() => {
    const video = ref.current;
    if (!enabled || !video || typeof IntersectionObserver === 'undefined') return;
    const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (reduced) return;
    const observer = new IntersectionObserver(
      ([record]) => {
        if (!record) return;
        if (record.intersectionRatio >= 0.7) void video.play()?.catch(() => undefined);
        else video.pause();
      },
      { threshold: [0, 0.7, 1] },
    );
    observer.observe(video);
    return () => {
      observer.disconnect();
      video.pause();
    };
  }, [ref, enabled]);
}

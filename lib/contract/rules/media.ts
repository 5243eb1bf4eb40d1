/**
 * Media addresses (SPEC §7 "Media address"): `${mediaCDN}/${hash}.${format}` with an
 * optional variant `t` (a size such as 120, or 'og' for the open-graph picture) and an
 * optional unlock key `k` (the fan's proof of having unlocked a paid media).
 */
export interface MediaRef {
  mediaHash: string;
  format: string;
}

export interface MediaUrlOptions {
  variant?: string | number;
  key?: string;
}

export function mediaUrl(mediaCDN: string, media: MediaRef, options: MediaUrlOptions = {}): string {
  // Settings may carry the CDN with or without a trailing slash; a double slash breaks caching.
  const base = mediaCDN.replace(/\/+$/, '');
  const query: string[] = [];
  if (options.variant !== undefined && options.variant !== '') query.push(`t=${encodeURIComponent(String(options.variant))}`);
  if (options.key) query.push(`k=${encodeURIComponent(options.key)}`);
  const path = `${base}/${encodeURIComponent(media.mediaHash)}.${encodeURIComponent(media.format)}`;
  return query.length ? `${path}?${query.join('&')}` : path;
}

export type AvatarSize = 60 | 120 | 500;
export const avatarSizes: readonly AvatarSize[] = [60, 120, 500];

/**
 * An avatar at one of its three sizes. Avatars are stored as WebP renditions of each size
 * (SPEC §7 "avatar sizes 60, 120, 500; .webp variant"), so the address always asks for
 * `.webp` with the size as variant, whatever the uploaded original's format was.
 * Null when the user has no avatar, so the UI draws initials instead.
 */
export function avatarUrl(mediaCDN: string, avatarMedia: MediaRef | null | undefined, size: AvatarSize): string | null {
  if (!avatarMedia?.mediaHash) return null;
  return mediaUrl(mediaCDN, { mediaHash: avatarMedia.mediaHash, format: 'webp' }, { variant: size });
}

/** The media fields that decide how a post's picture or video is addressed and shown. */
export interface PostMediaRef extends MediaRef {
  mediaPrice: number;
  mediaUnlockHash: string | null;
}

/**
 * SPEC §4 Media lock: locked when priced and this viewer has no unlock key. Owners get the
 * key too; whether they see the locked view first is the UI's choice ('show unlocked').
 */
export function isLocked(media: Pick<PostMediaRef, 'mediaPrice' | 'mediaUnlockHash'>): boolean {
  return media.mediaPrice > 0 && !media.mediaUnlockHash;
}

/**
 * A post media's address in a variant, with the unlock key when the viewer has one. A locked
 * media only ever gets its blurred preview (or the Open Graph picture): any other variant of
 * it would answer 403.
 */
export function postMediaUrl(mediaCDN: string, media: PostMediaRef, variant?: string | number): string {
  if (isLocked(media)) {
    return mediaUrl(mediaCDN, media, { variant: variant === 'og' ? 'og' : 'blur' });
  }
  return mediaUrl(mediaCDN, media, {
    ...(variant !== undefined ? { variant } : {}),
    ...(media.mediaUnlockHash ? { key: media.mediaUnlockHash } : {}),
  });
}

/** Picture widths served (`t=320|640|1280`), for `srcset`. */
export const pictureWidths = [320, 640, 1280] as const;

/** A `srcset` of an unlocked picture's widths; empty for a locked one. */
export function pictureSrcSet(mediaCDN: string, media: PostMediaRef): string {
  if (isLocked(media)) return '';
  return pictureWidths.map((width) => `${postMediaUrl(mediaCDN, media, width)} ${width}w`).join(', ');
}

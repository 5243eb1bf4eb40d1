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

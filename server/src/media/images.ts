import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** Avatar sizes in pixels (SPEC §7 Media: 60, 120, 500), served with `?t=<size>`. */
export const avatarSizes = [60, 120, 500] as const;
export type AvatarSize = (typeof avatarSizes)[number];

/** The storage key of a media file, or of one of its sizes. */
export function mediaKey(hash: string, format: string, variant?: string | number): string {
  return variant === undefined ? `${hash}.${format}` : `${hash}-${variant}.${format}`;
}

/** Content-derived, so regenerating the same picture gives the same address. */
export function contentHash(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 32);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An SVG avatar: initials on a diagonal gradient. */
export function initialsSvg(initials: string, from: string, to: string, size = 500): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 500 500">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="500" height="500" fill="url(#g)"/>
  <circle cx="420" cy="80" r="150" fill="#fff" fill-opacity="0.08"/>
  <circle cx="60" cy="470" r="120" fill="#000" fill-opacity="0.07"/>
  <text x="250" y="250" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="bold" font-size="190" fill="#fff" fill-opacity="0.95">${escapeXml(initials)}</text>
</svg>`;
}

export interface RenderedImage {
  hash: string;
  format: 'webp';
  width: number;
  height: number;
  /** The full-size picture under `mediaKey(hash, format)` and each size under its variant key. */
  files: { key: string; data: Buffer }[];
}

/** Renders a square SVG into WebP at full size (500 px) and every avatar size. */
export async function renderAvatar(svg: string): Promise<RenderedImage> {
  const source = Buffer.from(svg);
  const full = await sharp(source).resize(500, 500).webp({ quality: 86 }).toBuffer();
  const hash = contentHash(full);
  const files = [{ key: mediaKey(hash, 'webp'), data: full }];
  for (const size of avatarSizes) {
    const data = size === 500 ? full : await sharp(source).resize(size, size).webp({ quality: 86 }).toBuffer();
    files.push({ key: mediaKey(hash, 'webp', size), data });
  }
  return { hash, format: 'webp', width: 500, height: 500, files };
}

/** Renders an SVG into a square WebP of the given size. */
export async function renderPicture(svg: string, size: number): Promise<Buffer> {
  return sharp(Buffer.from(svg)).resize(size, size).webp({ quality: 90 }).toBuffer();
}

const contentTypes: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  avif: 'image/avif',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  m4a: 'audio/mp4',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
};

export function contentTypeOf(format: string): string | undefined {
  return contentTypes[format.toLowerCase()];
}

import { createHash } from 'node:crypto';
import sharp, { type Metadata, type Sharp } from 'sharp';
import type { MediaStorage } from './storage';

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

/**
 * Every avatar size from one square source: the 500 px picture is the full-size file and
 * the hash is taken from it, so the same picture always lands at the same address.
 */
async function renderAvatarSizes(source: () => Sharp): Promise<RenderedImage> {
  const full = await source().resize(500, 500).webp({ quality: 86 }).toBuffer();
  const hash = contentHash(full);
  const files = [{ key: mediaKey(hash, 'webp'), data: full }];
  for (const size of avatarSizes) {
    const data = size === 500 ? full : await source().resize(size, size).webp({ quality: 86 }).toBuffer();
    files.push({ key: mediaKey(hash, 'webp', size), data });
  }
  return { hash, format: 'webp', width: 500, height: 500, files };
}

/** Renders a square SVG into WebP at full size (500 px) and every avatar size. */
export async function renderAvatar(svg: string): Promise<RenderedImage> {
  const source = Buffer.from(svg);
  return renderAvatarSizes(() => sharp(source));
}

/** Limits of an uploaded avatar. */
export const avatarUploadLimits = {
  bytes: 10 * 1024 * 1024,
  /** Decoding stops past this many pixels, so a small file cannot unpack into gigabytes. */
  pixels: 40_000_000,
  /** The shorter side must be at least the middle avatar size, or the picture would be blown up. */
  minSide: 120,
} as const;

/** Formats an avatar may arrive in, as sharp names them after reading the bytes. */
const uploadFormats: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'heif']);

export type AvatarUploadProblem = 'wrong_media_type' | 'lowRes' | 'payload-too-large';

export class AvatarUploadError extends Error {
  override name = 'AvatarUploadError';
  constructor(readonly problem: AvatarUploadProblem) {
    super(problem);
  }
}

/**
 * Turns an uploaded picture into the avatar sizes. The type is read from the bytes, never
 * from the file name or the declared type; the picture is turned upright by its EXIF
 * orientation, cut to a centred square, and re-encoded, which leaves every metadata field
 * (location, camera, embedded profiles) behind.
 */
export async function renderUploadedAvatar(data: Buffer): Promise<RenderedImage> {
  const open = () => sharp(data, { limitInputPixels: avatarUploadLimits.pixels, failOn: 'error' });
  let metadata: Metadata;
  try {
    // Only the header is read here, so the pixel limit is checked below with a clear answer.
    metadata = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw new AvatarUploadError('wrong_media_type');
  }
  if (metadata.format === undefined || !uploadFormats.has(metadata.format)) throw new AvatarUploadError('wrong_media_type');
  const { width, height } = metadata;
  if (width === undefined || height === undefined) throw new AvatarUploadError('wrong_media_type');
  if (width * height > avatarUploadLimits.pixels) throw new AvatarUploadError('payload-too-large');
  if (Math.min(width, height) < avatarUploadLimits.minSide) throw new AvatarUploadError('lowRes');
  let upright: Buffer;
  try {
    // Decoded once (rotated and squared) so the sizes are scaled from pixels, not re-decoded.
    const side = Math.min(width, height);
    upright = await open()
      .rotate()
      .resize(side, side, { fit: 'cover', position: 'centre' })
      .png({ compressionLevel: 0 })
      .toBuffer();
  } catch {
    // Valid headers over broken or undecodable data (e.g. HEVC-coded HEIF without a decoder).
    throw new AvatarUploadError('wrong_media_type');
  }
  return renderAvatarSizes(() => sharp(upright));
}

/** Writes every file of a rendered picture to the media storage. */
export async function storeRendered(storage: MediaStorage, image: RenderedImage): Promise<void> {
  for (const file of image.files) await storage.put(file.key, file.data);
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

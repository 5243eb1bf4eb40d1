/**
 * What the media pipeline makes of an upload, and what every step of it shares: the limits an
 * upload is held to, the variants stored next to each original and their storage keys, the
 * shape of a processed media, and the rejection that turns it into status 4 with a reason.
 */
import { randomBytes } from 'node:crypto';
import type { UploadProblem } from '../../../lib/contract/media';
import { mediaKey } from './images';

export const mediaLimits = {
  /** Decoding stops past this many pixels, so a small file cannot unpack into gigabytes. */
  imagePixels: 50_000_000,
  /** SPEC §5/§9: a side under 400 px is low resolution (level 100 is exempt). */
  minSide: 400,
  /** SPEC §5: videos over 35 minutes are refused; voice notes are held to the same. */
  maxVideoSeconds: 2100,
  /** The served original is at most this long a side: enough for any screen, far less to store. */
  originalMaxSide: 2560,
} as const;

/** Picture widths served with `?t=` (never upscaled: a narrow picture keeps its width). */
export const widthVariants = [320, 640, 1280] as const;

/**
 * Stored variants. `ogb` is the blurred Open Graph picture: both are made up front, so a
 * price set later never needs the source again and `t=og` picks by the current price.
 */
export const imageVariants = ['320', '640', '1280', 'blur', 'og', 'ogb'] as const;
export const videoVariants = ['poster', 'blur', 'og', 'ogb'] as const;
/** A voice note is its sound alone: no pictures, so a locked one shows nothing but its length. */
export const voiceVariants = [] as const;

function variantsOf(mediaType: string): readonly string[] {
  if (mediaType === 'voice') return voiceVariants;
  return mediaType === 'video' ? videoVariants : imageVariants;
}

/** Every storage key of a media: the original and its variants. */
export function mediaKeys(hash: string, format: string, mediaType: string): string[] {
  // Posters and previews of a video are pictures, stored as WebP next to the video.
  const variantFormat = mediaType === 'video' ? 'webp' : format;
  return [mediaKey(hash, format), ...variantsOf(mediaType).map((variant) => mediaKey(hash, variantFormat, variant))];
}

/**
 * The storage key behind a served address, or null when the media has no such variant (a
 * voice note has none, so its `blur` and `og` are 404, never its sound). Variants of a video
 * are WebP pictures.
 */
export function servedKey(hash: string, format: string, mediaType: string, variant: string | undefined, locked: boolean): string | null {
  if (variant === undefined) return mediaKey(hash, format);
  const stored = variant === 'og' && locked ? 'ogb' : variant;
  if (mediaType === 'voice' && !variantsOf(mediaType).includes(stored)) return null;
  return mediaKey(hash, mediaType === 'video' ? 'webp' : format, stored);
}

export class MediaRejection extends Error {
  override name = 'MediaRejection';
  constructor(readonly reason: UploadProblem) {
    super(reason);
  }
}

/** Post and chat media get random hashes: the unique hash index must not tie two uploads of one file. */
export function newMediaHash(): string {
  return randomBytes(16).toString('hex');
}

export type DetectedMediaType = 'image' | 'video' | 'voice';

export interface ProcessedMedia {
  mediaType: DetectedMediaType;
  format: string;
  width: number;
  height: number;
  aspectRatio: number;
  dominantColor: string;
  duration: number | null;
  /** Files to store, by variant (undefined = the original). */
  files: { variant?: string; data?: Buffer; file?: string; format: string }[];
}

export interface ProcessOptions {
  /** Level 100 (support) may post pictures under 400 px (SPEC §5). */
  exemptLowRes?: boolean;
}

/** Image formats accepted from uploads, as sharp names them after reading the bytes. */
export const imageFormats: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'heif', 'gif']);

/**
 * The media pipeline: an uploaded picture, video or voice note becomes a media row and its
 * served files. Nothing of the upload is served as it came: pictures are decoded and
 * re-encoded (which leaves EXIF — location included — behind), videos are remuxed without
 * their metadata, voice notes are re-encoded to one format without theirs. Every served
 * file lives under `mediaKey(hash, format, variant)`.
 *
 * This module records a media and finishes it as ready or rejected; the steps are modules of
 * their own, re-exported here for the media feature and the tests: ./processed.ts (limits,
 * variants, keys, the rejection), ./pictures.ts, ./probe.ts (ffmpeg, ffprobe and what an
 * upload is), ./video.ts and ./voice.ts.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { MediaPurpose } from '../../../lib/contract/media';
import type { AppContext } from '../context';
import { media, type MediaRow } from '../db/schema';
import { mediaTypeAllowedFor } from '../features/media/domain';
import { mediaKey } from './images';
import { processImage } from './pictures';
import { detectMediaType } from './probe';
import { MediaRejection, newMediaHash, type DetectedMediaType, type ProcessedMedia } from './processed';
import type { MediaStorage } from './storage';
import { processVideo } from './video';
import { processVoice, voiceFormat } from './voice';

export {
  imageFormats,
  imageVariants,
  MediaRejection,
  mediaKeys,
  mediaLimits,
  newMediaHash,
  servedKey,
  videoVariants,
  voiceVariants,
  widthVariants,
  type DetectedMediaType,
  type ProcessedMedia,
  type ProcessOptions,
} from './processed';
export { processImage } from './pictures';
export { detectMediaType, ffmpegPath, ffprobePath, videoContainerOf } from './probe';
export { processVideo } from './video';
export { processVoice, voiceFormat } from './voice';

/** Stores the files of a processed media, naming in `stored` each key as it is written. */
async function storeProcessed(storage: MediaStorage, hash: string, processed: ProcessedMedia, stored: string[]): Promise<void> {
  for (const f of processed.files) {
    const key = mediaKey(hash, f.format, f.variant);
    stored.push(key);
    if (f.file !== undefined) await storage.putFile(key, f.file);
    else if (f.data !== undefined) await storage.put(key, f.data);
  }
}

export interface CreateMediaOptions {
  /** Cents; the caller checks it against the price steps and the owner's seller state. */
  price?: number;
  /** post (default) or chat: the media's kind, which decides its price steps later. */
  purpose?: MediaPurpose;
  exemptLowRes?: boolean;
  /** The browser could not play the video (SPEC §4 Upload flow); kept on the row. */
  unsupported?: boolean;
}

/**
 * Tells the owner's pages that a media left "being added" (5), after the row is written (SPEC §7
 * `mediaChange`): a page that lost the upload's answer, or another tab, learns it is ready (3) or
 * rejected (4) without asking again.
 */
function announceStatus(ctx: AppContext, ownerId: number, mediaId: number, mediaStatus: 3 | 4): void {
  ctx.realtime.publish(ownerId, { type: 'eventMessage', event: 'mediaChange', userId: ownerId, data: { mediaId, mediaStatus } });
}

/**
 * Records a media (status 5 while it is made), processes the input and finishes it as
 * status 3 (ready) or 4 (rejected, with the reason). `process` gets a scratch folder
 * removed afterwards. Unexpected failures (storage down) remove the row and are thrown.
 */
async function createMedia(
  ctx: AppContext,
  ownerId: number,
  mediaType: DetectedMediaType,
  options: CreateMediaOptions,
  process: (workDir: string) => Promise<ProcessedMedia>,
): Promise<MediaRow> {
  const hash = newMediaHash();
  const [row] = await ctx.db
    .insert(media)
    .values({
      hash,
      ownerId,
      kind: options.purpose ?? 'post',
      mediaType,
      format: mediaType === 'video' ? 'mp4' : mediaType === 'voice' ? voiceFormat : 'webp',
      width: 0,
      height: 0,
      status: 5,
      price: options.price ?? 0,
      unsupported: options.unsupported ?? false,
    })
    .returning({ id: media.id });
  const id = row!.id;
  const stored: string[] = [];
  const workDir = await mkdtemp(path.join(tmpdir(), 'fanstage-media-'));
  try {
    const processed = await process(workDir);
    await storeProcessed(ctx.storage, hash, processed, stored);
    const [done] = await ctx.db
      .update(media)
      .set({
        status: 3,
        mediaType: processed.mediaType,
        format: processed.format,
        width: processed.width,
        height: processed.height,
        aspectRatio: processed.aspectRatio,
        dominantColor: processed.dominantColor,
        duration: processed.duration,
      })
      .where(eq(media.id, id))
      .returning();
    announceStatus(ctx, ownerId, id, 3);
    return done!;
  } catch (error) {
    if (error instanceof MediaRejection) {
      const [rejected] = await ctx.db.update(media).set({ status: 4, rejectReason: error.reason }).where(eq(media.id, id)).returning();
      announceStatus(ctx, ownerId, id, 4);
      return rejected!;
    }
    // Whatever was stored of it goes with the row: nothing half-written stays behind.
    await ctx.db.delete(media).where(eq(media.id, id));
    for (const key of stored) await ctx.storage.delete(key).catch(() => {});
    throw error;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * A picture (any of JPEG, PNG, WebP, HEIF, GIF as bytes) turned into a media of `ownerId`:
 * status 3 with its files stored, or status 4 with `rejectReason`. Prices are not checked
 * here — routes check them against the price steps; seeded content passes a step.
 */
export async function createImageMedia(ctx: AppContext, ownerId: number, data: Buffer, options: CreateMediaOptions = {}): Promise<MediaRow> {
  return createMedia(ctx, ownerId, 'image', options, () => processImage(data, options));
}

/**
 * An uploaded file on local disk (picture, video or voice note, read from its bytes) turned
 * into a media. A voice note for anything but chat is refused as wrong_media_type.
 */
export async function createMediaFromFile(ctx: AppContext, ownerId: number, file: string, options: CreateMediaOptions = {}): Promise<MediaRow> {
  const type = await detectMediaType(file);
  if (type === 'voice') {
    if (!mediaTypeAllowedFor(type, options.purpose ?? 'post')) return createMedia(ctx, ownerId, 'voice', options, () => Promise.reject(new MediaRejection('wrong_media_type')));
    return createMedia(ctx, ownerId, 'voice', options, (workDir) => processVoice(file, workDir));
  }
  // Pictures are decoded from memory: uploads are held to the image size limit.
  if (type === 'image') return createMedia(ctx, ownerId, 'image', options, async () => processImage(await readFile(file), options));
  if (type === 'video') return createMedia(ctx, ownerId, 'video', options, (workDir) => processVideo(file, workDir, options));
  return createMedia(ctx, ownerId, 'image', options, () => Promise.reject(new MediaRejection('wrong_media_type')));
}

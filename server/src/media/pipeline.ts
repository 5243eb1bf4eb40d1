import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, open as openFile, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp, { type Sharp } from 'sharp';
import type { MediaPurpose, UploadProblem } from '../../../lib/contract/media';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { media, type MediaRow } from '../db/schema';
import { mediaTypeAllowedFor, mediaTypeOfProbe, type ProbedStreams } from '../features/media/domain';
import { mediaKey } from './images';
import type { MediaStorage } from './storage';
import { mediaTools, type MediaToolName } from './tools';

/**
 * The media pipeline: an uploaded picture, video or voice note becomes a media row and its
 * served files. Nothing of the upload is served as it came: pictures are decoded and
 * re-encoded (which leaves EXIF — location included — behind), videos are remuxed without
 * their metadata, voice notes are re-encoded to one format without theirs. Every served
 * file lives under `mediaKey(hash, format, variant)`.
 */

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

function hex(value: number): string {
  return Math.max(0, Math.min(255, Math.round(value)))
    .toString(16)
    .padStart(2, '0');
}

/** The blurred Open Graph picture: shrunk first, so blurring costs nothing and reveals nothing. */
async function blurredOg(picture: () => Sharp): Promise<Buffer> {
  const tiny = await picture().resize(48, 25, { fit: 'cover' }).blur(2).png().toBuffer();
  return sharp(tiny).resize(1200, 630).blur(6).webp({ quality: 60 }).toBuffer();
}

/** The small, heavily blurred preview shown in place of locked media and while loading. */
async function blurPreview(picture: () => Sharp): Promise<Buffer> {
  return picture().resize(64, 64, { fit: 'inside' }).blur(4).webp({ quality: 40 }).toBuffer();
}

async function previews(picture: () => Sharp): Promise<ProcessedMedia['files']> {
  return [
    { variant: 'blur', data: await blurPreview(picture), format: 'webp' },
    { variant: 'og', data: await picture().resize(1200, 630, { fit: 'cover' }).webp({ quality: 80 }).toBuffer(), format: 'webp' },
    { variant: 'ogb', data: await blurredOg(picture), format: 'webp' },
  ];
}

/** Decodes a picture upright, capped at the original's size, as raw pixels to derive every variant from. */
async function decodeUpright(input: Buffer | string, options: ProcessOptions): Promise<{ picture: () => Sharp; width: number; height: number; dominantColor: string }> {
  let format: string | undefined;
  let width: number;
  let height: number;
  try {
    // Only the header is read here, so the pixel limit gets a clear answer below.
    const metadata = await sharp(input, { limitInputPixels: false }).metadata();
    format = metadata.format;
    width = metadata.autoOrient?.width ?? metadata.width ?? 0;
    height = metadata.autoOrient?.height ?? metadata.height ?? 0;
  } catch {
    throw new MediaRejection('wrong_media_type');
  }
  if (format === undefined || !imageFormats.has(format)) throw new MediaRejection('wrong_media_type');
  if (width === 0 || height === 0 || width * height > mediaLimits.imagePixels) throw new MediaRejection('format');
  if (!options.exemptLowRes && Math.min(width, height) < mediaLimits.minSide) throw new MediaRejection('lowRes');
  try {
    const { data, info } = await sharp(input, { limitInputPixels: mediaLimits.imagePixels, failOn: 'error' })
      .rotate()
      .resize(mediaLimits.originalMaxSide, mediaLimits.originalMaxSide, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels };
    const picture = () => sharp(data, { raw });
    const { dominant } = await picture().stats();
    return { picture, width: info.width, height: info.height, dominantColor: `#${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}` };
  } catch {
    // Valid headers over broken or undecodable data (e.g. HEVC-coded HEIF without a decoder).
    throw new MediaRejection('format');
  }
}

/** A picture as media: the re-encoded original, its widths, the blurred preview and both Open Graph pictures. */
export async function processImage(input: Buffer | string, options: ProcessOptions = {}): Promise<ProcessedMedia> {
  const { picture, width, height, dominantColor } = await decodeUpright(input, options);
  const files: ProcessedMedia['files'] = [{ data: await picture().webp({ quality: 85 }).toBuffer(), format: 'webp' }];
  for (const w of widthVariants) {
    files.push({ variant: String(w), data: await picture().resize({ width: w, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer(), format: 'webp' });
  }
  files.push(...(await previews(picture)));
  return { mediaType: 'image', format: 'webp', width, height, aspectRatio: width / height, dominantColor, duration: null, files };
}

function run(file: string, args: string[], options: { timeoutMs: number; maxBuffer?: number; binary?: boolean }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { timeout: options.timeoutMs, maxBuffer: options.maxBuffer ?? 8 * 1024 * 1024, encoding: 'buffer', killSignal: 'SIGKILL' },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
}

// Chosen in tools.ts (FFMPEG_PATH, the PATH, then the npm builds), each checked with -version.
// With none, the bare name stays here so a call fails plainly, but requireTools() refuses first.
export const ffmpegPath = mediaTools().ffmpeg.path ?? 'ffmpeg';
export const ffprobePath = mediaTools().ffprobe.path ?? 'ffprobe';

/**
 * Videos and voice notes need the tools; without them such an upload is refused with a
 * message key that says so (503: the server's set-up, not the file), never read as a bad file.
 */
function requireTools(...names: MediaToolName[]): void {
  if (names.some((name) => mediaTools()[name].path === null)) throw new AppError('media-processing-unavailable');
}

/**
 * Inputs may be read from local files only: a crafted upload must not make ffmpeg fetch
 * addresses or open other files (playlists and references inside containers can ask for both).
 */
const localOnly = ['-protocol_whitelist', 'file'];

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  channels?: number;
  disposition?: { attached_pic?: number };
  width?: number;
  height?: number;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface Probe {
  format?: { format_name?: string; duration?: string };
  streams?: ProbeStream[];
}

/** Reads a file's container and streams with ffprobe (local files only); a file it cannot read is `format`. */
async function probeFile(file: string): Promise<Probe> {
  try {
    const out = await run(ffprobePath, ['-v', 'error', ...localOnly, '-print_format', 'json', '-show_format', '-show_streams', file], { timeoutMs: 30_000 });
    return JSON.parse(out.toString('utf8')) as Probe;
  } catch {
    throw new MediaRejection('format');
  }
}

function probedStreams(probe: Probe): ProbedStreams {
  return {
    formatName: probe.format?.format_name,
    streams: (probe.streams ?? []).map((s) => ({ codecType: s.codec_type, codecName: s.codec_name, attachedPic: s.disposition?.attached_pic === 1 })),
  };
}

/** Video containers by their first bytes: ISO BMFF (`ftyp`: mp4, m4v, mov) and WebM (EBML). */
export function videoContainerOf(head: Buffer): 'mp4' | 'webm' | null {
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12);
    // HEIF/AVIF pictures are ISO BMFF too; they are pictures, not videos.
    if (/^(heic|heix|hevc|hevx|mif1|msf1|avif|avis)$/.test(brand)) return null;
    return 'mp4';
  }
  // Older QuickTime files may open with another atom instead of `ftyp`.
  if (head.length >= 8 && /^(moov|mdat|wide|free|skip)$/.test(head.toString('latin1', 4, 8))) return 'mp4';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return head.includes('webm', 0, 'latin1') ? 'webm' : null;
  return null;
}

async function readHead(file: string, bytes = 64): Promise<Buffer> {
  const handle = await openFile(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * What the bytes of an upload are, without decoding them: image, video, voice or null
 * (refused). Pictures are told by sharp; videos and sounds by ffprobe (`mediaTypeOfProbe`).
 */
export async function detectMediaType(file: string): Promise<DetectedMediaType | null> {
  try {
    const metadata = await sharp(file, { limitInputPixels: false }).metadata();
    if (metadata.format !== undefined && imageFormats.has(metadata.format)) return 'image';
  } catch {
    // Not a picture sharp knows; maybe a video or a sound.
  }
  requireTools('ffprobe');
  const container = videoContainerOf(await readHead(file));
  const probe = await probeFile(file).then(probedStreams, () => null);
  return mediaTypeOfProbe(container, probe);
}

/**
 * A video as media: measured with ffprobe, remuxed (never re-encoded) without metadata and
 * with the index up front so playback starts before the download ends, plus a poster frame
 * and its previews.
 */
export async function processVideo(file: string, workDir: string, options: ProcessOptions = {}): Promise<ProcessedMedia> {
  requireTools('ffprobe', 'ffmpeg');
  const container = videoContainerOf(await readHead(file));
  if (container === null) throw new MediaRejection('wrong_media_type');
  const probe = await probeFile(file);
  const video = probe.streams?.find((s) => s.codec_type === 'video');
  const duration = Number(probe.format?.duration);
  if (video?.width === undefined || video.height === undefined || !Number.isFinite(duration) || duration <= 0) throw new MediaRejection('format');
  if (duration > mediaLimits.maxVideoSeconds) throw new MediaRejection('tooLong');
  const rotation = Math.abs(Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0)) % 180;
  const [width, height] = rotation === 90 ? [video.height, video.width] : [video.width, video.height];
  if (!options.exemptLowRes && Math.min(width, height) < mediaLimits.minSide) throw new MediaRejection('lowRes');

  const output = path.join(workDir, `video.${container}`);
  try {
    await run(
      ffmpegPath,
      ['-v', 'error', '-y', ...localOnly, '-i', file, '-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-map_metadata', '-1', '-map_chapters', '-1',
        ...(container === 'mp4' ? ['-movflags', '+faststart', '-f', 'mp4'] : ['-f', 'webm']), output],
      { timeoutMs: 300_000 },
    );
  } catch {
    // Codecs the container cannot carry, or a broken file.
    throw new MediaRejection('format');
  }
  let poster: Buffer;
  try {
    const at = Math.min(1, duration / 2).toFixed(3);
    poster = await run(ffmpegPath, ['-v', 'error', ...localOnly, '-ss', at, '-i', output, '-frames:v', '1', '-f', 'image2', '-c:v', 'png', 'pipe:1'], {
      timeoutMs: 60_000,
      maxBuffer: 128 * 1024 * 1024,
    });
    if (poster.length === 0) throw new Error('no frame');
  } catch {
    throw new MediaRejection('format');
  }
  const upright = await decodeUpright(poster, { exemptLowRes: true });
  const files: ProcessedMedia['files'] = [
    { file: output, format: container },
    { variant: 'poster', data: await upright.picture().resize(1280, 1280, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 82 }).toBuffer(), format: 'webp' },
    ...(await previews(upright.picture)),
  ];
  return { mediaType: 'video', format: container, width, height, aspectRatio: width / height, dominantColor: upright.dominantColor, duration, files };
}

/**
 * Voice notes are served as AAC in M4A (`audio/mp4`): the one pairing every browser plays —
 * Safari, iOS included, and older WebKit views play no Opus in WebM or Ogg, while Chrome,
 * Firefox and Edge all play AAC — and phones decode it in hardware. Opus would be smaller
 * for speech, but a note some fans cannot play is worth less than a few kilobytes.
 */
export const voiceFormat = 'm4a';

/** Mono or stereo, 48 kHz, 96 kbit/s: clear speech (and music) at about 0.7 MB a minute. */
const voiceEncoding = ['-c:a', 'aac', '-b:a', '96k', '-ar', '48000'];

/**
 * The length of a sound in seconds. Recorders in browsers write WebM without a duration in
 * its header; then the sound is copied (not decoded, so it is quick) into a Matroska file
 * that gets one.
 */
async function soundSeconds(file: string, demuxer: string, probe: Probe, workDir: string): Promise<number> {
  const declared = Number(probe.format?.duration);
  if (Number.isFinite(declared) && declared > 0) return declared;
  const measured = path.join(workDir, 'measure.mka');
  try {
    await run(ffmpegPath, ['-v', 'error', '-y', ...localOnly, '-f', demuxer, '-i', file, '-map', '0:a:0', '-c', 'copy', '-f', 'matroska', measured], { timeoutMs: 60_000 });
  } catch {
    throw new MediaRejection('format');
  }
  return Number((await probeFile(measured)).format?.duration);
}

/**
 * A voice note as media: identified by ffprobe (a sound of a taken codec in a taken container,
 * no picture stream), measured, and re-encoded to AAC in M4A with nothing of the upload's
 * metadata (tags, cover art, chapters). A header can lie about the length, so the encoder
 * stops a second past the limit and the re-encoded file is measured again.
 */
export async function processVoice(file: string, workDir: string): Promise<ProcessedMedia> {
  requireTools('ffprobe', 'ffmpeg');
  const probe = await probeFile(file);
  const probed = probedStreams(probe);
  if (mediaTypeOfProbe(videoContainerOf(await readHead(file)), probed) !== 'voice') throw new MediaRejection('wrong_media_type');
  // The demuxer ffprobe named is the only one used, so the bytes cannot be read as another format.
  const demuxer = probed.formatName!.split(',')[0]!;
  const seconds = await soundSeconds(file, demuxer, probe, workDir);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new MediaRejection('format');
  if (seconds > mediaLimits.maxVideoSeconds) throw new MediaRejection('tooLong');
  const sound = probe.streams?.find((s) => s.codec_type === 'audio');
  const channels = Math.min(2, Math.max(1, sound?.channels ?? 1));
  const output = path.join(workDir, `voice.${voiceFormat}`);
  try {
    await run(
      ffmpegPath,
      ['-v', 'error', '-y', ...localOnly, '-f', demuxer, '-i', file, '-map', '0:a:0', '-vn', '-sn', '-dn', '-t', String(mediaLimits.maxVideoSeconds + 1),
        ...voiceEncoding, '-ac', String(channels), '-map_metadata', '-1', '-map_chapters', '-1', '-fflags', '+bitexact', '-movflags', '+faststart', '-f', 'ipod', output],
      { timeoutMs: 300_000 },
    );
  } catch {
    throw new MediaRejection('format');
  }
  const duration = Number((await probeFile(output)).format?.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw new MediaRejection('format');
  if (duration > mediaLimits.maxVideoSeconds) throw new MediaRejection('tooLong');
  return { mediaType: 'voice', format: voiceFormat, width: 0, height: 0, aspectRatio: 1, dominantColor: '#808080', duration, files: [{ file: output, format: voiceFormat }] };
}

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

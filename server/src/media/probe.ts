/**
 * Running ffmpeg and ffprobe for the media pipeline (the tools chosen in ./tools.ts, reading
 * local files only), and telling what an upload's bytes are — picture, video or voice note —
 * without decoding them.
 */
import { execFile } from 'node:child_process';
import { open as openFile } from 'node:fs/promises';
import sharp from 'sharp';
import { AppError } from '../errors';
import { mediaTypeOfProbe, type ProbedStreams } from '../features/media/domain';
import { imageFormats, MediaRejection, type DetectedMediaType } from './processed';
import { mediaTools, type MediaToolName } from './tools';

export function run(file: string, args: string[], options: { timeoutMs: number; maxBuffer?: number; binary?: boolean }): Promise<Buffer> {
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
export function requireTools(...names: MediaToolName[]): void {
  if (names.some((name) => mediaTools()[name].path === null)) throw new AppError('media-processing-unavailable');
}

/**
 * Inputs may be read from local files only: a crafted upload must not make ffmpeg fetch
 * addresses or open other files (playlists and references inside containers can ask for both).
 */
export const localOnly = ['-protocol_whitelist', 'file'];

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

export interface Probe {
  format?: { format_name?: string; duration?: string };
  streams?: ProbeStream[];
}

/** Reads a file's container and streams with ffprobe (local files only); a file it cannot read is `format`. */
export async function probeFile(file: string): Promise<Probe> {
  try {
    const out = await run(ffprobePath, ['-v', 'error', ...localOnly, '-print_format', 'json', '-show_format', '-show_streams', file], { timeoutMs: 30_000 });
    return JSON.parse(out.toString('utf8')) as Probe;
  } catch {
    throw new MediaRejection('format');
  }
}

export function probedStreams(probe: Probe): ProbedStreams {
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

export async function readHead(file: string, bytes = 64): Promise<Buffer> {
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

/**
 * Videos in the media pipeline: measured with ffprobe, remuxed without their metadata (never
 * re-encoded), with a poster frame and the pictures' previews made from it.
 */
import path from 'node:path';
import { decodeUpright, previews } from './pictures';
import { ffmpegPath, localOnly, probeFile, readHead, requireTools, run, videoContainerOf } from './probe';
import { MediaRejection, mediaLimits, type ProcessedMedia, type ProcessOptions } from './processed';

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

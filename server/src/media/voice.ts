/**
 * Voice notes in the media pipeline: identified and measured with ffprobe, and re-encoded to one
 * format every browser plays (AAC in M4A) with nothing of the upload's metadata.
 */
import path from 'node:path';
import { mediaTypeOfProbe } from '../features/media/domain';
import { ffmpegPath, localOnly, probedStreams, probeFile, readHead, requireTools, run, videoContainerOf, type Probe } from './probe';
import { MediaRejection, mediaLimits, type ProcessedMedia } from './processed';

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

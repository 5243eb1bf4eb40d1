import type { ByteRange } from '../../media/storage';
import { priceSteps, type PriceKind } from '../../../../lib/contract/rules/price';

/** `<hash>.<format>`: hashes are lowercase hex, formats short lowercase words. */
const mediaFilePattern = /^([a-f0-9]{16,64})\.([a-z0-9]{2,5})$/;
const giftFilePattern = /^[a-z0-9][a-z0-9-]{0,62}\.[a-z0-9]{2,5}$/;

export function parseMediaFile(file: string): { hash: string; format: string } | null {
  const match = mediaFilePattern.exec(file);
  return match ? { hash: match[1]!, format: match[2]! } : null;
}

export function isGiftFile(file: string): boolean {
  return giftFilePattern.test(file);
}

/** Media statuses that may be shown to others (SPEC §4: 3 ready, 7 NSFW ready). */
export const servableStatuses: readonly number[] = [3, 7];

/** Content-addressed files never change, so they may be cached for a year. */
export const immutableCache = 'public, max-age=31536000, immutable';


/** Responses opened with an unlock key are the viewer's own: no shared cache may keep them. */
export const keyedCache = 'private, max-age=3600';

/**
 * Whether a variant needs the unlock key: everything of a priced media except the blurred
 * preview and the Open Graph picture (which is blurred too while the media is priced).
 */
export function needsUnlockKey(price: number, variant: string | undefined): boolean {
  return price > 0 && variant !== 'blur' && variant !== 'og';
}

/**
 * What ffprobe tells of an upload, reduced to what deciding its type needs: the demuxer's
 * name (`format_name`) and each stream's kind and codec.
 */
export interface ProbedStreams {
  formatName: string | undefined;
  streams: { codecType: string | undefined; codecName: string | undefined; attachedPic: boolean }[];
}

/**
 * Audio containers taken as voice notes, by ffprobe's `format_name`: WebM/Matroska (what
 * browsers record), Ogg, MP3, MP4/M4A, WAV and raw ADTS AAC. Anything else ffmpeg might
 * read (playlists, images, text) is not a voice note.
 */
export const voiceContainers: ReadonlySet<string> = new Set(['matroska,webm', 'ogg', 'mp3', 'mov,mp4,m4a,3gp,3g2,mj2', 'wav', 'aac']);

/** Audio codecs taken in those containers (PCM of any sample layout, as WAV carries it). */
export function isVoiceCodec(codec: string | undefined): boolean {
  return codec !== undefined && (['opus', 'vorbis', 'aac', 'mp3', 'flac'].includes(codec) || /^pcm_[a-z0-9]+$/.test(codec));
}

/**
 * What probed bytes are as media. A real picture stream in a known video container
 * (`container`, from the first bytes) is a video; no picture stream but a sound of a taken
 * codec in a taken container is a voice note (an MP3's cover art is no picture stream).
 * A known video container ffprobe could not read stays a video, refused as `format` when it
 * is processed; anything else is null (wrong_media_type).
 */
export function mediaTypeOfProbe(container: 'mp4' | 'webm' | null, probe: ProbedStreams | null): 'video' | 'voice' | null {
  const streams = probe?.streams ?? [];
  const hasPicture = streams.some((s) => s.codecType === 'video' && !s.attachedPic);
  if (hasPicture) return container === null ? null : 'video';
  const hasSound = streams.some((s) => s.codecType === 'audio' && isVoiceCodec(s.codecName));
  if (hasSound && probe?.formatName !== undefined && voiceContainers.has(probe.formatName)) return 'voice';
  return container === null ? null : 'video';
}

/** Voice notes belong in chat: posts are pictures and videos. */
export function mediaTypeAllowedFor(mediaType: 'image' | 'video' | 'voice', purpose: string): boolean {
  return mediaType !== 'voice' || purpose === 'chat';
}

/** The price list a media's price must come from: chat media and post media have their own. */
export function priceKindOf(purposeOrKind: string): PriceKind {
  return purposeOrKind === 'chat' ? 'chatMedia' : 'postMedia';
}

/**
 * Whether a price change moves a media to a new hash: from free (its files served to anyone and
 * cached publicly) to priced. A media still being added (status 5) was never served, and its
 * files are still to be written under the hash it has.
 */
export function needsNewAddress(oldPrice: number, newPrice: number, status: number): boolean {
  return oldPrice <= 0 && newPrice > 0 && status !== 5;
}

/** Why a media price is refused: not a step of its list, or priced by someone not (yet) a seller. */
export function mediaPriceProblem(price: number, purposeOrKind: string, isSeller: boolean): 'invalid-price' | 'verify-required' | null {
  if (!priceSteps[priceKindOf(purposeOrKind)].includes(price)) return 'invalid-price';
  if (price > 0 && !isSeller) return 'verify-required';
  return null;
}

/**
 * One `Range: bytes=…` over a file of `size` bytes: the inclusive offsets, `'unsatisfiable'`
 * (answer 416), or null to send the whole file (no header, several ranges, or a malformed
 * one — RFC 9110 lets a server ignore a Range it does not support).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    // A suffix: the last N bytes.
    const length = Number(match[2]);
    if (length === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

/** Stored uploads older than this were abandoned and are swept. */
export const staleUploadMs = 24 * 60 * 60_000;

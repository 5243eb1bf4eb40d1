/**
 * Pictures in the media pipeline (sharp): an upload decoded upright within the pixel limit and
 * re-encoded to WebP with its widths, which leaves every metadata field behind, and the blurred
 * preview and Open Graph pictures that videos' posters get as well.
 */
import sharp, { type Sharp } from 'sharp';
import { imageFormats, MediaRejection, mediaLimits, widthVariants, type ProcessedMedia, type ProcessOptions } from './processed';

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

export async function previews(picture: () => Sharp): Promise<ProcessedMedia['files']> {
  return [
    { variant: 'blur', data: await blurPreview(picture), format: 'webp' },
    { variant: 'og', data: await picture().resize(1200, 630, { fit: 'cover' }).webp({ quality: 80 }).toBuffer(), format: 'webp' },
    { variant: 'ogb', data: await blurredOg(picture), format: 'webp' },
  ];
}

/** Decodes a picture upright, capped at the original's size, as raw pixels to derive every variant from. */
export async function decodeUpright(input: Buffer | string, options: ProcessOptions): Promise<{ picture: () => Sharp; width: number; height: number; dominantColor: string }> {
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

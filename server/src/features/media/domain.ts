import { avatarSizes } from '../../media/images';

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

export const mediaVariants = avatarSizes.map(String);

/** Media statuses that may be shown to others (SPEC §4: 3 ready, 7 NSFW ready). */
export const servableStatuses: readonly number[] = [3, 7];

/** Content-addressed files never change, so they may be cached for a year. */
export const immutableCache = 'public, max-age=31536000, immutable';

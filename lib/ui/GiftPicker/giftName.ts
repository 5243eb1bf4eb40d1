import type { TFunction } from 'i18next';
import type { Gift } from '../../sdk';

/**
 * A gift's name in the reader's language: the catalogue's gifts are named in the strings by
 * their picture (`rose.webp` → `giftNames.rose`); a gift the strings do not know keeps the
 * server's name.
 */
export function giftName(t: TFunction, gift: Pick<Gift, 'name' | 'imageName'>): string {
  const key = gift.imageName.replace(/\.[a-z0-9]+$/i, '').replace(/[^a-z0-9_-]/gi, '');
  return key ? t(`giftNames.${key}`, { defaultValue: gift.name }) : gift.name;
}

import { HASHTAG_MAX_LENGTH, isValidHashtag } from '../../../../lib/contract/rules/hashtag';
import { isPriceStep } from '../../../../lib/contract/rules/price';

/** SPEC §9 page sizes of this feature. */
export const pageSizes = { likes: 15, comments: 30, replies: 30 } as const;

/** Replies shown under each top-level comment of a list (SPEC §9: shown automatically if fewer than 3). */
export const firstRepliesShown = 3;

/** A post keeps at most this many hashtags; more is spam, not description. */
export const maxHashtagsPerPost = 30;

/** How far ahead a post may be scheduled. */
export const maxScheduleAheadMs = 365 * 24 * 60 * 60_000;

/**
 * A `#` starts a tag only at the start of the text or after something that is not part of a
 * word, so "a#b" and "&#38;" carry no tag. The body takes the hashtag characters greedily;
 * dots at its end are the sentence's, not the tag's ("#sunset." is #sunset).
 */
const hashtagCandidates = /(?<![\p{L}\p{N}_&#])#([\p{L}\p{N}._]+)/gu;

/**
 * The hashtags of a text (SPEC §5: up to 64 letters, digits, dots and underscores, at least
 * one letter), lower-cased, each once, in order of appearance. Longer runs are not tags.
 */
export function parseHashtags(text: string): string[] {
  const tags: string[] = [];
  for (const match of text.normalize('NFC').matchAll(hashtagCandidates)) {
    const tag = match[1]!.replace(/\.+$/u, '');
    if (Array.from(tag).length > HASHTAG_MAX_LENGTH || !isValidHashtag(tag)) continue;
    const lower = tag.toLowerCase();
    if (!tags.includes(lower)) tags.push(lower);
    if (tags.length === maxHashtagsPerPost) break;
  }
  return tags;
}

/**
 * The usernames mentioned in a text, with the expression clients get from /papi/settings
 * (`regExpMentions`, whose first group is the username), lower-cased, each once.
 */
export function parseMentions(text: string, pattern: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(new RegExp(pattern, 'g'))) {
    const name = match[1]?.toLowerCase();
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

export type PricePlan = { price: number | null; notASeller: boolean } | { problem: 'invalid-price' };

/**
 * What happens to a price sent with a new post. A seller's price must be a post-media step
 * and goes to every media of the post; a non-seller's price is dropped and the answer says
 * so (SPEC §8 new_post_success_not_seller). No price leaves the media as they are.
 */
export function planPrice(price: number | undefined, isSeller: boolean, hasMedia: boolean): PricePlan {
  if (price === undefined || !hasMedia) return { price: null, notASeller: false };
  if (!isSeller) return { price: price > 0 ? 0 : null, notASeller: price > 0 };
  if (!isPriceStep('postMedia', price)) return { problem: 'invalid-price' };
  return { price, notASeller: false };
}

export type SchedulePlan = { publishedAt: Date; startDate: Date | null } | { problem: 'too-far' };

/** A start date in the future schedules the post; one in the past (or none) publishes it now. */
export function planSchedule(startDate: number | null | undefined, now: number): SchedulePlan {
  if (startDate === undefined || startDate === null || startDate <= now) return { publishedAt: new Date(now), startDate: null };
  if (startDate - now > maxScheduleAheadMs) return { problem: 'too-far' };
  return { publishedAt: new Date(startDate), startDate: new Date(startDate) };
}

/** Text as stored: trimmed, in NFC so hashtags and search see one spelling of each letter. */
export function normaliseText(text: string | undefined): string {
  return (text ?? '').normalize('NFC').trim();
}

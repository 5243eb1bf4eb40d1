/** SPEC §5: a hashtag is at most 64 characters. */
export const HASHTAG_MAX_LENGTH = 64;

/**
 * Letters of any script (Czech tags have diacritics), digits, dot and underscore, and at
 * least one letter so '2024' or '...' is not a tag. Length counts characters, not UTF-16
 * units, hence the `u` flag.
 */
const HASHTAG = /^(?=[\p{N}._]*\p{L})[\p{L}\p{N}._]{1,64}$/u;

/**
 * Whether `tag` (without its leading '#') is a valid hashtag. Text is compared in NFC so a
 * 'č' typed as 'c' plus a combining caron counts as the letter it looks like.
 */
export function isValidHashtag(tag: string): boolean {
  return HASHTAG.test(tag.normalize('NFC'));
}

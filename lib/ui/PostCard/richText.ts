// The rule's own module, not the SDK's index: the script tag's React-free feed (elements/script/feed.ts) uses this file too.
import { isValidHashtag } from '../../sdk/rules/hashtag';

/** A piece of a post's or comment's text: plain, or a link the view renders as one. */
export type TextPart =
  | { kind: 'text'; text: string }
  | { kind: 'mention'; text: string; username: string }
  | { kind: 'hashtag'; text: string; tag: string }
  | { kind: 'link'; text: string; href: string };

/** The settings' mention expression may be missing or broken; this one is the platform's default. */
const DEFAULT_MENTION = '@([A-Za-z0-9._]{3,30})';
const LINK = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/;
const HASHTAG = /#([\p{L}\p{N}._]{1,64})/u;

function mentionPattern(source: string | undefined): RegExp {
  try {
    const pattern = new RegExp(source || DEFAULT_MENTION, 'u');
    // A pattern that matches the empty string would loop forever.
    return pattern.test('') ? new RegExp(DEFAULT_MENTION, 'u') : pattern;
  } catch {
    return new RegExp(DEFAULT_MENTION, 'u');
  }
}

/**
 * Splits text into plain parts, mentions, hashtags (SPEC §5: letters, digits, dot, underscore,
 * at least one letter) and web links, earliest match first. Only http(s) addresses become
 * links, so a post cannot smuggle a `javascript:` address into a card.
 */
export function parseRichText(text: string, mentionSource?: string): TextPart[] {
  const mention = mentionPattern(mentionSource);
  const parts: TextPart[] = [];
  let rest = text;
  let plain = '';
  const flush = () => {
    if (plain) parts.push({ kind: 'text', text: plain });
    plain = '';
  };
  while (rest) {
    const candidates = [
      { kind: 'link' as const, match: LINK.exec(rest) },
      { kind: 'mention' as const, match: mention.exec(rest) },
      { kind: 'hashtag' as const, match: HASHTAG.exec(rest) },
    ].filter((c): c is { kind: 'link' | 'mention' | 'hashtag'; match: RegExpExecArray } => c.match !== null && c.match[0].length > 0);
    if (candidates.length === 0) break;
    candidates.sort((a, b) => a.match.index - b.match.index);
    const { kind, match } = candidates[0] as { kind: 'link' | 'mention' | 'hashtag'; match: RegExpExecArray };
    const before = rest.slice(0, match.index);
    const previous = (plain + before).slice(-1);
    // '#' or '@' glued to a word (an e-mail address, 'C#') is not a tag or a mention.
    const glued = kind !== 'link' && /[\p{L}\p{N}_]/u.test(previous);
    const value = match[1] ?? match[0];
    if (glued || (kind === 'hashtag' && !isValidHashtag(value))) {
      plain += before + match[0];
    } else {
      plain += before;
      flush();
      if (kind === 'link') parts.push({ kind, text: match[0], href: match[0] });
      else if (kind === 'mention') parts.push({ kind, text: match[0], username: value });
      else parts.push({ kind, text: match[0], tag: value });
    }
    rest = rest.slice(match.index + match[0].length);
  }
  plain += rest;
  flush();
  return parts;
}

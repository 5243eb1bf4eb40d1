/**
 * Share links (SPEC §3 Share inputs, SPEC §5 Share rules, SPEC §7 "Share opens each
 * network's own share URL"). Pure string work, so the server could build the same links.
 */

export interface ShareInput {
  url: string;
  /** Required by every network (SPEC §3). */
  title: string;
  description?: string;
  quote?: string;
  /** Comma-separated, without '#'. */
  hashtags?: string;
  twitterUser?: string;
  /** A picture's address, for networks that pin one. */
  media?: string;
}

export interface ShareOptions {
  /** iPhone and iPad read the SMS body after '&' instead of '?' (SPEC §5). */
  ios?: boolean;
}

export const shareNetworks = ['facebook', 'twitter', 'whatsapp', 'telegram', 'messenger', 'email', 'sms', 'linkedin', 'reddit', 'pinterest', 'viber'] as const;
export type ShareNetwork = (typeof shareNetworks)[number];

/** SPEC §9: share windows open at 626 × 436. */
export const SHARE_POPUP_WIDTH = 626;
export const SHARE_POPUP_HEIGHT = 436;

const enc = (value: string | undefined) => encodeURIComponent(value ?? '');
const NEWLINE = '%0D%0A';

function tagsOf(hashtags: string | undefined): string[] {
  return (hashtags ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^#/, ''))
    .filter((tag) => tag.length > 0);
}

function joinLines(...parts: (string | undefined)[]): string {
  return parts
    .filter((part): part is string => !!part)
    .map(enc)
    .join(NEWLINE);
}

function query(params: [string, string | undefined][]): string {
  return params
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => `${name}=${enc(value)}`)
    .join('&');
}

/**
 * The address that shares `input` on `network`. An unknown network throws
 * 'Network {name} does not exist' (SPEC §5), as a caller passing a name from outside must learn.
 */
export function shareUrl(network: string, input: ShareInput, options: ShareOptions = {}): string {
  const tags = tagsOf(input.hashtags);
  switch (network as ShareNetwork) {
    case 'facebook': {
      // Facebook takes a single hashtag, with its '#'.
      const first = tags[0];
      return `https://www.facebook.com/sharer/sharer.php?${query([
        ['u', input.url],
        ['title', input.title],
        ['description', input.description],
        ['quote', input.quote],
        ['hashtag', first ? `#${first}` : undefined],
      ])}`;
    }
    case 'twitter':
      // Empty hashtags and an empty via are left out, or Twitter shows them as typed.
      return `https://twitter.com/intent/tweet?${query([
        ['text', input.title],
        ['url', input.url],
        ['hashtags', tags.length ? tags.join(',') : undefined],
        ['via', input.twitterUser?.trim().replace(/^@/, '') || undefined],
      ])}`;
    case 'whatsapp':
      return `https://api.whatsapp.com/send?text=${joinLines(input.title, input.url, input.description)}`;
    case 'telegram':
      return `https://t.me/share/url?url=${enc(input.url)}&text=${joinLines(input.title, input.description)}`;
    case 'messenger':
      return `fb-messenger://share/?link=${enc(input.url)}`;
    case 'email':
      return `mailto:?subject=${enc(input.title)}&body=${joinLines(input.url, input.description)}`;
    case 'sms':
      return `sms:${options.ios ? '&' : '?'}body=${joinLines(input.title, input.url, input.description)}`;
    case 'linkedin':
      return `https://www.linkedin.com/sharing/share-offsite/?url=${enc(input.url)}`;
    case 'reddit':
      return `https://www.reddit.com/submit?${query([
        ['url', input.url],
        ['title', input.title],
      ])}`;
    case 'pinterest':
      return `https://pinterest.com/pin/create/button/?${query([
        ['url', input.url],
        ['media', input.media],
        ['description', input.title],
      ])}`;
    case 'viber':
      return `viber://forward?text=${joinLines(input.title, input.url, input.description)}`;
    default:
      throw new Error(`Network ${network} does not exist`);
  }
}

/**
 * SPEC §9 utm codes: '1t' marks a shared post, then the channel: '2t' twitter, '2w' whatsapp,
 * '2m' messenger, '2n' any other network, '2i' a copied in-app link.
 */
export function shareUtm(network: ShareNetwork | 'copy'): string {
  const channel = network === 'twitter' ? '2t' : network === 'whatsapp' ? '2w' : network === 'messenger' ? '2m' : network === 'copy' ? '2i' : '2n';
  return `1t${channel}`;
}

/** A post's address on the platform as shared on `network`: `{base}/post/{id}?utm=1t2w`. */
export function postShareUrl(base: string, postId: number, network: ShareNetwork | 'copy'): string {
  return `${base.replace(/\/+$/, '')}/post/${postId}?utm=${shareUtm(network)}`;
}

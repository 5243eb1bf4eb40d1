import { describe, expect, it } from 'vitest';
import { postShareUrl, shareNetworks, shareUrl, shareUtm, SHARE_POPUP_HEIGHT, SHARE_POPUP_WIDTH } from '../../lib/sdk';

const input = { url: 'https://fanstage.example/post/7', title: 'A post by Lucy', description: 'New photos', hashtags: 'art, ,#summer,', twitterUser: '' };

describe('share links', () => {
  it('refuse an unknown network with the spec\'s message', () => {
    expect(() => shareUrl('myspace', input)).toThrow('Network myspace does not exist');
  });

  it('drop empty hashtags and an empty via on Twitter', () => {
    const url = new URL(shareUrl('twitter', input));
    expect(url.origin + url.pathname).toBe('https://twitter.com/intent/tweet');
    expect(url.searchParams.get('hashtags')).toBe('art,summer');
    expect(url.searchParams.has('via')).toBe(false);
    expect(url.searchParams.get('text')).toBe('A post by Lucy');
    expect(url.searchParams.get('url')).toBe('https://fanstage.example/post/7');
    expect(new URL(shareUrl('twitter', { ...input, twitterUser: '@fanstage' })).searchParams.get('via')).toBe('fanstage');
  });

  it('give Facebook only the first hashtag, with its hash', () => {
    const url = new URL(shareUrl('facebook', input));
    expect(url.searchParams.get('hashtag')).toBe('#art');
    expect(url.searchParams.get('u')).toBe('https://fanstage.example/post/7');
  });

  it('use another SMS separator on iPhone and iPad', () => {
    expect(shareUrl('sms', input)).toMatch(/^sms:\?body=/);
    expect(shareUrl('sms', input, { ios: true })).toMatch(/^sms:&body=/);
  });

  it('put title, address and description on separate lines where a message is composed', () => {
    expect(shareUrl('whatsapp', input)).toBe(
      `https://api.whatsapp.com/send?text=${encodeURIComponent('A post by Lucy')}%0D%0A${encodeURIComponent(input.url)}%0D%0A${encodeURIComponent('New photos')}`,
    );
    expect(shareUrl('email', input)).toBe(`mailto:?subject=${encodeURIComponent('A post by Lucy')}&body=${encodeURIComponent(input.url)}%0D%0ANew%20photos`);
  });

  it('exist for every listed network', () => {
    for (const network of shareNetworks) expect(shareUrl(network, input)).toContain(encodeURIComponent(input.url));
  });

  it('open at 626 × 436', () => {
    expect([SHARE_POPUP_WIDTH, SHARE_POPUP_HEIGHT]).toEqual([626, 436]);
  });

  it('mark the channel with the utm codes of SPEC §9', () => {
    expect(shareUtm('twitter')).toBe('1t2t');
    expect(shareUtm('whatsapp')).toBe('1t2w');
    expect(shareUtm('messenger')).toBe('1t2m');
    expect(shareUtm('telegram')).toBe('1t2n');
    expect(shareUtm('copy')).toBe('1t2i');
    expect(postShareUrl('https://fanstage.example/', 7, 'whatsapp')).toBe('https://fanstage.example/post/7?utm=1t2w');
  });
});

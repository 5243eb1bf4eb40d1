import { describe, expect, it } from 'vitest';
import { expandUtm, rewriteUtm, withoutUtmSource } from '../../host-web/landing';
import { shareUtm } from '../../lib/sdk';

describe('the utm rewrite of a landing on /', () => {
  it('turns a shared link’s utm code into utm_source, utm_medium and utm_campaign', () => {
    expect(rewriteUtm('?utm=1t2w')).toBe('?utm_medium=share&utm_campaign=post&utm_source=whatsapp');
    expect(expandUtm(shareUtm('twitter'))).toEqual({ utm_source: 'twitter', utm_medium: 'share', utm_campaign: 'post' });
    expect(expandUtm(shareUtm('copy'))).toEqual({ utm_source: 'in-app', utm_medium: 'share', utm_campaign: 'post' });
    expect(expandUtm('1p2m')).toEqual({ utm_source: 'messenger', utm_medium: 'share', utm_campaign: 'profile' });
    expect(expandUtm('1m2n')).toEqual({ utm_source: 'other', utm_medium: 'share', utm_campaign: 'own-profile' });
  });

  it('keeps the other parameters and any utm value already there, and leaves parts it does not know out', () => {
    expect(rewriteUtm('?aff=ABCDEFGH&utm=1t2t&pgw=sandbox')).toBe('?aff=ABCDEFGH&pgw=sandbox&utm_medium=share&utm_campaign=post&utm_source=twitter');
    expect(rewriteUtm('?utm=1t2w&utm_source=newsletter')).toBe('?utm_source=newsletter&utm_medium=share&utm_campaign=post');
    expect(rewriteUtm('?utm=zz')).toBe('?utm_medium=share');
    expect(rewriteUtm('?aff=ABCDEFGH')).toBeNull();
    expect(rewriteUtm('')).toBeNull();
  });

  it('takes utm_source out of the address and nothing else', () => {
    expect(withoutUtmSource('?utm_medium=share&utm_campaign=post&utm_source=whatsapp')).toBe('?utm_medium=share&utm_campaign=post');
    expect(withoutUtmSource('?utm_source=homescreen')).toBe('');
    expect(withoutUtmSource('?aff=ABCDEFGH')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { ageOn, normaliseOrigin, normaliseOrigins, parseBirthday, planProfileUpdate } from '../../server/src/features/users/domain';
import { containsPattern, mayReadRelations } from '../../server/src/features/social/domain';
import { cookieToSet, setCookieHeader } from '../../server/src/features/cookies/domain';
import { TERMS_VERSION } from '../../lib/contract/account';

const today = new Date('2026-03-01T12:00:00Z');

describe('birthdays', () => {
  it('reads real calendar days only', () => {
    expect(parseBirthday('2000-02-29', today)).toEqual({ year: 2000, month: 2, day: 29 });
    expect(parseBirthday('2001-02-29', today)).toBeNull();
    expect(parseBirthday('2000-13-01', today)).toBeNull();
    expect(parseBirthday('2000-00-10', today)).toBeNull();
    expect(parseBirthday('1899-12-31', today)).toBeNull();
    expect(parseBirthday('2026-03-02', today)).toBeNull();
    expect(parseBirthday('20000101', today)).toBeNull();
  });

  it('counts whole years, turning older on the birthday itself', () => {
    expect(ageOn({ year: 2008, month: 3, day: 1 }, today)).toBe(18);
    expect(ageOn({ year: 2008, month: 3, day: 2 }, today)).toBe(17);
    // Born on 29 February: in a common year the birthday has passed on 1 March.
    expect(ageOn({ year: 2008, month: 2, day: 29 }, today)).toBe(18);
  });
});

describe('embed origins', () => {
  it('normalises https origins and local development origins', () => {
    expect(normaliseOrigin('https://Lucy.Example')).toBe('https://lucy.example');
    expect(normaliseOrigin('https://lucy.example:443/')).toBe('https://lucy.example');
    expect(normaliseOrigin('https://lucy.example:8443')).toBe('https://lucy.example:8443');
    expect(normaliseOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(normaliseOrigin('http://127.0.0.1')).toBe('http://127.0.0.1');
    expect(normaliseOrigin('http://[::1]:8080')).toBe('http://[::1]:8080');
  });

  it('refuses anything that is not a bare origin', () => {
    for (const bad of [
      'http://lucy.example',
      'https://lucy.example/path',
      'https://lucy.example?x=1',
      'https://user:pw@lucy.example',
      'https://*.lucy.example',
      'ftp://lucy.example',
      'javascript:alert(1)',
      'lucy.example',
      'https://intranet',
      '',
    ]) {
      expect(normaliseOrigin(bad), bad).toBeNull();
    }
  });

  it('deduplicates after normalising and names the first bad entry', () => {
    expect(normaliseOrigins(['https://a.example', 'https://A.example/', 'http://localhost:3000'])).toEqual({
      origins: ['https://a.example', 'http://localhost:3000'],
    });
    expect(normaliseOrigins(['https://a.example', 'http://b.example'])).toEqual({ invalid: 'http://b.example' });
  });
});

describe('profile edits', () => {
  const fan = { isSeller: false, today };
  const seller = { isSeller: true, today };

  it('turns fields into columns, trimmed', () => {
    expect(planProfileUpdate({ displayName: '  Lucy  ', bio: ' hi ', username: ' lucy.r ', appLanguage: 'cs', birthday: '2000-01-01' }, fan)).toEqual({
      changes: { displayName: 'Lucy', bio: 'hi', username: 'lucy.r', appLanguage: 'cs', birthday: '2000-01-01' },
    });
  });

  it('answers the SPEC §5 problems', () => {
    expect(planProfileUpdate({ displayName: '   ' }, fan)).toMatchObject({ problem: { key: 'invalid-request', field: 'displayName' } });
    expect(planProfileUpdate({ username: 'settings' }, fan)).toEqual({ problem: { key: 'invalid-username' } });
    expect(planProfileUpdate({ username: '12345' }, fan)).toEqual({ problem: { key: 'invalid-username' } });
    expect(planProfileUpdate({ appLanguage: 'de' }, fan)).toMatchObject({ problem: { key: 'invalid-request', field: 'appLanguage' } });
    expect(planProfileUpdate({ birthday: '2008-03-02' }, fan)).toEqual({ problem: { key: 'must_be_18' } });
    expect(planProfileUpdate({ birthday: '2008-02-30' }, fan)).toMatchObject({ problem: { key: 'invalid-request', field: 'birthday' } });
    expect(planProfileUpdate({ newPassword: 'long enough' }, fan)).toMatchObject({ problem: { field: 'currentPassword' } });
  });

  it('lets only sellers set prices, and only to price steps', () => {
    expect(planProfileUpdate({ messagePrice: 16 }, fan)).toEqual({ problem: { key: 'verify-required', field: 'messagePrice' } });
    expect(planProfileUpdate({ callPrice: 0 }, fan)).toEqual({ problem: { key: 'verify-required', field: 'callPrice' } });
    expect(planProfileUpdate({ messagePrice: 16, callPrice: 955 }, seller)).toEqual({ changes: { messagePrice: 16, callPrice: 955 } });
    expect(planProfileUpdate({ messagePrice: 17 }, seller)).toMatchObject({ problem: { key: 'invalid-request', field: 'messagePrice' } });
    // 955 is a call step but not a message step.
    expect(planProfileUpdate({ messagePrice: 955 }, seller)).toMatchObject({ problem: { key: 'invalid-request', field: 'messagePrice' } });
  });
});

describe('relations', () => {
  it('matches search text literally', () => {
    expect(containsPattern('Lu_c%y\\')).toBe('%lu\\_c\\%y\\\\%');
  });

  it('keeps the blocked list to its owner', () => {
    expect(mayReadRelations(-1, 5, 5)).toBe(true);
    expect(mayReadRelations(-1, 5, 6)).toBe(false);
    expect(mayReadRelations(-1, 5, null)).toBe(false);
    expect(mayReadRelations(1, 5, null)).toBe(true);
    expect(mayReadRelations(2, 5, 6)).toBe(true);
  });
});

describe('cookies', () => {
  it('caps lifetimes at the SPEC §9 days and stores the consent with the terms stamp', () => {
    expect(cookieToSet('pushdis', '1', undefined)).toEqual({ name: 'pushdis', value: '1', maxAgeSeconds: 14 * 86_400 });
    expect(cookieToSet('genderfilter', '2', 400)).toEqual({ name: 'genderfilter', value: '2', maxAgeSeconds: 30 * 86_400 });
    expect(cookieToSet('smstip', '1', 0)).toEqual({ name: 'smstip', value: '1', maxAgeSeconds: 0 });
    expect(cookieToSet('accept', TERMS_VERSION, undefined)).toEqual({ name: 'accept_18', value: TERMS_VERSION, maxAgeSeconds: 365 * 86_400 });
    expect(cookieToSet('accept', '20200101', undefined)).toBeNull();
    expect(cookieToSet('robin', 'a;b', undefined)).toBeNull();
  });

  it('writes a Set-Cookie the site can read', () => {
    expect(setCookieHeader({ name: 'cookielang', value: 'cs', maxAgeSeconds: 60 }, false)).toBe('cookielang=cs; Max-Age=60; Path=/; SameSite=Lax');
    expect(setCookieHeader({ name: 'cookielang', value: 'cs', maxAgeSeconds: 60 }, true)).toMatch(/; Secure$/);
  });
});

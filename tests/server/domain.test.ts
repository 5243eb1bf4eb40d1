import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, repoRoot } from '../../server/src/config';
import { ReservedUsernames, usernameProblem } from '../../lib/contract/usernames';
import { ErrorKeys } from '../../lib/contract/errors';
import { httpStatusOf, keyForHttpStatus } from '../../server/src/errors';
import { pickLanguage } from '../../server/src/http/language';
import { isOnline, onlineWindowMs, parseUserRef } from '../../server/src/features/users/domain';
import { isValidEmail } from '../../server/src/features/settings/domain';
import { giftCatalogue, giftPrice } from '../../server/src/features/gifts/domain';
import { demoCreators, demoFans, initialsOf } from '../../server/src/features/demo/domain';
import { cacheControlFor, contentVersionMatches, fileForPath, isCompressible, isSitePath, sourceFile, wantsSitePage } from '../../server/src/features/static/domain';
import { isGiftFile, parseMediaFile } from '../../server/src/features/media/domain';
import { isValidKey } from '../../server/src/media/storage';
import { TtlCache } from '../../server/src/http/ttl-cache';
import en from '../../lib/i18n/locales/en.json';
import cs from '../../lib/i18n/locales/cs.json';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      publicUrl: 'http://localhost:8080',
      priceSalt: 12500,
      logLevel: 'info',
      nodeEnv: 'development',
      webRoot: path.join(repoRoot, 'dist'),
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000', HOST: '127.0.0.1', DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://u@h:5432/db', REDIS_URL: 'redis://127.0.0.1:6379',
      PUBLIC_URL: 'https://fans.example/', PRICE_SALT: '10000', LOG_LEVEL: 'warn', NODE_ENV: 'production', WEB_ROOT: '/srv/dist',
      JWT_SECRET: 'k'.repeat(32), SMTP_URL: 'smtp://mail.example:25', MAIL_FROM: 'Fans <a@fans.example>',
    });
    expect(config).toMatchObject({
      port: 9000, host: '127.0.0.1', dataDir: '/tmp/x', databaseUrl: 'postgres://u@h:5432/db', redisUrl: 'redis://127.0.0.1:6379',
      publicUrl: 'https://fans.example', publicUrlFromEnv: true, priceSalt: 10000, logLevel: 'warn', nodeEnv: 'production', webRoot: '/srv/dist',
      jwtSecret: 'k'.repeat(32), smtpUrl: 'smtp://mail.example:25', mailFrom: 'Fans <a@fans.example>',
    });
  });

  it.each([
    ['PORT', 'eighty', /PORT must be a whole number/],
    ['PORT', '70000', /PORT must be between/],
    ['PRICE_SALT', '0', /PRICE_SALT must be between/],
    ['PRICE_SALT', '1.5', /PRICE_SALT must be a whole number/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must start with postgres/],
    ['REDIS_URL', 'localhost:6379', /REDIS_URL must start with redis/],
    ['PUBLIC_URL', 'fans.example', /PUBLIC_URL must be an http/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    ['JWT_SECRET', 'short', /JWT_SECRET must be 32 characters/],
    ['SMTP_URL', 'mail.example', /SMTP_URL must start with smtp/],
    ['CORS_ORIGINS', 'https://ok.example,https://bad.example/path', /CORS_ORIGINS must list origins/],
  ])('refuses %s=%s with a message naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('notes whether JWT_SECRET was set, so production can refuse to start without it (production-checks.test.ts)', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).jwtSecretFromEnv).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'k'.repeat(32) })).toMatchObject({ jwtSecret: 'k'.repeat(32), jwtSecretFromEnv: true });
  });

  it('reads FANSTAGE_STAGING as a true/false setting, off by default', () => {
    expect(loadConfig({}).staging).toBe(false);
    expect(loadConfig({ FANSTAGE_STAGING: '1' }).staging).toBe(true);
    expect(() => loadConfig({ FANSTAGE_STAGING: 'staging' })).toThrow(/FANSTAGE_STAGING must be true or false/);
  });

  it('trusts no proxy outside production, and in production only those on the private networks, unless TRUST_PROXY says', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    const production = { NODE_ENV: 'production', JWT_SECRET: 'k'.repeat(32) };
    expect(loadConfig(production).trustProxy).toBe('loopback,linklocal,uniquelocal');
    expect(loadConfig({ ...production, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ...production, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32,loopback' }).trustProxy).toBe('10.0.0.0/8,192.0.2.7,2001:db8::/32,loopback');
    // A hop count cannot tell the balancer from a client that reached the node directly.
    for (const value of ['1', 'balancer.internal', '10.0.0.0/8;rm']) expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must be/);
  });

  it('treats memory:// as an in-memory database', () => {
    expect(loadConfig({ DATABASE_URL: 'memory://' }).databaseUrl).toBe('memory://');
  });
});

describe('usernames', () => {
  it.each(['lucy.rivers', 'Marek_Novak', 'abc', 'a'.repeat(30), 'x1.y2'])('accepts %s', (name) => {
    expect(usernameProblem(name)).toBeNull();
  });
  it.each(['ab', 'a'.repeat(31), 'with space', 'dash-ed', 'émilie', '123', '1.2_3', '', 'timeline', 'SETTINGS', 'papi', 'api', 'media', 'embed', 'demo', '404', 'offline'])(
    'refuses %s',
    (name) => {
      expect(usernameProblem(name)).toBe('invalid-username');
    },
  );
  it('reserves every top-level route of the site', () => {
    for (const route of ['timeline', 'discover', 'settings', 'chat', 'post', 'feed', 'who-to-follow', 'notifications', 'sign-up', 'gopay-return', 'terms', 'privacy', 'ws']) {
      expect(ReservedUsernames).toContain(route);
    }
  });
});

describe('user references', () => {
  it('reads digits as an id and anything else as a username', () => {
    expect(parseUserRef('42')).toEqual({ id: 42 });
    expect(parseUserRef('lucy.rivers')).toEqual({ username: 'lucy.rivers' });
    expect(parseUserRef('0')).toBeNull();
    expect(parseUserRef('2147483648')).toBeNull();
    expect(parseUserRef('a/b')).toBeNull();
    expect(parseUserRef('😀')).toBeNull();
  });

  it('counts a user online within five minutes of being seen', () => {
    const now = Date.now();
    expect(isOnline(null, now)).toBe(false);
    expect(isOnline(new Date(now - 1000), now)).toBe(true);
    expect(isOnline(new Date(now - onlineWindowMs), now)).toBe(false);
  });
});

describe('e-mail addresses', () => {
  it.each(['a@example.com', 'lucy.rivers+fans@mail.example.co.uk', 'X_Y@sub-domain.example.cz'])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });
  it.each(['plain', 'a@b', '@example.com', 'a@@example.com', 'a b@example.com', 'a@-example.com', `${'a'.repeat(250)}@example.com`])('refuses %s', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});

describe('languages', () => {
  it.each([
    [undefined, 'en'], ['cs', 'cs'], ['en', 'en'], ['CS', 'cs'], ['cs-CZ', 'cs'], ['de', 'en'], ['de, cs;q=0.7', 'cs'], [['cs'], 'cs'], ['', 'en'],
  ] as const)('picks %s → %s', (header, language) => {
    expect(pickLanguage(header as string | string[] | undefined)).toBe(language);
  });
});

describe('error catalogue', () => {
  it('has an HTTP status for every message key, and a translation in both languages', () => {
    for (const key of ErrorKeys) {
      expect(httpStatusOf[key], key).toBeGreaterThanOrEqual(400);
      expect((en.errors as Record<string, string>)[key], `en ${key}`).toBeTruthy();
      expect((cs.errors as Record<string, string>)[key], `cs ${key}`).toBeTruthy();
    }
  });

  it('maps bare HTTP statuses to message keys', () => {
    expect(keyForHttpStatus(401)).toBe('unauthorized');
    expect(keyForHttpStatus(413)).toBe('payload-too-large');
    expect(keyForHttpStatus(418)).toBe('invalid-request');
    expect(keyForHttpStatus(502)).toBe('internal-error');
  });
});

describe('gifts', () => {
  it('charge the receiver’s share times the salt, in whole credits, never free', () => {
    expect(giftPrice(100, 12500)).toBe(125);
    expect(giftPrice(100, 10000)).toBe(100);
    expect(giftPrice(1, 10000)).toBe(1);
    expect(giftPrice(3, 12500)).toBe(4);
    expect(giftPrice(1, 1)).toBe(1);
    expect(giftPrice(0, 12500)).toBe(0);
  });

  it('ship eight gifts with distinct pictures', () => {
    expect(giftCatalogue).toHaveLength(8);
    expect(new Set(giftCatalogue.map((gift) => gift.imageName)).size).toBe(8);
    for (const gift of giftCatalogue) expect(isGiftFile(gift.imageName)).toBe(true);
  });
});

describe('demo content', () => {
  it('holds believable, valid people with prices from the price steps', () => {
    const steps = { message: [0, 13, 16, 24, 32, 48, 64, 95, 128], call: [0, 32, 48, 64, 95, 128, 160, 320, 640, 955, 1280] };
    const everyone = [...demoCreators, ...demoFans];
    expect(new Set(everyone.map((u) => u.username.toLowerCase())).size).toBe(everyone.length);
    for (const user of everyone) {
      expect(usernameProblem(user.username), user.username).toBeNull();
      expect(steps.message).toContain(user.messagePrice);
      expect(steps.call).toContain(user.callPrice);
    }
    expect(demoCreators.map((u) => u.username)).toEqual(expect.arrayContaining(['lucy.rivers', 'marek.novak']));
    expect(demoCreators.filter((u) => u.gender === 2).length).toBeGreaterThan(demoCreators.length / 2);
  });

  it('draws initials from the first and last name', () => {
    expect(initialsOf('Lucy Rivers')).toBe('LR');
    expect(initialsOf('Tereza Králová')).toBe('TK');
    expect(initialsOf('Cher')).toBe('C');
    expect(initialsOf('  ana  de  armas ')).toBe('AA');
  });
});

describe('static files', () => {
  it('sends page navigations outside the API to the site', () => {
    expect(wantsSitePage('GET', '/lucy.rivers', 'text/html,*/*')).toBe(true);
    expect(wantsSitePage('GET', '/lucy.rivers', 'application/json')).toBe(false);
    expect(wantsSitePage('POST', '/lucy.rivers', 'text/html')).toBe(false);
    for (const url of ['/papi/x', '/api/x', '/media/x', '/embed/x', '/demo/x', '/ws', '/papi']) expect(wantsSitePage('GET', url, 'text/html'), url).toBe(false);
    expect(isSitePath('/papillon')).toBe(true);
    expect(isSitePath('/demo.lover')).toBe(true);
    // A profile may be called dev; what lies below /dev/ is the server's (the development tools).
    expect(isSitePath('/dev')).toBe(true);
    expect(wantsSitePage('GET', '/dev/mail', 'text/html')).toBe(false);
  });

  it('caches hashed assets forever and revalidates the rest', () => {
    expect(cacheControlFor('/srv/dist/web/assets/index-Bx3k9aZq.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/srv/dist/web/index.html')).toBe('no-cache');
    expect(cacheControlFor('/srv/dist/embed/fanstage.js')).toBe('public, max-age=300');
    expect(cacheControlFor('/srv/dist/embed/fanstage.js.br')).toBe('public, max-age=300');
    expect(cacheControlFor('/srv/dist/web/index.html.gz')).toBe('no-cache');
    expect(cacheControlFor('/srv/dist/embed/fanstage-elements.js')).toBe('no-cache');
    expect(cacheControlFor('/srv/dist/embed/fanstage-elements.js', { versioned: true })).toBe('public, max-age=31536000, immutable');
  });

  it('knows a bundle asked for by its own content version', () => {
    const hash = 'a'.repeat(64);
    expect(contentVersionMatches(`0.1.0-${'a'.repeat(16)}`, hash)).toBe(true);
    expect(contentVersionMatches(`0.2.0-beta.1-${'a'.repeat(16)}`, hash)).toBe(true);
    expect(contentVersionMatches('0.1.0', hash)).toBe(false);
    expect(contentVersionMatches(`0.1.0-${'b'.repeat(16)}`, hash)).toBe(false);
    expect(contentVersionMatches(undefined, hash)).toBe(false);
    expect(sourceFile('/srv/dist/web/index.html.br')).toBe('/srv/dist/web/index.html');
    expect(isCompressible('/srv/dist/web/assets/a.js.gz')).toBe(true);
    expect(isCompressible('/srv/dist/web/assets/a.js.map')).toBe(false);
    expect(isCompressible('/srv/dist/web/assets/photo.png')).toBe(false);
  });

  it('serves folders by their index.html', () => {
    expect(fileForPath('')).toBe('index.html');
    expect(fileForPath('react/')).toBe('react/index.html');
    expect(fileForPath('assets/a.js')).toBe('assets/a.js');
  });
});

describe('media names', () => {
  it('reads <hash>.<format> and nothing else', () => {
    expect(parseMediaFile('9964bdecdd5e7f4862df637c3ad3498a.webp')).toEqual({ hash: '9964bdecdd5e7f4862df637c3ad3498a', format: 'webp' });
    expect(parseMediaFile('9964BDEC.webp')).toBeNull();
    expect(parseMediaFile('../etc/passwd')).toBeNull();
    expect(parseMediaFile('9964bdecdd5e7f4862df637c3ad3498a.webp.exe')).toBeNull();
  });

  it('keeps storage keys inside the storage', () => {
    expect(isValidKey('gifts/rose.webp')).toBe(true);
    expect(isValidKey('abc-120.webp')).toBe(true);
    expect(isValidKey('../secret')).toBe(false);
    expect(isValidKey('/etc/passwd')).toBe(false);
    expect(isValidKey('a/b/c.webp')).toBe(false);
    expect(isValidKey('gifts/..webp')).toBe(false);
  });
});

describe('TtlCache', () => {
  it('forgets entries after their time and never grows past its bound', () => {
    let now = 0;
    const cache = new TtlCache<string, number>(1000, 2, () => now);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    now = 999;
    expect(cache.get('b')).toBe(2);
    now = 1000;
    expect(cache.get('a')).toBeUndefined();
    cache.set('c', 3);
    cache.set('d', 4);
    cache.set('e', 5);
    expect(cache.size).toBe(2);
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('e')).toBe(5);
    cache.deleteWhere((value) => value === 5);
    expect(cache.get('e')).toBeUndefined();
  });

  it('does not keep what a read found when a write forgot entries while it was on its way', () => {
    const cache = new TtlCache<string, number>(1000, 10);
    const before = cache.mark();
    // The write commits and forgets the profile; the read, begun before it, answers the old row.
    cache.deleteWhere((value) => value === 1);
    cache.set('a', 1, before);
    expect(cache.get('a')).toBeUndefined();
    const after = cache.mark();
    cache.set('a', 2, after);
    expect(cache.get('a')).toBe(2);
  });
});

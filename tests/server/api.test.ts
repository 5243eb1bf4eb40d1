import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { ErrorKeys } from '../../lib/contract/errors';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer();
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

// Answers are checked field by field, so their bodies are read loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { statusCode: number; statusText?: string; body?: any };

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await app.inject({ method: 'GET', url, headers });
  return { response, json: response.json() as Answer };
}

async function post(url: string, payload: unknown) {
  const response = await app.inject({ method: 'POST', url, payload: payload as object });
  return { response, json: response.json() as Answer };
}

describe('GET /papi/settings', () => {
  it('answers statusCode 2 with every SPEC §3 settings field', async () => {
    const { response, json } = await get('/papi/settings');
    expect(response.statusCode).toBe(200);
    expect(json.statusCode).toBe(2);
    const body = json.body;
    expect(body.languages).toEqual([
      { id: 1, languageIso: 'en', name: 'English' },
      { id: 2, languageIso: 'cs', name: 'Čeština' },
    ]);
    expect(body.mediaCDN).toBe(`${server.baseUrl}/media`);
    expect(body.salt).toBe(12500);
    // The VAPID public key: an uncompressed P-256 point (65 bytes), base64url.
    expect(Buffer.from(body.pushPubKey, 'base64url')).toHaveLength(65);
    expect(body.pushPubKey).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(typeof body.slug).toBe('string');
    expect(Object.keys(body.partnerValidation).sort()).toEqual(['companyId', 'iban', 'name', 'street', 'zip']);
  });

  it('sends expressions that clients can compile and that mean what they say', async () => {
    const { json } = await get('/papi/settings');
    const email = new RegExp(json.body.regExpEmail, 'u');
    expect(email.test('lucy.rivers@example.com')).toBe(true);
    expect(email.test('not an email')).toBe(false);
    const mention = new RegExp(json.body.regExpMentions, 'gu');
    expect([...'hi @lucy.rivers and @marek.novak'.matchAll(mention)].map((m) => m[1])).toEqual(['lucy.rivers', 'marek.novak']);
    const v = json.body.partnerValidation;
    expect(new RegExp(v.iban, 'u').test('CZ6508000000192000145399')).toBe(true);
    expect(new RegExp(v.iban, 'u').test('12345')).toBe(false);
    expect(new RegExp(v.name, 'u').test('Tereza Králová')).toBe(true);
    expect(new RegExp(v.name, 'u').test('<script>')).toBe(false);
    expect(new RegExp(v.zip, 'u').test('602 00')).toBe(true);
    expect(new RegExp(v.companyId, 'u').test('27082440')).toBe(true);
    expect(new RegExp(v.street, 'u').test('Náměstí Svobody 12')).toBe(true);
  });
});

describe('GET /papi/gifts', () => {
  it('answers the seeded catalogue with every gift field, and each picture is served', async () => {
    const { json } = await get('/papi/gifts');
    expect(json.statusCode).toBe(2);
    expect(json.body.length).toBeGreaterThanOrEqual(8);
    for (const gift of json.body) {
      expect(Object.keys(gift).sort()).toEqual(['cValue', 'gValue', 'id', 'imageName', 'name']);
      expect(Number.isInteger(gift.gValue) && Number.isInteger(gift.cValue)).toBe(true);
      // The sender pays the receiver's share times the salt (12500 = ×1.25).
      expect(gift.gValue).toBe(Math.floor((gift.cValue * 12500 + 5000) / 10000));
      const picture = await app.inject({ method: 'GET', url: `/media/gifts/${gift.imageName}` });
      expect(picture.statusCode).toBe(200);
      expect(picture.headers['content-type']).toBe('image/webp');
      expect(picture.rawPayload.subarray(8, 12).toString('ascii')).toBe('WEBP');
    }
  });
});

describe('GET /papi/users/{id}', () => {
  it('finds a creator by username in any case and by numeric id', async () => {
    const { json: byName } = await get('/papi/users/Lucy.Rivers');
    expect(byName.statusCode).toBe(2);
    expect(byName.body).toMatchObject({ username: 'lucy.rivers', displayName: 'Lucy Rivers', gender: 2, isSeller: true, hasBadge: true });
    const { json: byId } = await get(`/papi/users/${byName.body.id}?source=profile-card`);
    expect(byId.body).toEqual(byName.body);
  });

  it('answers only the public profile fields', async () => {
    const { json } = await get('/papi/users/marek.novak');
    expect(Object.keys(json.body).sort()).toEqual(
      [
        'avatarMedia', 'badgeVerifiedState', 'bio', 'callPrice', 'displayName', 'followersCount', 'gender', 'hasBadge', 'id',
        'isPartner', 'isSeller', 'level', 'messagePrice', 'offersSubscriptions', 'online', 'postsCount', 'username',
      ].sort(),
    );
    expect(json.body).not.toHaveProperty('email');
    expect(json.body).not.toHaveProperty('passwordHash');
  });

  it('answers -1 user-not-found with HTTP 404 for unknown users, ids and odd references', async () => {
    for (const ref of ['unknown-user', 'nobody.here', '999999', '99999999999', '0', '%F0%9F%98%80']) {
      const { response, json } = await get(`/papi/users/${ref}`);
      expect(response.statusCode, ref).toBe(404);
      expect(json, ref).toEqual({ statusCode: -1, statusText: 'user-not-found' });
    }
  });

  it('serves the avatar in every size as WebP', async () => {
    const { json } = await get('/papi/users/lucy.rivers');
    const { mediaHash, format } = json.body.avatarMedia;
    expect(format).toBe('webp');
    for (const t of ['', '?t=60', '?t=120', '?t=500']) {
      const response = await app.inject({ method: 'GET', url: `/media/${mediaHash}.${format}${t}` });
      expect(response.statusCode, t).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const small = await app.inject({ method: 'GET', url: `/media/${mediaHash}.${format}?t=60` });
    const large = await app.inject({ method: 'GET', url: `/media/${mediaHash}.${format}?t=500` });
    expect(small.rawPayload.length).toBeLessThan(large.rawPayload.length);
  });
});

describe('media', () => {
  it('answers 404 envelopes for unknown, malformed or wrongly typed media', async () => {
    const { json } = await get('/papi/users/lucy.rivers');
    const hash = json.body.avatarMedia.mediaHash as string;
    for (const url of [`/media/${'0'.repeat(32)}.webp`, `/media/${hash}.jpg`, '/media/..%2F..%2Fetc%2Fpasswd', '/media/gifts/nope.webp', '/media/gifts/..%2Fsecret.webp']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ statusCode: -1 });
    }
  });

  it('rejects an unknown size with invalid-request', async () => {
    const { json } = await get('/papi/users/lucy.rivers');
    const { response, json: answer } = await get(`/media/${json.body.avatarMedia.mediaHash}.webp?t=61`);
    expect(response.statusCode).toBe(400);
    expect(answer).toMatchObject({ statusCode: -1, statusText: 'invalid-request', body: { location: 'querystring', field: 't' } });
  });
});

describe('GET /papi/who-to-follow', () => {
  it('defaults to 10 creators and never lists fans', async () => {
    const { json } = await get('/papi/who-to-follow');
    expect(json.statusCode).toBe(2);
    expect(json.body.length).toBeLessThanOrEqual(10);
    expect(json.body.length).toBeGreaterThanOrEqual(8);
    for (const profile of json.body) expect(profile.isSeller || profile.isPartner).toBe(true);
  });

  it('pages through one seed without repeating anyone, and the same seed gives the same order', async () => {
    const pages = [];
    for (let offset = 0; offset < 12; offset += 3) {
      const { json } = await get(`/papi/who-to-follow?limit=3&offset=${offset}&seed=42`);
      pages.push(...json.body.map((p: { id: number }) => p.id));
    }
    const all = (await get('/papi/who-to-follow?limit=30&seed=42')).json.body.map((p: { id: number }) => p.id);
    expect(pages).toEqual(all);
    expect(new Set(all).size).toBe(all.length);
    const again = (await get('/papi/who-to-follow?limit=30&seed=42')).json.body.map((p: { id: number }) => p.id);
    expect(again).toEqual(all);
    const other = (await get('/papi/who-to-follow?limit=30&seed=7')).json.body.map((p: { id: number }) => p.id);
    expect([...other].sort()).toEqual([...all].sort());
    expect(other).not.toEqual(all);
  });

  it('rejects limits outside 1..30 and non-numbers with invalid-request', async () => {
    for (const query of ['limit=31', 'limit=0', 'limit=abc', 'offset=-1', 'seed=x']) {
      const { response, json } = await get(`/papi/who-to-follow?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(json.statusText, query).toBe('invalid-request');
      expect(json.body.location).toBe('querystring');
    }
  });
});

describe('POST /papi/check/username and /papi/check/email', () => {
  it('answers 1 for a free username and -1 username-taken for a used one in any case', async () => {
    expect((await post('/papi/check/username', { username: 'brand.new_fan' })).json).toEqual({ statusCode: 1 });
    expect((await post('/papi/check/username', { username: 'LUCY.RIVERS' })).json).toEqual({ statusCode: -1, statusText: 'username-taken' });
  });

  it('answers invalid-username for bad shapes and for the site’s route names', async () => {
    for (const username of ['ab', 'x'.repeat(31), 'has space', 'émilie', '12345', 'timeline', 'Settings', 'papi', '404', 'embed']) {
      expect((await post('/papi/check/username', { username })).json, username).toEqual({ statusCode: -1, statusText: 'invalid-username' });
    }
  });

  it('answers 1 for a free e-mail, email-taken for a used one in any case, invalid-email for nonsense', async () => {
    expect((await post('/papi/check/email', { email: 'someone.new@example.org' })).json).toEqual({ statusCode: 1 });
    expect((await post('/papi/check/email', { email: 'Lucy.Rivers@Example.com' })).json).toEqual({ statusCode: -1, statusText: 'email-taken' });
    for (const email of ['nope', 'a@b', '@example.com', 'two@@example.com']) {
      expect((await post('/papi/check/email', { email })).json, email).toEqual({ statusCode: -1, statusText: 'invalid-email' });
    }
  });

  it('answers invalid-request naming the field for wrong types and missing fields', async () => {
    const wrongType = await post('/papi/check/username', { username: 12 });
    expect(wrongType.response.statusCode).toBe(400);
    expect(wrongType.json).toEqual({ statusCode: -1, statusText: 'invalid-request', body: expect.objectContaining({ location: 'body', field: 'username' }) });
    const missing = await post('/papi/check/email', {});
    expect(missing.json).toEqual({ statusCode: -1, statusText: 'invalid-request', body: expect.objectContaining({ location: 'body', field: 'email' }) });
    const notAnObject = await post('/papi/check/email', [1, 2]);
    expect(notAnObject.json.statusText).toBe('invalid-request');
  });
});

describe('bad input never becomes a 500', () => {
  it('answers 400 -1 invalid-json for malformed JSON on every POST route', async () => {
    const posts = app.fanstage.routes.filter((route) => route.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const route of posts) {
      const url = route.url.replace(/:(\w+)/g, '1').replace('*', 'x');
      for (const payload of ['{bad', '{"username": ', '[1,', '']) {
        const response = await app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
        expect(response.statusCode, `${route.url} ${payload}`).toBe(400);
        expect(response.json(), `${route.url} ${payload}`).toEqual({ statusCode: -1, statusText: 'invalid-json' });
      }
      const proto = await app.inject({ method: 'POST', url, payload: '{"__proto__": {"x": 1}}', headers: { 'content-type': 'application/json' } });
      expect(proto.statusCode, route.url).toBe(400);
      expect(proto.json().statusCode).toBe(-1);
      const wrongType = await app.inject({ method: 'POST', url, payload: 'hello', headers: { 'content-type': 'text/xml' } });
      expect(wrongType.statusCode, route.url).toBe(415);
      expect(wrongType.json()).toEqual({ statusCode: -1, statusText: 'unsupported-media-type' });
    }
  });

  it('answers 413 payload-too-large for oversized bodies', async () => {
    const response = await app.inject({ method: 'POST', url: '/papi/check/username', payload: JSON.stringify({ username: 'x'.repeat(1_100_000) }), headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ statusCode: -1, statusText: 'payload-too-large' });
  });

  it('answers 404 -1 route-not-found for unknown routes and methods', async () => {
    for (const [method, url] of [['GET', '/papi/nothing-here'], ['POST', '/papi/settings'], ['DELETE', '/papi/gifts'], ['GET', '/api/unknown'], ['PUT', '/whatever']] as const) {
      const response = await app.inject({ method, url, headers: { accept: 'application/json' } });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ statusCode: -1, statusText: 'route-not-found' });
    }
  });

  it('only answers message keys the clients can translate', async () => {
    for (const url of ['/papi/users/unknown-user', '/papi/nope', '/papi/who-to-follow?limit=99']) {
      const { json } = await get(url);
      expect(ErrorKeys).toContain(json.statusText);
    }
  });
});

describe('headers', () => {
  it('sends Apiversion 1.0 and the Language asked for, defaulting to en', async () => {
    const plain = await app.inject({ method: 'GET', url: '/papi/settings' });
    expect(plain.headers.apiversion).toBe('1.0');
    expect(plain.headers.language).toBe('en');
    for (const [asked, answered] of [['cs', 'cs'], ['cs-CZ', 'cs'], ['en', 'en'], ['de', 'en'], ['fr,cs;q=0.5', 'cs']]) {
      const response = await app.inject({ method: 'GET', url: '/papi/settings', headers: { language: asked } });
      expect(response.headers.language, asked).toBe(answered);
    }
    const failure = await app.inject({ method: 'GET', url: '/papi/users/unknown-user', headers: { language: 'cs' } });
    expect(failure.headers.apiversion).toBe('1.0');
    expect(failure.headers.language).toBe('cs');
  });

  it('answers public reads to any page with a wildcard and no credentials, and lets widgets send their token', async () => {
    const origin = 'https://stranger.example';
    const response = await app.inject({ method: 'GET', url: '/papi/users/lucy.rivers', headers: { origin } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(response.headers['access-control-expose-headers'])).toMatch(/Apiversion/);
    expect(String(response.headers['access-control-expose-headers'])).toMatch(/Language/);
    // A widget's errors name the request, for a report (SdkError.requestId).
    expect(String(response.headers['access-control-expose-headers'])).toMatch(/X-Request-Id/);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/users/follow',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,apiversion,language' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
  });

  it('never gives a listed partner origin credentials: cookies are for the platform alone', async () => {
    const origin = 'https://partner.example';
    const creator = await createAccount(app, { seller: true });
    const listed = await app.inject({
      method: 'PUT',
      url: '/api/users/me',
      headers: { authorization: `Bearer ${creator.accessToken}` },
      payload: { embedOrigins: [origin] },
    });
    expect(listed.json().statusCode).toBe(2);
    const response = await app.inject({ method: 'GET', url: '/papi/login/refresh', headers: { origin } });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(response.json()).toEqual({ statusCode: -1, statusText: 'origin-not-allowed' });
  });

  it('treats the operator\'s CORS_ORIGINS and the platform origin as the platform, with credentials', async () => {
    const config = app.fanstage.config;
    const partner = 'https://shop.partner.example';
    config.corsOrigins.push(partner);
    try {
      const fromPartner = await app.inject({ method: 'GET', url: '/papi/settings', headers: { origin: partner } });
      expect(fromPartner.headers['access-control-allow-origin']).toBe(partner);
    } finally {
      config.corsOrigins.pop();
    }
    const own = new URL(config.publicUrl).origin;
    const fromPlatform = await app.inject({ method: 'GET', url: '/papi/settings', headers: { origin: own } });
    expect(fromPlatform.headers['access-control-allow-origin']).toBe(own);
  });
});

describe('translations', () => {
  for (const namespace of ['client', 'enums'] as const) {
    it(`serves the ${namespace} resources in en and cs with a content version`, async () => {
      const en = await get(`/papi/translations/${namespace}`);
      const cs = await get(`/papi/translations/${namespace}?v=old`, { language: 'cs' });
      expect(en.json.statusCode).toBe(2);
      expect(en.json.body.language).toBe('en');
      expect(cs.json.body.language).toBe('cs');
      expect(en.json.body.version).toMatch(/^[a-f0-9]{16}$/);
      expect(cs.json.body.version).not.toBe(en.json.body.version);
      expect(Object.keys(cs.json.body.resources).sort()).toEqual(Object.keys(en.json.body.resources).sort());
      expect(en.response.headers.vary).toMatch(/Language/);
      expect(cs.response.headers['cache-control']).toBe('no-cache');
      const current = await get(`/papi/translations/${namespace}?v=${cs.json.body.version}`, { language: 'cs' });
      expect(current.response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const revalidated = await app.inject({ method: 'GET', url: `/papi/translations/${namespace}`, headers: { language: 'cs', 'if-none-match': String(cs.response.headers.etag) } });
      expect(revalidated.statusCode).toBe(304);
    });
  }

  it('holds the error texts in both languages', async () => {
    const en = (await get('/papi/translations/client')).json.body.resources;
    const cs = (await get('/papi/translations/client', { language: 'cs' })).json.body.resources;
    expect(en.errors['user-not-found']).toBe('This user does not exist.');
    expect(cs.errors['user-not-found']).toBe('Tento uživatel neexistuje.');
  });
});

describe('OpenAPI', () => {
  it('documents every API route with its method', async () => {
    const { response, json } = await get('/papi/openapi.json');
    expect(response.statusCode).toBe(200);
    const document = json as unknown as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toMatch(/^3\./);
    const documented = app.fanstage.routes.filter((route) => !route.hidden && route.method !== 'HEAD' && route.method !== 'OPTIONS');
    expect(documented.length).toBeGreaterThanOrEqual(9);
    for (const route of documented) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      expect(document.paths[path], path).toBeDefined();
      expect(document.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
    }
    for (const path of ['/papi/settings', '/papi/gifts', '/papi/users/{id}', '/papi/who-to-follow', '/papi/check/username', '/papi/check/email', '/papi/translations/client', '/papi/translations/enums', '/media/{file}']) {
      expect(document.paths[path], path).toBeDefined();
    }
  });
});

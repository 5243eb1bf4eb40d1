import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../vite.precompress';
import { compressionThreshold, etagMatches, isCompressibleType, negotiateEncoding } from '../../server/src/http/compression';
import { startTestServer, type TestServer } from '../support/server';

let webRoot: string;
let server: TestServer;

/** Text that compresses the way a real bundle does: repetitive, not trivially so. */
function scriptText(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export const ${name}${i} = (value) => value * ${i} + ${(i * 7919) % 1000}; // line ${i}`).join('\n');
}

async function put(file: string, content: string | Buffer) {
  await mkdir(path.dirname(path.join(webRoot, file)), { recursive: true });
  await writeFile(path.join(webRoot, file), content);
}

const files = {
  page: '<!doctype html><html><head><title>site</title><script>window.started = Date.now()</script></head><body><div id="root"></div>' + '<!-- padding -->'.repeat(80) + '</body></html>',
  asset: scriptText('site', 400),
  loader: scriptText('loader', 30),
  bundle: scriptText('elements', 800),
};
const picture = randomBytes(40_000);

beforeAll(async () => {
  webRoot = await mkdtemp(path.join(tmpdir(), 'fanstage-compress-'));
  await put('web/index.html', files.page);
  await put('web/assets/index-Bx3k9aZq.js', files.asset);
  await put('web/assets/photo-Cd9a8e1f.png', picture);
  await put('web/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await put('embed/fanstage.js', files.loader);
  await put('embed/fanstage-elements.js', files.bundle);
  // The build's own step writes the copies the server sends.
  for (const site of ['web', 'embed']) await precompressDir(path.join(webRoot, site));
  server = await startTestServer({ seed: false, webRoot });
});
afterAll(async () => {
  await server?.close();
  await rm(webRoot, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes on the wire, not decoded. */
  body: Buffer;
}

/** A request whose answer is read as sent: fetch would decode it and hide the encoding. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.baseUrl}${url}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  return answer.body;
}

const varies = (answer: RawAnswer) => String(answer.headers.vary ?? '').split(',').map((name) => name.trim().toLowerCase()).includes('accept-encoding');
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('files of the build', () => {
  it('go out as Brotli or gzip by Accept-Encoding, byte for byte the file, with their own length and type', async () => {
    const cases: Array<[string, string | null]> = [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      // Any encoding at all: the one every client decodes.
      ['*', 'gzip'],
      ['identity', null],
      ['br;q=0, gzip;q=0', null],
      ['', null],
    ];
    for (const [accept, expected] of cases) {
      const answer = await raw('/assets/index-Bx3k9aZq.js', accept === '' ? {} : { 'accept-encoding': accept });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(expected ?? undefined);
      expect(answer.headers['content-type'], accept).toMatch(/^(?:text|application)\/javascript/);
      expect(varies(answer), accept).toBe(true);
      expect(Number(answer.headers['content-length']), accept).toBe(answer.body.length);
      expect(decode(answer).toString(), accept).toBe(files.asset);
      if (expected !== null) {
        // What the build wrote is what goes out, and it is much smaller than the file.
        const copy = await readFile(path.join(webRoot, 'web/assets', `index-Bx3k9aZq.js.${expected === 'br' ? 'br' : 'gz'}`));
        expect(answer.body.equals(copy), accept).toBe(true);
        expect(answer.body.length, accept).toBeLessThan(Buffer.byteLength(files.asset) / 3);
      }
    }
  });

  it('keep the page headers on a compressed page: its script hash, frame refusal, no caching without revalidation', async () => {
    for (const url of ['/', '/lucy.rivers', '/index.html']) {
      const plain = await raw(url, html);
      const compressed = await raw(url, { ...html, 'accept-encoding': 'br, gzip' });
      expect(compressed.headers['content-encoding'], url).toBe('br');
      expect(decode(compressed).toString(), url).toBe(files.page);
      expect(compressed.headers['content-type'], url).toMatch(/^text\/html/);
      expect(compressed.headers['content-security-policy'], url).toBe(plain.headers['content-security-policy']);
      expect(compressed.headers['content-security-policy'], url).toContain(`'sha256-${createHash('sha256').update('window.started = Date.now()').digest('base64')}'`);
      expect(compressed.headers['x-frame-options'], url).toBe('DENY');
      for (const answer of [plain, compressed]) {
        expect(answer.headers['cache-control'], url).toBe('no-cache');
        expect(answer.headers.etag, url).toBeTruthy();
        expect(answer.headers['last-modified'], url).toBeTruthy();
        expect(varies(answer), url).toBe(true);
      }
      // Two representations, two validators.
      expect(compressed.headers.etag, url).not.toBe(plain.headers.etag);
    }
  });

  it('answer 304 to If-None-Match and If-Modified-Since, with nothing in the body', async () => {
    for (const [url, headers] of [
      ['/', { ...html, 'accept-encoding': 'gzip' }],
      ['/', html],
      ['/embed/fanstage.js', { 'accept-encoding': 'br' }],
      ['/favicon.svg', {}],
    ] as const) {
      const first = await raw(url, headers);
      expect(first.status, url).toBe(200);
      const byTag = await raw(url, { ...headers, 'if-none-match': String(first.headers.etag) });
      expect(byTag.status, url).toBe(304);
      expect(byTag.body.length, url).toBe(0);
      const byDate = await raw(url, { ...headers, 'if-modified-since': String(first.headers['last-modified']) });
      expect(byDate.status, url).toBe(304);
      const changed = await raw(url, { ...headers, 'if-none-match': 'W/"something-else"' });
      expect(changed.status, url).toBe(200);
    }
  });

  it('cache hashed assets and the bundle at its own version for a year, the loader for minutes, pages not at all', async () => {
    const hash = createHash('sha256').update(files.bundle).digest('hex').slice(0, 16);
    const year = 'public, max-age=31536000, immutable';
    expect((await raw('/assets/index-Bx3k9aZq.js', { 'accept-encoding': 'br' })).headers['cache-control']).toBe(year);
    const versioned = await raw(`/embed/fanstage-elements.js?v=0.1.0-${hash}`, { 'accept-encoding': 'br' });
    expect([versioned.status, versioned.headers['cache-control'], versioned.headers['content-encoding']]).toEqual([200, year, 'br']);
    expect(decode(versioned).toString()).toBe(files.bundle);
    expect(versioned.headers['access-control-allow-origin']).toBe('*');
    // Without a version, or with one this server's bundle is not (a node on an older build
    // during a release), the address must not be kept for good.
    for (const url of ['/embed/fanstage-elements.js', '/embed/fanstage-elements.js?v=0.1.0', `/embed/fanstage-elements.js?v=0.1.0-${'0'.repeat(16)}`]) {
      const answer = await raw(url, { 'accept-encoding': 'gzip' });
      expect([answer.status, answer.headers['cache-control']], url).toEqual([200, 'no-cache']);
      expect(answer.headers.etag, url).toBeTruthy();
    }
    const loader = await raw('/embed/fanstage.js', { 'accept-encoding': 'gzip' });
    expect(loader.headers['cache-control']).toBe('public, max-age=300');
    expect(loader.headers.etag).toBeTruthy();
    expect(decode(loader).toString()).toBe(files.loader);
  });

  it('send pictures as they are, without encoding or Vary, and ranges of them still work', async () => {
    const whole = await raw('/assets/photo-Cd9a8e1f.png', { 'accept-encoding': 'br, gzip' });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(varies(whole)).toBe(false);
    expect(whole.body.equals(picture)).toBe(true);
    const part = await raw('/assets/photo-Cd9a8e1f.png', { 'accept-encoding': 'br, gzip', range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body.equals(picture.subarray(100, 200))).toBe(true);
  });

  it('answers a HEAD with the headers of the GET and no body', async () => {
    const head = await raw('/assets/index-Bx3k9aZq.js', { 'accept-encoding': 'br' }, 'HEAD');
    const get = await raw('/assets/index-Bx3k9aZq.js', { 'accept-encoding': 'br' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-encoding']).toBe('br');
  });
});

describe('API answers', () => {
  it('are compressed from the threshold up, by Accept-Encoding, with Vary', async () => {
    const plain = await raw('/papi/translations/client');
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(compressionThreshold);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['br', 'gzip'] as const) {
      const answer = await raw('/papi/translations/client', { 'accept-encoding': encoding });
      expect(answer.headers['content-encoding'], encoding).toBe(encoding);
      expect(answer.headers['content-type'], encoding).toMatch(/^application\/json/);
      expect(decode(answer).equals(plain.body), encoding).toBe(true);
      expect(answer.body.length, encoding).toBeLessThan(plain.body.length / 2);
      expect(Number(answer.headers['content-length']), encoding).toBe(answer.body.length);
      // The route's own Vary stays; the encoding is added to it.
      expect(answer.headers.vary, encoding).toMatch(/Language/);
      expect(varies(answer), encoding).toBe(true);
      // The encoded bytes are not the route's: its validator goes weak, and still revalidates.
      expect(answer.headers.etag, encoding).toBe(`W/${plain.headers.etag}`);
      const again = await raw('/papi/translations/client', { 'accept-encoding': encoding, 'if-none-match': String(answer.headers.etag) });
      expect(again.status, encoding).toBe(304);
    }
  });

  it('are sent as they are below the threshold, and so are errors', async () => {
    const small = await raw('/papi/users/cookie', { 'accept-encoding': 'br, gzip' }, 'GET');
    expect(small.status).toBe(404);
    expect(small.body.length).toBeLessThan(compressionThreshold);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(varies(small)).toBe(false);
    expect(JSON.parse(small.body.toString())).toMatchObject({ statusCode: -1 });
    expect(small.headers['cache-control']).toBe('no-store');
  });

  it('the OpenAPI document, the biggest JSON of all, goes out compressed', async () => {
    const answer = await raw('/papi/openapi.json', { 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode(answer).toString())).toHaveProperty('openapi');
  });
});

describe('choosing the encoding', () => {
  it('takes the most wanted of Brotli and gzip, Brotli on a tie, none when both are refused', () => {
    expect(negotiateEncoding(undefined)).toBeNull();
    expect(negotiateEncoding('')).toBeNull();
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding('deflate')).toBeNull();
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('GZIP')).toBe('gzip');
    expect(negotiateEncoding('x-gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0.2, gzip;q=0.8')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('br;q=nonsense, gzip')).toBe('gzip');
    expect(negotiateEncoding(['gzip', 'br'])).toBe('br');
  });

  it('compresses text the server writes, never media', () => {
    for (const type of ['application/json; charset=utf-8', 'text/html', 'text/plain; charset=utf-8', 'application/problem+json', 'image/svg+xml', 'application/javascript']) expect(isCompressibleType(type), type).toBe(true);
    for (const type of ['image/webp', 'image/jpeg', 'video/mp4', 'audio/webm', 'application/octet-stream', 'application/zip', undefined]) expect(isCompressibleType(type), String(type)).toBe(false);
  });

  it('compares validators weakly, as If-None-Match does', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", W/"a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });
});

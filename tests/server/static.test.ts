import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

let webRoot: string;
let server: TestServer;

async function put(file: string, text: string) {
  await mkdir(path.dirname(path.join(webRoot, file)), { recursive: true });
  await writeFile(path.join(webRoot, file), text);
}

beforeAll(async () => {
  // A built site of our own, so these tests do not depend on (or wait for) `npm run build`.
  webRoot = await mkdtemp(path.join(tmpdir(), 'fanstage-dist-'));
  await put('web/index.html', '<!doctype html><title>site</title><div id="root"></div>');
  await put('web/assets/index-Bx3k9aZq.js', 'console.log("site")');
  await put('web/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await put('embed/fanstage.js', 'console.log("loader")');
  await put('embed/assets/elements-C4f8a1Zx.js', 'console.log("elements")');
  server = await startTestServer({ seed: false, webRoot });
});
afterAll(async () => {
  await server?.close();
  await rm(webRoot, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('the reference site at /', () => {
  it('serves index.html at / and for every client-side route, never cached', async () => {
    for (const url of ['/', '/lucy.rivers', '/discover?q=yoga', '/post/12/comments', '/404']) {
      const response = await fetch(`${server.baseUrl}${url}`, { headers: html });
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toMatch(/text\/html/);
      expect(response.headers.get('cache-control'), url).toBe('no-cache');
      expect(await response.text(), url).toContain('<div id="root">');
    }
  });

  it('serves hashed assets as immutable and other files with revalidation', async () => {
    const asset = await fetch(`${server.baseUrl}/assets/index-Bx3k9aZq.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await fetch(`${server.baseUrl}/favicon.svg`);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
    expect(icon.headers.get('etag')).toBeTruthy();
  });

  it('answers a 404 envelope, not the page, for missing files and unknown API paths', async () => {
    for (const url of ['/assets/missing-abc.js', '/papi/nothing', '/api/nothing', '/media/nothing']) {
      const response = await fetch(`${server.baseUrl}${url}`, { headers: url.startsWith('/assets') ? {} : html });
      expect(response.status, url).toBe(404);
      expect(await response.json(), url).toMatchObject({ statusCode: -1 });
    }
  });

  it('never lets a path climb out of the build folder', async () => {
    for (const url of ['/..%2F..%2Fpackage.json', '/embed/..%2F..%2Fpackage.json', '/assets/%2e%2e/%2e%2e/package.json']) {
      const response = await fetch(`${server.baseUrl}${url}`);
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(await response.text(), url).not.toContain('"workspaces"');
    }
  });
});

describe('the script-tag bundle at /embed/', () => {
  it('may be loaded from any origin', async () => {
    const loader = await fetch(`${server.baseUrl}/embed/fanstage.js`, { headers: { origin: 'https://partner.example' } });
    expect(loader.status).toBe(200);
    expect(loader.headers.get('access-control-allow-origin')).toBe('*');
    // Partners' pages load it on every view: kept a few minutes, then revalidated.
    expect(loader.headers.get('cache-control')).toBe('public, max-age=300');
    const chunk = await fetch(`${server.baseUrl}/embed/assets/elements-C4f8a1Zx.js`);
    expect(chunk.headers.get('access-control-allow-origin')).toBe('*');
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers the release it has at /embed/v/{version}/, immutable, and no other release', async () => {
    await put('embed/integrity.json', JSON.stringify({ version: '1.2.3', loader: 'v/1.2.3/fanstage.js', files: { 'fanstage.js': 'sha384-x' } }));
    const pinned = await fetch(`${server.baseUrl}/embed/v/1.2.3/fanstage.js`, { headers: { origin: 'https://partner.example' } });
    expect(pinned.status).toBe(200);
    expect(await pinned.text()).toBe('console.log("loader")');
    expect(pinned.headers.get('access-control-allow-origin')).toBe('*');
    expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The loader there imports its chunks from its own folder.
    const chunk = await fetch(`${server.baseUrl}/embed/v/1.2.3/assets/elements-C4f8a1Zx.js`);
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const url of ['/embed/v/1.2.2/fanstage.js', '/embed/v/1.2.3/integrity.json', '/embed/v/1.2.3/../fanstage.js']) {
      expect((await fetch(`${server.baseUrl}${url}`)).status, url).toBe(404);
    }
    // The unversioned address stays "always the latest", and the hashes are published beside it.
    expect((await fetch(`${server.baseUrl}/embed/fanstage.js`)).headers.get('cache-control')).toBe('public, max-age=300');
    const published = await fetch(`${server.baseUrl}/embed/integrity.json`);
    expect(published.headers.get('cache-control')).toBe('no-cache');
    expect(await published.json()).toMatchObject({ version: '1.2.3' });
  });
});

describe('the sign-in popup at /embed/login', () => {
  it('is the site build\'s popup page, with its query, and never framed', async () => {
    const missing = await fetch(`${server.baseUrl}/embed/login?origin=https%3A%2F%2Flucy.example`, { headers: html });
    expect(missing.status).toBe(503);
    await put('web/embed-login.html', '<!doctype html><title>popup</title><div id="root"></div>');
    const page = await fetch(`${server.baseUrl}/embed/login?origin=https%3A%2F%2Flucy.example`, { headers: html });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>popup</title>');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // The rest of /embed/ is still the script-tag folder.
    expect((await fetch(`${server.baseUrl}/embed/fanstage.js`)).status).toBe(200);
  });
});

describe('a front end that was not built', () => {
  it('answers 503 with how to build it, and starts serving once it exists', async () => {
    const missing = await fetch(`${server.baseUrl}/demo/`, { headers: html });
    expect(missing.status).toBe(503);
    expect(await missing.text()).toContain('npm run build');
    await put('demo/index.html', '<!doctype html><title>demo</title>');
    const built = await fetch(`${server.baseUrl}/demo/`, { headers: html });
    expect(built.status).toBe(200);
    expect(await built.text()).toContain('<title>demo</title>');
    const redirect = await fetch(`${server.baseUrl}/demo`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/demo/');
  });

  it('answers 503 for the site itself when dist/web is missing', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'fanstage-empty-'));
    const bare = await startTestServer({ seed: false, webRoot: empty });
    try {
      const page = await fetch(`${bare.baseUrl}/lucy.rivers`, { headers: html });
      expect(page.status).toBe(503);
      expect(await page.text()).toMatch(/dist\/web.*\n.*npm run build/);
      // The API is unaffected.
      expect((await fetch(`${bare.baseUrl}/papi/settings`)).status).toBe(200);
    } finally {
      await bare.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

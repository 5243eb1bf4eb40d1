import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { startTestServer, type TestServer } from '../support/server';

let webRoot: string;
let server: TestServer;

async function put(file: string, text: string) {
  await mkdir(path.dirname(path.join(webRoot, file)), { recursive: true });
  await writeFile(path.join(webRoot, file), text);
}

const siteBoot = 'window.__boot = 1;';
const demoLoader = "(function () { var s = document.createElement('script'); s.src = '/embed/fanstage.js'; document.head.appendChild(s); })();";
const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

beforeAll(async () => {
  // A build of our own: one inline script on the site's page, the demo's loader snippet and
  // its inline styles, as the real pages have (host-demo/index.html).
  webRoot = await mkdtemp(path.join(tmpdir(), 'fanstage-headers-'));
  await put('web/index.html', `<!doctype html><title>site</title><script>${siteBoot}</script><script type="module" src="/assets/index-A1.js"></script><div id="root"></div>`);
  await put('web/embed-login.html', '<!doctype html><title>popup</title><script type="module" src="/assets/embed-login-B2.js"></script><div id="root"></div>');
  await put('web/assets/index-A1.js', 'console.log("site")');
  await put('demo/index.html', `<!doctype html><title>demo</title><script>${demoLoader}</script><style>body{margin:0}</style>`);
  server = await startTestServer({ seed: false, webRoot });
});
afterAll(async () => {
  await server?.close();
  await rm(webRoot, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** The policy as a map of directive to its sources. */
function directives(policy: string | null): Map<string, string[]> {
  expect(policy).toBeTruthy();
  return new Map(
    policy!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('the platform\'s pages', () => {
  it('carry a policy that allows only the page\'s own scripts, by origin or by hash, and forbids framing', async () => {
    for (const url of ['/', '/lucy.rivers', '/embed/login?origin=https%3A%2F%2Flucy.example', '/embed-login.html', '/index.html']) {
      const response = await fetch(`${server.baseUrl}${url}`, { headers: html });
      expect(response.status, url).toBe(200);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(response.headers.get('x-frame-options'), url).toBe('DENY');
      const scripts = csp.get('script-src') ?? [];
      expect(scripts, url).toContain("'self'");
      expect(scripts.join(' '), url).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:|data:/);
      expect(csp.get('style-src'), url).toEqual(["'self'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('base-uri'), url).toEqual(["'self'"]);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      // Media and pictures from the platform, previews from blob:, the websocket to the platform.
      expect(csp.get('img-src'), url).toEqual(expect.arrayContaining(["'self'", 'blob:']));
      expect(csp.get('media-src'), url).toEqual(expect.arrayContaining(["'self'", 'blob:']));
      expect(csp.get('connect-src'), url).toContain("'self'");
      expect(csp.get('connect-src')!.filter((source) => /^wss?:/.test(source)).every((source) => /^wss?:\/\/[^*]+$/.test(source)), url).toBe(true);
      expect(response.headers.get('referrer-policy'), url).toBe('strict-origin-when-cross-origin');
      const permissions = response.headers.get('permissions-policy') ?? '';
      expect(permissions, url).toContain('camera=(self)');
      expect(permissions, url).toContain('microphone=(self)');
      expect(permissions, url).toContain('geolocation=()');
    }
  });

  it('allow the inline script a page has by its hash, and no other', async () => {
    const page = await fetch(`${server.baseUrl}/lucy.rivers`, { headers: html });
    const scripts = directives(page.headers.get('content-security-policy')).get('script-src');
    expect(scripts).toEqual(["'self'", sha(siteBoot)]);
    const popup = await fetch(`${server.baseUrl}/embed/login`, { headers: html });
    expect(directives(popup.headers.get('content-security-policy')).get('script-src')).toEqual(["'self'"]);
  });

  it('follow a rebuilt page: its new inline script is allowed and the old one is not', async () => {
    const rebuilt = 'window.__boot = 2; /* a rebuild */';
    await put('web/index.html', `<!doctype html><title>site</title><script>${rebuilt}</script><div id="root"></div>`);
    try {
      const page = await fetch(`${server.baseUrl}/`, { headers: html });
      const scripts = directives(page.headers.get('content-security-policy')).get('script-src');
      expect(scripts).toContain(sha(rebuilt));
      expect(scripts).not.toContain(sha(siteBoot));
    } finally {
      await put('web/index.html', `<!doctype html><title>site</title><script>${siteBoot}</script><script type="module" src="/assets/index-A1.js"></script><div id="root"></div>`);
    }
  });

  it('are the only answers with the page policy: scripts and the API have none', async () => {
    const asset = await fetch(`${server.baseUrl}/assets/index-A1.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-security-policy')).toBeNull();
    const api = await fetch(`${server.baseUrl}/papi/settings`);
    expect(api.headers.get('content-security-policy')).toBeNull();
  });
});

describe('the partner demo at /demo/', () => {
  it('allows its loader snippet by hash, the widgets\' inline styles, and the other loopback name in development', async () => {
    const response = await fetch(`${server.baseUrl}/demo/`, { headers: html });
    expect(response.status).toBe(200);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual(expect.arrayContaining(["'self'", sha(demoLoader), 'http://localhost:*', 'http://127.0.0.1:*']));
    expect(csp.get('script-src')!.join(' ')).not.toContain('unsafe-inline');
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('connect-src')).toEqual(expect.arrayContaining(['ws://localhost:*', 'ws://127.0.0.1:*']));
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('in production behind a TLS-terminating proxy', () => {
  let app: FastifyInstance | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const production = async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-headers-prod-'));
    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'a production secret of 32+ characters',
      LOG_LEVEL: 'silent',
      DATABASE_URL: 'memory://',
      DATA_DIR: dataDir,
      WEB_ROOT: webRoot,
      // Plain http on purpose: only the proxy's header can make the cookie Secure here.
      PUBLIC_URL: 'http://fans.internal',
    });
    app = await buildApp({ config, seed: false });
    return app;
  };

  it('keeps the demo to its own origin: no loopback sources', async () => {
    const instance = app ?? (await production());
    const response = await instance.inject({ method: 'GET', url: '/demo/', headers: html });
    expect(response.statusCode).toBe(200);
    const policy = String(response.headers['content-security-policy']);
    expect(policy).not.toMatch(/localhost|127\.0\.0\.1/);
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it('marks the site\'s cookies Secure when the proxy says the request came over https, and not otherwise', async () => {
    const instance = app ?? (await production());
    const body = { name: 'cookielang', value: 'cs' };
    const overTls = await instance.inject({ method: 'POST', url: '/papi/users/cookie', headers: { 'x-forwarded-proto': 'https' }, payload: body });
    expect(overTls.json()).toEqual({ statusCode: 1 });
    expect(overTls.cookies.find((c) => c.name === 'cookielang')).toMatchObject({ value: 'cs', secure: true, sameSite: 'Lax' });
    const plain = await instance.inject({ method: 'POST', url: '/papi/users/cookie', payload: body });
    expect(plain.cookies.find((c) => c.name === 'cookielang')?.secure).toBeFalsy();
  });
});

describe('outside production', () => {
  it('does not take a client\'s X-Forwarded-Proto at its word', async () => {
    const response = await fetch(`${server.baseUrl}/papi/users/cookie`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ name: 'cookielang', value: 'en' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/^cookielang=en;/);
    expect(response.headers.get('set-cookie')).not.toMatch(/Secure/i);
  });

  it('marks the site\'s cookies Secure when PUBLIC_URL is https', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-headers-https-'));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'memory://', DATA_DIR: dataDir, PUBLIC_URL: 'https://fans.example' });
    const instance = await buildApp({ config, seed: false });
    try {
      const response = await instance.inject({ method: 'POST', url: '/papi/users/cookie', payload: { name: 'cookielang', value: 'en' } });
      expect(response.cookies.find((c) => c.name === 'cookielang')?.secure).toBe(true);
    } finally {
      await instance.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { startTestServer, type TestServer } from '../support/server';
import { ORIGIN_PROOFS_JOB } from '../../server/src/features/origins/routes';
import { PROOF_MAX_FAILURES, PROOF_RECHECK_MS } from '../../server/src/features/origins/domain';
import { isPrivateAddress, proofFetch } from '../../server/src/features/origins/fetch';

let server: TestServer;
let app: FastifyInstance;

/**
 * A partner's site, served by the test on a loopback port (allowed outside production): what it
 * answers at each path is set by the test, `null` for a 404.
 */
const pages = new Map<string, { status?: number; body: string; headers?: Record<string, string> } | null>();
let site: http.Server;
let siteOrigin: string;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
  site = http.createServer((request, response) => {
    const page = pages.get(request.url ?? '/') ?? null;
    if (page === null) {
      response.writeHead(404).end('not here');
      return;
    }
    response.writeHead(page.status ?? 200, { 'Content-Type': 'text/plain', ...page.headers }).end(page.body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
  await server?.close();
});

const call = apiCaller(() => app);

async function listing(creator: TestAccount, origin: string) {
  expect((await call('PUT', '/api/users/me', creator, { embedOrigins: [origin] })).json.statusCode).toBe(2);
}

async function listedBy(origin: string): Promise<string[]> {
  const fan = await createAccount(app);
  const state = await call('GET', `/api/embed/consent?origin=${encodeURIComponent(origin)}`, fan);
  return (state.json.body.listedBy as { username: string }[]).map((c) => c.username);
}

describe('proof of site ownership', () => {
  it('shows an unproven origin as listed by nobody, and a proven one as listed by its creator', async () => {
    pages.clear();
    const creator = await createAccount(app, { seller: true });
    await listing(creator, siteOrigin);
    expect(await listedBy(siteOrigin)).toEqual([]);

    const token = await call('POST', '/api/embed-origins/token', creator, { origin: siteOrigin });
    expect(token.json.statusCode).toBe(2);
    const { token: value, fileUrl, metaTag } = token.json.body as { token: string; fileUrl: string; metaTag: string };
    expect(fileUrl).toBe(`${siteOrigin}/.well-known/fanstage-verification.txt`);
    expect(metaTag).toBe(`<meta name="fanstage-verification" content="${value}">`);
    // Asked again, the same token.
    expect((await call('POST', '/api/embed-origins/token', creator, { origin: siteOrigin })).json.body.token).toBe(value);

    // Not served yet: the proof fails and says why; still listed by nobody.
    const missing = await call('POST', '/api/embed-origins/prove', creator, { origin: siteOrigin });
    expect(missing.status).toBe(422);
    expect(missing.json).toMatchObject({ statusCode: -1, statusText: 'origin-proof-failed', body: { reason: 'http-status' } });
    expect(await listedBy(siteOrigin)).toEqual([]);

    // Served among other creators' tokens: proven.
    pages.set('/.well-known/fanstage-verification.txt', { body: `fanstage-someone-elses\n${value}\n` });
    const proven = await call('POST', '/api/embed-origins/prove', creator, { origin: siteOrigin });
    expect(proven.json).toMatchObject({ statusCode: 2, body: { origin: siteOrigin, listed: true, proven: true, method: 'file', failures: 0 } });
    expect(await listedBy(siteOrigin)).toEqual([creator.username]);
    expect((await call('GET', '/api/embed-origins', creator)).json.body).toEqual([proven.json.body]);
  });

  it('takes the meta tag of the home page too, and not a tag outside its head or with another name', async () => {
    pages.clear();
    const creator = await createAccount(app, { seller: true });
    await listing(creator, siteOrigin);
    const value = (await call('POST', '/api/embed-origins/token', creator, { origin: siteOrigin })).json.body.token as string;
    pages.set('/', { body: `<html><head><meta name="other" content="${value}"></head><body><meta name="fanstage-verification" content="${value}"></body></html>` });
    expect((await call('POST', '/api/embed-origins/prove', creator, { origin: siteOrigin })).json).toMatchObject({ statusText: 'origin-proof-failed', body: { reason: 'token-missing' } });
    pages.set('/', { body: `<!doctype html><html><head><title>Blog</title><META content='${value}' NAME=fanstage-verification></head><body></body></html>` });
    expect((await call('POST', '/api/embed-origins/prove', creator, { origin: siteOrigin })).json).toMatchObject({ statusCode: 2, body: { proven: true, method: 'meta' } });
  });

  it('lets no stranger list, prove or read another creator’s origin', async () => {
    pages.clear();
    const owner = await createAccount(app, { seller: true });
    await listing(owner, siteOrigin);
    const ownerToken = (await call('POST', '/api/embed-origins/token', owner, { origin: siteOrigin })).json.body.token as string;
    pages.set('/.well-known/fanstage-verification.txt', { body: ownerToken });

    // Another creator lists the same site: her token is her own, and the owner's file proves nothing for her.
    const stranger = await createAccount(app, { seller: true });
    expect((await call('POST', '/api/embed-origins/prove', stranger, { origin: siteOrigin })).json.statusText).toBe('origin-not-listed');
    await listing(stranger, siteOrigin);
    const strangerToken = (await call('POST', '/api/embed-origins/token', stranger, { origin: siteOrigin })).json.body.token as string;
    expect(strangerToken).not.toBe(ownerToken);
    expect((await call('POST', '/api/embed-origins/prove', stranger, { origin: siteOrigin })).json).toMatchObject({ statusText: 'origin-proof-failed', body: { reason: 'token-missing' } });
    // (The site is the same loopback origin for every test of this file: others' proofs may name others.)
    expect(await listedBy(siteOrigin)).not.toContain(stranger.username);
    expect(await listedBy(siteOrigin)).not.toContain(owner.username);
    // She never sees the owner's token or proof.
    expect(JSON.stringify((await call('GET', '/api/embed-origins', stranger)).json.body)).not.toContain(ownerToken);

    // A fan may not list sites at all, nor ask for tokens; a visitor is not signed in.
    const fan = await createAccount(app);
    expect((await call('POST', '/api/embed-origins/token', fan, { origin: siteOrigin })).json.statusText).toBe('embed-origins-not-allowed');
    expect((await call('POST', '/api/embed-origins/prove', fan, { origin: siteOrigin })).json.statusText).toBe('embed-origins-not-allowed');
    expect((await call('POST', '/api/embed-origins/prove', undefined, { origin: siteOrigin })).status).toBe(401);
    // Not an origin: refused before anything is fetched.
    for (const origin of ['http://shop.example', 'https://x.example/path', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect((await call('POST', '/api/embed-origins/token', owner, { origin })).json.statusText, origin).toBe('invalid-request');
    }

    expect((await call('POST', '/api/embed-origins/prove', owner, { origin: siteOrigin })).json.body.proven).toBe(true);
    expect(await listedBy(siteOrigin)).toContain(owner.username);
    expect(await listedBy(siteOrigin)).not.toContain(stranger.username);
  });

  it('rechecks proven sites daily and withdraws a proof that keeps failing', async () => {
    pages.clear();
    const creator = await createAccount(app, { seller: true });
    await listing(creator, siteOrigin);
    const value = (await call('POST', '/api/embed-origins/token', creator, { origin: siteOrigin })).json.body.token as string;
    pages.set('/.well-known/fanstage-verification.txt', { body: value });
    expect((await call('POST', '/api/embed-origins/prove', creator, { origin: siteOrigin })).json.body.proven).toBe(true);

    // The token is gone from the site: each daily recheck counts a failure, the last one withdraws.
    pages.clear();
    for (let failure = 1; failure <= PROOF_MAX_FAILURES; failure += 1) {
      app.fanstage.clock.advance(PROOF_RECHECK_MS + 1000);
      expect(await app.fanstage.jobs.runNow(ORIGIN_PROOFS_JOB)).toBeGreaterThanOrEqual(1);
      const [proof] = (await call('GET', '/api/embed-origins', creator)).json.body as { proven: boolean; failures: number; problem: string }[];
      expect(proof).toMatchObject({ proven: failure < PROOF_MAX_FAILURES, problem: 'http-status' });
    }
    expect(await listedBy(siteOrigin)).not.toContain(creator.username);
  });

  it('follows no redirect to another origin and refuses oversized files', async () => {
    pages.clear();
    const creator = await createAccount(app, { seller: true });
    await listing(creator, siteOrigin);
    await call('POST', '/api/embed-origins/token', creator, { origin: siteOrigin });
    pages.set('/.well-known/fanstage-verification.txt', { status: 302, body: '', headers: { Location: 'http://localhost:1/.well-known/fanstage-verification.txt' } });
    expect((await call('POST', '/api/embed-origins/prove', creator, { origin: siteOrigin })).json.body.reason).toBe('redirect-refused');
    pages.set('/.well-known/fanstage-verification.txt', { body: 'x'.repeat(70 * 1024) });
    expect((await call('POST', '/api/embed-origins/prove', creator, { origin: siteOrigin })).json.body.reason).toBe('too-large');
  });
});

describe('the proof fetch in production', () => {
  it('refuses loopback, private, link-local and mapped addresses, by name or by number', async () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) expect(isPrivateAddress(address), address).toBe(false);
    pages.set('/.well-known/fanstage-verification.txt', { body: 'anything' });
    for (const url of [`${siteOrigin}/.well-known/fanstage-verification.txt`, `http://localhost:${new URL(siteOrigin).port}/`, 'http://[::1]:9/', 'http://[::ffff:127.0.0.1]:9/', 'http://169.254.169.254/latest/meta-data/', 'https://10.0.0.1/']) {
      expect(await proofFetch(url, { allowPrivate: false }), url).toEqual({ ok: false, problem: 'address-refused' });
    }
    // The same address is reachable where private ones are allowed (development, tests).
    expect(await proofFetch(`${siteOrigin}/.well-known/fanstage-verification.txt`, { allowPrivate: true })).toEqual({ ok: true, status: 200, body: 'anything' });
  });

  it('makes the server refuse to prove a loopback site when NODE_ENV is production', async () => {
    // An app built with production's settings (as tests/server/production.test.ts builds one).
    const production = await startTestServer({ seed: false, env: { NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('base64url') } });
    try {
      const creator = await createAccount(production.app, { seller: true });
      const callProduction = apiCaller(() => production.app);
      await callProduction('PUT', '/api/users/me', creator, { embedOrigins: [siteOrigin] });
      await callProduction('POST', '/api/embed-origins/token', creator, { origin: siteOrigin });
      expect((await callProduction('POST', '/api/embed-origins/prove', creator, { origin: siteOrigin })).json).toMatchObject({ statusText: 'origin-proof-failed', body: { reason: 'address-refused' } });
    } finally {
      await production.close();
    }
  });
});

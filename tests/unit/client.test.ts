import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, createClient, SdkError } from '../../lib/sdk';
import { TERMS_VERSION } from '../../lib/contract';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { closedPortUrl, sendEnvelope, startApiServer, type ApiServer } from './support/api-server';

let real: TestServer;
let alice: TestAccount;
/** A fan, who sells nothing: setting a message price asks for verification first (SPEC §8). */
let fan: TestAccount;

// Answers the real server never gives — a stray body, throttling on demand, a proxy's HTML, a
// node shutting down, a page that is not the API, a slow answer — come from a stand-in.
let server: ApiServer;

beforeAll(async () => {
  real = await startTestServer({ seed: false });
  alice = await createAccount(real.app, { seller: true });
  fan = await createAccount(real.app);
  server = await startApiServer();
  server.on('/papi/stray-body', (_req, res) => sendEnvelope(res, { statusCode: 1, body: { ignored: true } }));
  server.on('/papi/overloaded', (_req, res) => sendEnvelope(res, { statusCode: -1, statusText: 'too-many-requests' }, 429));
  server.on('/papi/bad-gateway', (_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><body>502 Bad Gateway</body></html>');
  });
  // What Fastify itself answers while a node shuts down: JSON with the HTTP status inside.
  server.on('/papi/closing', (_req, res) => sendEnvelope(res, { statusCode: 503, error: 'Service Unavailable' } as never, 503));
  server.on('/papi/not-api', (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not Found');
  });
  server.on('/papi/slow', (_req, res) => {
    setTimeout(() => sendEnvelope(res, { statusCode: 1 }), 2_000);
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await real?.close();
});

interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** A fetch that notes each request as it leaves for the real server. */
function recording(sent: Sent[]): typeof fetch {
  return (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    sent.push({ url: url.pathname + url.search, method: init?.method ?? 'GET', headers: new Headers(init?.headers), body: init?.body });
    return fetch(input, init);
  };
}

/** The terms consent: an answer of statusCode 1 from the real server. */
const accept = { name: 'accept', value: TERMS_VERSION };

describe('the API client', () => {
  it('returns the body of a statusCode 2 envelope', async () => {
    const client = createClient({ baseUrl: real.baseUrl });
    await expect(client.get(`/papi/users/${alice.username}`)).resolves.toMatchObject({ id: alice.id, username: alice.username });
  });

  it('returns undefined for a statusCode 1 envelope, even if a body slipped in', async () => {
    await expect(createClient({ baseUrl: real.baseUrl }).post('/papi/users/cookie', accept)).resolves.toBeUndefined();
    await expect(createClient({ baseUrl: server.baseUrl }).get('/papi/stray-body')).resolves.toBeUndefined();
  });

  it('rejects a statusCode -1 envelope with an SdkError whose code is the statusText', async () => {
    const client = createClient({ baseUrl: real.baseUrl });
    const error = await client.get('/papi/users/nobody.here.at.all').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: 'user-not-found', statusCode: -1, httpStatus: 404, retryable: false });
    // The server's id of the request, which its log lines carry: one per request.
    const again = (await client.get('/papi/users/nobody.here.at.all').catch((e: unknown) => e)) as SdkError;
    expect((error as SdkError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(again.requestId).not.toBe((error as SdkError).requestId);
  });

  it('keeps the code and body of other negative envelopes, such as -2 verification needed', async () => {
    const client = createClient({ baseUrl: real.baseUrl });
    client.setAuthenticator({ accessToken: () => fan.accessToken, onUnauthorized: () => Promise.resolve(false) });
    const error = await client.request('PUT', '/api/users/me', { body: { messagePrice: 16 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'verify-required', statusCode: -2, body: { field: 'messagePrice' } });
  });

  it('marks throttling as retryable', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.get('/papi/overloaded')).rejects.toMatchObject({ code: 'too-many-requests', retryable: true });
  });

  it('turns a non-JSON 502 into a retryable server_not_responding error', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.get('/papi/bad-gateway')).rejects.toMatchObject({
      code: 'server_not_responding',
      statusCode: 0,
      httpStatus: 502,
      retryable: true,
    });
  });

  it('does not take a server error carrying a positive statusCode for a success', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.get('/papi/closing')).rejects.toMatchObject({ code: 'server_not_responding', httpStatus: 503, retryable: true });
  });

  it('does not call a non-API 404 retryable', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.get('/papi/not-api')).rejects.toMatchObject({ code: 'server_not_responding', httpStatus: 404, retryable: false });
  });

  it('sends Apiversion 1.0 and the Language header, and follows language changes', async () => {
    const sent: Sent[] = [];
    const client = createClient({ baseUrl: real.baseUrl, language: 'cs', fetch: recording(sent) });
    await client.get('/papi/settings');
    expect(sent.at(-1)!.headers.get('apiversion')).toBe(API_VERSION);
    expect(sent.at(-1)!.headers.get('language')).toBe('cs');
    expect(API_VERSION).toBe('1.0');

    client.setLanguage('en');
    await client.get('/papi/settings');
    expect(sent.at(-1)!.headers.get('language')).toBe('en');
    expect(sent).toHaveLength(2);
  });

  it('defaults the language to English', async () => {
    const sent: Sent[] = [];
    await createClient({ baseUrl: real.baseUrl, fetch: recording(sent) }).get('/papi/settings');
    expect(sent.map((r) => r.headers.get('language'))).toEqual(['en']);
  });

  it('sends query parameters without the undefined ones, and JSON bodies on POST', async () => {
    const sent: Sent[] = [];
    const client = createClient({ baseUrl: `${real.baseUrl}/`, fetch: recording(sent) });
    await expect(client.get('/papi/who-to-follow', { limit: 1, offset: undefined })).resolves.toEqual([expect.objectContaining({ id: alice.id })]);
    await expect(client.post('/papi/users/cookie', accept)).resolves.toBeUndefined();
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /papi/who-to-follow?limit=1', 'POST /papi/users/cookie']);
    expect(sent[1]!.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(String(sent[1]!.body))).toEqual(accept);
  });

  it('gives up after the timeout with a retryable timeout error', async () => {
    const client = createClient({ baseUrl: server.baseUrl, timeout: 150 });
    const started = Date.now();
    await expect(client.get('/papi/slow')).rejects.toMatchObject({ code: 'timeout', statusCode: 0, retryable: true });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('still times out when the caller passes its own abort signal', async () => {
    const client = createClient({ baseUrl: server.baseUrl, timeout: 150 });
    await expect(client.get('/papi/slow', undefined, { signal: new AbortController().signal })).rejects.toMatchObject({ code: 'timeout' });
  });

  it('reports a cancellation by the caller as aborted, not retryable', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    const controller = new AbortController();
    const call = client.get('/papi/slow', undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ code: 'aborted', retryable: false });
  });

  it('reports an unreachable server as a retryable network error', async () => {
    const client = createClient({ baseUrl: await closedPortUrl() });
    await expect(client.get('/papi/settings')).rejects.toMatchObject({ code: 'network', statusCode: 0, retryable: true });
  });

  it('builds absolute addresses on its origin', () => {
    const client = createClient({ baseUrl: 'https://fanstage.example/' });
    expect(client.url('/papi/settings')).toBe('https://fanstage.example/papi/settings');
    expect(client.url('media/x.webp')).toBe('https://fanstage.example/media/x.webp');
  });
});

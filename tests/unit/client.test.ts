import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, createClient, SdkError } from '../../lib/sdk';
import { closedPortUrl, sendEnvelope, startApiServer, type ApiServer } from './support/api-server';

let server: ApiServer;

beforeAll(async () => {
  server = await startApiServer();
  server.on('/papi/with-body', (_req, res) => sendEnvelope(res, { statusCode: 2, body: { hello: 'world' } }));
  server.on('/papi/no-body', (_req, res) => sendEnvelope(res, { statusCode: 1 }));
  server.on('/papi/stray-body', (_req, res) => sendEnvelope(res, { statusCode: 1, body: { ignored: true } }));
  server.on('/papi/fails', (_req, res) => sendEnvelope(res, { statusCode: -1, statusText: 'user-not-found' }, 404));
  server.on('/papi/verify', (_req, res) => sendEnvelope(res, { statusCode: -2, statusText: 'verify-required', body: { field: 'messagePrice' } }));
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
  server.on('/papi/echo', (req, res) => sendEnvelope(res, { statusCode: 2, body: { method: req.method, url: req.url, body: req.body ? (JSON.parse(req.body) as unknown) : null } }));
  server.on('/papi/slow', (_req, res) => {
    setTimeout(() => sendEnvelope(res, { statusCode: 1 }), 2_000);
  });
});

afterAll(() => server.close());

function lastRequestTo(path: string) {
  const found = server.requests.filter((r) => r.url.startsWith(path)).at(-1);
  if (!found) throw new Error(`no request to ${path}`);
  return found;
}

describe('the API client', () => {
  it('returns the body of a statusCode 2 envelope', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.get('/papi/with-body')).resolves.toEqual({ hello: 'world' });
  });

  it('returns undefined for a statusCode 1 envelope, even if a body slipped in', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.get('/papi/no-body')).resolves.toBeUndefined();
    await expect(client.get('/papi/stray-body')).resolves.toBeUndefined();
  });

  it('rejects a statusCode -1 envelope with an SdkError whose code is the statusText', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    const error = await client.get('/papi/fails').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: 'user-not-found', statusCode: -1, httpStatus: 404, retryable: false });
  });

  it('keeps the code and body of other negative envelopes, such as -2 verification needed', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    const error = await client.get('/papi/verify').catch((e: unknown) => e);
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
    const client = createClient({ baseUrl: server.baseUrl, language: 'cs' });
    await client.get('/papi/no-body');
    expect(lastRequestTo('/papi/no-body').headers).toMatchObject({ apiversion: API_VERSION, language: 'cs' });
    expect(API_VERSION).toBe('1.0');

    client.setLanguage('en');
    await client.get('/papi/no-body');
    expect(lastRequestTo('/papi/no-body').headers).toMatchObject({ language: 'en' });
  });

  it('defaults the language to English', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    await client.get('/papi/no-body');
    expect(lastRequestTo('/papi/no-body').headers.language).toBe('en');
  });

  it('sends query parameters without the undefined ones, and JSON bodies on POST', async () => {
    const client = createClient({ baseUrl: `${server.baseUrl}/` });
    await expect(client.get('/papi/echo', { limit: 10, offset: undefined, q: 'a b' })).resolves.toMatchObject({ method: 'GET', url: '/papi/echo?limit=10&q=a+b' });
    await expect(client.post('/papi/echo', { id: 7 })).resolves.toMatchObject({ method: 'POST', body: { id: 7 } });
    expect(lastRequestTo('/papi/echo').headers['content-type']).toBe('application/json');
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

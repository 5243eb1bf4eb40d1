import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../lib/contract';
import { createClient, createSettingsStore, SdkError } from '../../lib/sdk';
import { startTestServer, type TestServer } from '../support/server';
import { sendEnvelope, startApiServer, type ApiServer } from './support/api-server';

let server: TestServer;
/** The settings as the real server answers them to anyone. */
let settings: Settings;
/** Settings requests that left the clients of these tests, for the real server. */
let healthyRequests = 0;
const healthy = { baseUrl: '', fetch: ((input, init) => {
  if (String(input).includes('/papi/settings')) healthyRequests += 1;
  return fetch(input, init);
}) as typeof fetch };

// The real server never fails on /papi/settings; a stand-in on its own port answers 500 first,
// to see what the store does with a failure.
let failing: ApiServer;
let failuresLeft = 0;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  healthy.baseUrl = server.baseUrl;
  settings = (await (await fetch(`${server.baseUrl}/papi/settings`)).json() as { body: Settings }).body;
  failing = await startApiServer();
  failing.on('/papi/settings', (_req, res) => {
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      sendEnvelope(res, { statusCode: -1, statusText: 'internal-error' }, 500);
      return;
    }
    sendEnvelope(res, { statusCode: 2, body: settings });
  });
}, 60_000);

afterAll(async () => {
  await failing?.close();
  await server?.close();
});

describe('the settings store', () => {
  it('starts idle and empty', () => {
    const store = createSettingsStore(createClient(healthy));
    expect(store.status.value).toBe('idle');
    expect(store.settings.value).toBeNull();
    expect(store.error.value).toBeNull();
  });

  it('shares one request among concurrent loads and keeps the answer in a signal', async () => {
    const before = healthyRequests;
    const store = createSettingsStore(createClient(healthy));
    const [a, b] = await Promise.all([store.load(), store.load()]);
    expect(a).toEqual(settings);
    expect(b).toBe(a);
    expect(store.settings.value).toBe(a);
    expect(store.status.value).toBe('ready');
    expect(healthyRequests - before).toBe(1);
  });

  it('never fetches again once loaded', async () => {
    const store = createSettingsStore(createClient(healthy));
    await store.load();
    const before = healthyRequests;
    await store.load();
    expect(healthyRequests).toBe(before);
  });

  it('is one store per client, so two widgets on one client share it', async () => {
    const client = createClient(healthy);
    const before = healthyRequests;
    const first = createSettingsStore(client);
    const second = createSettingsStore(client);
    expect(second).toBe(first);
    await Promise.all([first.load(), second.load()]);
    expect(healthyRequests - before).toBe(1);
    expect(createSettingsStore(createClient(healthy))).not.toBe(first);
  });

  it('rejects with an SdkError and keeps it in the error signal when loading fails', async () => {
    failuresLeft = 1;
    const store = createSettingsStore(createClient({ baseUrl: failing.baseUrl }));
    const error = await store.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: 'internal-error', retryable: true });
    expect(store.status.value).toBe('error');
    expect(store.error.value).toBe(error);
    expect(store.settings.value).toBeNull();
  });

  it('tries again on the next load after a failure, and clears the error', async () => {
    failuresLeft = 1;
    const store = createSettingsStore(createClient({ baseUrl: failing.baseUrl }));
    await expect(store.load()).rejects.toBeInstanceOf(SdkError);
    await expect(store.load()).resolves.toEqual(settings);
    expect(store.status.value).toBe('ready');
    expect(store.error.value).toBeNull();
  });
});

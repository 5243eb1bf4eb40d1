import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../lib/contract';
import { createClient, createSettingsStore, SdkError } from '../../lib/sdk';
import { sendEnvelope, startApiServer, type ApiServer } from './support/api-server';

const settings: Settings = {
  languages: [
    { id: 1, languageIso: 'en', name: 'English' },
    { id: 2, languageIso: 'cs', name: 'Čeština' },
  ],
  mediaCDN: 'https://cdn.fanstage.example/media',
  salt: 15_000,
  regExpMentions: '@([a-z0-9._]{3,30})',
  regExpEmail: '^[^@\\s]+@[^@\\s]+$',
  pushPubKey: '',
  slug: 'fanstage',
  partnerValidation: { name: '.+', street: '.+', zip: '^[0-9 ]{5,6}$', iban: '^[A-Z]{2}[0-9A-Z]{13,32}$', companyId: '^[0-9]{8}$' },
};

let healthy: ApiServer;
let failing: ApiServer;
let failuresLeft = 0;

beforeAll(async () => {
  healthy = await startApiServer();
  healthy.on('/papi/settings', (_req, res) => {
    // A little latency so that concurrent loads really overlap.
    setTimeout(() => sendEnvelope(res, { statusCode: 2, body: settings }), 30);
  });
  failing = await startApiServer();
  failing.on('/papi/settings', (_req, res) => {
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      sendEnvelope(res, { statusCode: -1, statusText: 'internal-error' }, 500);
      return;
    }
    sendEnvelope(res, { statusCode: 2, body: settings });
  });
});

afterAll(async () => {
  await healthy.close();
  await failing.close();
});

const settingsRequests = (server: ApiServer) => server.requests.filter((r) => r.url === '/papi/settings').length;

describe('the settings store', () => {
  it('starts idle and empty', () => {
    const store = createSettingsStore(createClient({ baseUrl: healthy.baseUrl }));
    expect(store.status.value).toBe('idle');
    expect(store.settings.value).toBeNull();
    expect(store.error.value).toBeNull();
  });

  it('shares one request among concurrent loads and keeps the answer in a signal', async () => {
    const before = settingsRequests(healthy);
    const store = createSettingsStore(createClient({ baseUrl: healthy.baseUrl }));
    const [a, b] = await Promise.all([store.load(), store.load()]);
    expect(a).toEqual(settings);
    expect(b).toBe(a);
    expect(store.settings.value).toBe(a);
    expect(store.status.value).toBe('ready');
    expect(settingsRequests(healthy) - before).toBe(1);
  });

  it('never fetches again once loaded', async () => {
    const store = createSettingsStore(createClient({ baseUrl: healthy.baseUrl }));
    await store.load();
    const before = settingsRequests(healthy);
    await store.load();
    expect(settingsRequests(healthy)).toBe(before);
  });

  it('is one store per client, so two widgets on one client share it', async () => {
    const client = createClient({ baseUrl: healthy.baseUrl });
    const before = settingsRequests(healthy);
    const first = createSettingsStore(client);
    const second = createSettingsStore(client);
    expect(second).toBe(first);
    await Promise.all([first.load(), second.load()]);
    expect(settingsRequests(healthy) - before).toBe(1);
    expect(createSettingsStore(createClient({ baseUrl: healthy.baseUrl }))).not.toBe(first);
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

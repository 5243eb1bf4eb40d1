import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effect } from '@preact/signals-core';
import { createClient, createProfileStore, SdkError, type LoadStatus } from '../../lib/sdk';
import { sendEnvelope, startApiServer, type ApiServer, type Handler } from './support/api-server';
import { profile } from './support/profiles';

let server: ApiServer;
let failuresLeft = 0;

beforeAll(async () => {
  server = await startApiServer();
  const alice = profile();
  const answerAlice: Handler = (_req, res) => {
    // A little latency so that concurrent callers really overlap.
    setTimeout(() => sendEnvelope(res, { statusCode: 2, body: alice }), 30);
  };
  server.on('/papi/users/alice', answerAlice);
  server.on('/papi/users/42', answerAlice);
  // As the logged-in viewer sees her: with the relation, answered at once.
  server.on('/api/users/alice', (_req, res) => sendEnvelope(res, { statusCode: 2, body: { ...alice, isFollowed: true, blockedStatus: 0, isMySubscriber: false, isHidden: false } }));
  server.on('/papi/users/nobody', (_req, res) => sendEnvelope(res, { statusCode: -1, statusText: 'user-not-found' }, 404));
  server.on('/papi/users/flaky', (_req, res) => {
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('Service Unavailable');
      return;
    }
    sendEnvelope(res, { statusCode: 2, body: profile({ id: 7, username: 'flaky' }) });
  });
});

afterAll(() => server.close());

function requestsTo(path: string): number {
  return server.requests.filter((r) => r.url === path).length;
}

describe('the profile store', () => {
  it('asks again as the viewer when a login lands while a visitor\'s request is on its way, and keeps the newer answer', async () => {
    let loggedIn = false;
    const store = createProfileStore(createClient({ baseUrl: server.baseUrl }), { isLoggedIn: () => loggedIn });
    const visitor = store.load('alice');
    loggedIn = true;
    const viewer = store.load('alice');
    expect(viewer).not.toBe(visitor);
    // The same viewer's second call shares the request.
    expect(store.load('alice')).toBe(viewer);
    await Promise.all([visitor, viewer]);
    // The visitor's answer came last (30 ms later) and must not wipe out the relation.
    expect(store.get('alice').profile.value?.isFollowed).toBe(true);
    expect(store.get('alice').status.value).toBe('ready');
  });

  it('keeps a follow made while an older answer of the profile was on its way', async () => {
    const store = createProfileStore(createClient({ baseUrl: server.baseUrl }));
    store.remember([profile()]);
    const reload = store.load('alice');
    // The viewer follows before the (30 ms late) answer arrives; the answer predates the follow.
    store.patch(42, (p) => ({ ...p, isFollowed: true, followersCount: p.followersCount + 1 }));
    await reload;
    expect(store.get('alice').profile.value?.isFollowed).toBe(true);
    expect(store.get('42').profile.value?.isFollowed).toBe(true);
    // A later answer, asked after the change, is taken as it is.
    await store.load('alice');
    expect(store.get('alice').profile.value?.isFollowed).toBeUndefined();
  });

  it('makes one request for concurrent gets of the same profile', async () => {
    const before = requestsTo('/papi/users/alice');
    const store = createProfileStore(createClient({ baseUrl: server.baseUrl }));
    const first = store.get('alice');
    const second = store.get('Alice');
    const third = store.get('@alice');
    await Promise.all([store.load('alice'), store.load('ALICE')]);

    expect(requestsTo('/papi/users/alice') - before).toBe(1);
    expect(first).toBe(second);
    expect(second).toBe(third);
    expect(first.status.value).toBe('ready');
    expect(first.profile.value?.displayName).toBe('Alice Nováková');
  });

  it('is loading from the first get and ready once the answer arrives, observably through signals', async () => {
    const store = createProfileStore(createClient({ baseUrl: server.baseUrl }));
    const seen: LoadStatus[] = [];
    const entry = store.get('alice');
    const stop = effect(() => {
      seen.push(entry.status.value);
    });
    await store.load('alice');
    stop();
    expect(seen).toEqual(['loading', 'ready']);
  });

  it('serves profiles remembered from a list under both names without any request', () => {
    const before = server.requests.length;
    const store = createProfileStore(createClient({ baseUrl: server.baseUrl }));
    store.remember([profile({ id: 9, username: 'Listed' })]);
    expect(store.get('listed').status.value).toBe('ready');
    expect(store.get(9).profile.value?.username).toBe('Listed');
    expect(server.requests.length).toBe(before);
  });

  it('serves a profile loaded by username under its id without another request', async () => {
    const before = requestsTo('/papi/users/42');
    const store = createProfileStore(createClient({ baseUrl: server.baseUrl }));
    await store.load('alice');
    const byId = store.get(42);
    expect(byId.status.value).toBe('ready');
    expect(byId.profile.value?.username).toBe('Alice');
    expect(requestsTo('/papi/users/42')).toBe(before);
  });

  it('serves a profile loaded by id under its username', async () => {
    const before = requestsTo('/papi/users/alice');
    const store = createProfileStore(createClient({ baseUrl: server.baseUrl }));
    await store.load(42);
    expect(store.get('alice').profile.value?.id).toBe(42);
    expect(requestsTo('/papi/users/alice')).toBe(before);
  });

  it('keeps the error of a missing profile and leaves the profile empty', async () => {
    const store = createProfileStore(createClient({ baseUrl: server.baseUrl }));
    const entry = store.get('nobody');
    await store.load('nobody');
    expect(entry.status.value).toBe('error');
    expect(entry.profile.value).toBeNull();
    expect(entry.error.value).toBeInstanceOf(SdkError);
    expect(entry.error.value?.code).toBe('user-not-found');
  });

  it('does not retry a failed profile on get, but does on load, and clears the error', async () => {
    failuresLeft = 1;
    const store = createProfileStore(createClient({ baseUrl: server.baseUrl }));
    const entry = store.get('flaky');
    await store.load('flaky');
    expect(entry.status.value).toBe('error');
    expect(entry.error.value).toMatchObject({ code: 'server_not_responding', retryable: true });

    const before = requestsTo('/papi/users/flaky');
    store.get('flaky');
    expect(requestsTo('/papi/users/flaky')).toBe(before);

    await store.load('flaky');
    expect(entry.status.value).toBe('ready');
    expect(entry.error.value).toBeNull();
    expect(entry.profile.value?.id).toBe(7);
  });

  it('clears an alias error when the same profile loads under its other name', async () => {
    failuresLeft = 1;
    const store = createProfileStore(createClient({ baseUrl: server.baseUrl }));
    server.on('/papi/users/7', (_req, res) => sendEnvelope(res, { statusCode: -1, statusText: 'internal-error' }, 500));
    const byId = store.get(7);
    await store.load(7);
    expect(byId.status.value).toBe('error');

    failuresLeft = 0;
    await store.load('flaky');
    expect(byId.status.value).toBe('ready');
    expect(byId.error.value).toBeNull();
  });
});

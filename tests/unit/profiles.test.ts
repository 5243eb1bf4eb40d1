import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effect } from '@preact/signals-core';
import { createClient, createProfileStore, createRelationsStore, createSessionStore, SdkError, type LoadStatus, type PublicProfile } from '../../lib/sdk';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { follow, person, type Person } from '../server/support-feeds';

let server: TestServer;
let alice: Person;
let flaky: Person;
/** A fan who follows alice. */
let fan: TestAccount;
/** Every path the stores of this file asked, in order. */
const asked: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  alice = await person(server.app, { username: 'alice', displayName: 'Alice Nováková' });
  flaky = await person(server.app, { username: 'flaky', displayName: 'Flaky Fern' });
  fan = await createAccount(server.app);
  await follow(server.app, fan.id, alice.id);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

interface Faults {
  /** Answers to these paths are held back this many milliseconds after the server gave them. */
  slow?: Record<string, number>;
  /** Requests to these paths are held back this many milliseconds before they reach the server. */
  late?: Record<string, number>;
  /** The next request to each of these paths gets this answer instead of reaching the server. */
  fail?: Map<string, () => Response>;
}

/**
 * A client of the real server. The server answers in its own time and never as a failing
 * proxy would, so overlap (a slow answer) and failures are injected here, on the way back.
 */
function clientOf(token: string | null = null, faults: Faults = {}) {
  const fetching: typeof fetch = async (input, init) => {
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    asked.push(path);
    const failure = faults.fail?.get(path);
    if (failure) {
      faults.fail?.delete(path);
      return failure();
    }
    const lateBy = faults.late?.[path];
    if (lateBy) await new Promise((resolve) => setTimeout(resolve, lateBy));
    const response = await fetch(input, init);
    const delay = faults.slow?.[path];
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    return response;
  };
  const client = createClient({ baseUrl: server.baseUrl, fetch: fetching });
  if (token !== null) client.setAuthenticator({ accessToken: () => token, onUnauthorized: () => Promise.resolve(false) });
  return client;
}

function requestsTo(path: string): number {
  return asked.filter((p) => p === path).length;
}

/** The public profile the server answers for `who`. */
async function publicProfileOf(who: Person): Promise<PublicProfile> {
  const response = await server.app.inject({ method: 'GET', url: `/papi/users/${who.id}` });
  return (response.json() as { body: PublicProfile }).body;
}

describe('the profile store against the real server', () => {
  it('asks again as the viewer when a login lands while a visitor\'s request is on its way, and keeps the newer answer', async () => {
    let loggedIn = false;
    // The visitor's answer comes back last, as on a slow line.
    const store = createProfileStore(clientOf(fan.accessToken, { slow: { '/papi/users/alice': 150 } }), { isLoggedIn: () => loggedIn });
    const visitor = store.load('alice');
    loggedIn = true;
    const viewer = store.load('alice');
    expect(viewer).not.toBe(visitor);
    // The same viewer's second call shares the request.
    expect(store.load('alice')).toBe(viewer);
    await Promise.all([visitor, viewer]);
    // The visitor's answer came last and must not wipe out the relation the server gave the viewer.
    expect(store.get('alice').profile.value?.isFollowed).toBe(true);
    expect(store.get('alice').status.value).toBe('ready');
  });

  it('keeps a follow made while an older answer of the profile was on its way', async () => {
    const store = createProfileStore(clientOf(null, { slow: { '/papi/users/alice': 150 } }));
    store.remember([await publicProfileOf(alice)]);
    const reload = store.load('alice');
    // The viewer follows before the late answer arrives; the answer predates the follow.
    store.patch(alice.id, (p) => ({ ...p, isFollowed: true, followersCount: p.followersCount + 1 }));
    await reload;
    expect(store.get('alice').profile.value?.isFollowed).toBe(true);
    expect(store.get(alice.id).profile.value?.isFollowed).toBe(true);
    // A later answer, asked after the change, is taken as it is: a visitor's has no relation.
    await store.load('alice');
    expect(store.get('alice').profile.value?.isFollowed).toBeUndefined();
  });

  it('keeps a follow over an answer asked while the follow was on its way, which the server may have read before storing it', async () => {
    const newcomer = await createAccount(server.app);
    // The follow reaches the server late, so a profile asked after the click is read before it.
    const client = clientOf(null, { late: { '/api/users/follow': 150 } });
    const session = createSessionStore(client, { mode: 'body' });
    await session.login(newcomer.email, newcomer.password);
    const profiles = createProfileStore(client, { isLoggedIn: () => session.isLoggedIn.peek() });
    const relations = createRelationsStore(client, profiles, session);
    await profiles.load('alice');
    expect(profiles.get('alice').profile.value?.isFollowed).toBe(false);

    const following = relations.follow(alice.id);
    expect(profiles.get('alice').profile.value?.isFollowed).toBe(true);
    // Another view of the page reloads her profile meanwhile: the server has no follow yet.
    const reload = profiles.load('alice');
    await reload;
    await following;
    expect(profiles.get('alice').profile.value?.isFollowed).toBe(true);
    // An answer asked once the follow is stored is the server's word again.
    await profiles.load('alice');
    expect(profiles.get('alice').profile.value?.isFollowed).toBe(true);
    session.dispose();
  });

  it('makes one request for concurrent gets of the same profile', async () => {
    const before = requestsTo('/papi/users/alice');
    const store = createProfileStore(clientOf());
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
    const store = createProfileStore(clientOf());
    const seen: LoadStatus[] = [];
    const entry = store.get('alice');
    const stop = effect(() => {
      seen.push(entry.status.value);
    });
    await store.load('alice');
    stop();
    expect(seen).toEqual(['loading', 'ready']);
  });

  it('serves profiles remembered from a list under both names without any request', async () => {
    const listed = await publicProfileOf(flaky);
    const before = asked.length;
    const store = createProfileStore(clientOf());
    store.remember([listed]);
    expect(store.get('FLAKY').status.value).toBe('ready');
    expect(store.get(flaky.id).profile.value?.username).toBe('flaky');
    expect(asked.length).toBe(before);
  });

  it('serves a profile loaded by username under its id without another request', async () => {
    const byIdPath = `/papi/users/${alice.id}`;
    const before = requestsTo(byIdPath);
    const store = createProfileStore(clientOf());
    await store.load('alice');
    const byId = store.get(alice.id);
    expect(byId.status.value).toBe('ready');
    expect(byId.profile.value?.username).toBe('alice');
    expect(requestsTo(byIdPath)).toBe(before);
  });

  it('serves a profile loaded by id under its username', async () => {
    const before = requestsTo('/papi/users/alice');
    const store = createProfileStore(clientOf());
    await store.load(alice.id);
    expect(store.get('alice').profile.value?.id).toBe(alice.id);
    expect(requestsTo('/papi/users/alice')).toBe(before);
  });

  it('keeps the server\'s error of a missing profile and leaves the profile empty', async () => {
    const store = createProfileStore(clientOf());
    const entry = store.get('nobody');
    await store.load('nobody');
    expect(entry.status.value).toBe('error');
    expect(entry.profile.value).toBeNull();
    expect(entry.error.value).toBeInstanceOf(SdkError);
    expect(entry.error.value?.code).toBe('user-not-found');
  });

  it('does not retry a failed profile on get, but does on load, and clears the error', async () => {
    // A proxy's page while the server restarts: the real server never answers so itself.
    const fail = new Map([['/papi/users/flaky', () => new Response('Service Unavailable', { status: 503, headers: { 'content-type': 'text/plain' } })]]);
    const store = createProfileStore(clientOf(null, { fail }));
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
    expect(entry.profile.value?.id).toBe(flaky.id);
  });

  it('clears an alias error when the same profile loads under its other name', async () => {
    // The server's own failure (a 500 envelope) cannot be had on demand; injected for the id.
    const fail = new Map([
      [`/papi/users/${flaky.id}`, () => Response.json({ statusCode: -1, statusText: 'internal-error' }, { status: 500 })],
    ]);
    const store = createProfileStore(clientOf(null, { fail }));
    const byId = store.get(flaky.id);
    await store.load(flaky.id);
    expect(byId.status.value).toBe('error');

    await store.load('flaky');
    expect(byId.status.value).toBe('ready');
    expect(byId.error.value).toBeNull();
    expect(byId.profile.value?.displayName).toBe('Flaky Fern');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFanstage } from '../../lib/sdk';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  alice = await createAccount(server.app, { seller: true });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('createFanstage against the real server', () => {
  it('builds the client, the public API and the stores on one client', async () => {
    // The requests as they leave, to see which headers they carry; the real server answers.
    const languages: (string | null)[] = [];
    const recording: typeof fetch = (input, init) => {
      languages.push(new Headers(init?.headers).get('language'));
      return fetch(input, init);
    };
    const fanstage = createFanstage({ baseUrl: server.baseUrl, language: 'cs', fetch: recording });
    expect(Object.keys(fanstage).sort()).toEqual(['account', 'activity', 'api', 'calls', 'chat', 'client', 'earnings', 'feeds', 'loadStores', 'notifications', 'posts', 'profiles', 'push', 'relations', 'search', 'session', 'settings', 'socket', 'subscriptions', 'uploads', 'wallet']);
    expect(fanstage.client.language.value).toBe('cs');

    await expect(fanstage.api.user(alice.username)).resolves.toMatchObject({ id: alice.id, username: alice.username });
    await fanstage.profiles.load(alice.username);
    expect(fanstage.profiles.get(alice.id).profile.value?.username).toBe(alice.username);
    // Both went through the same client, so both carried its language.
    expect(languages).toEqual(['cs', 'cs']);
  });
});

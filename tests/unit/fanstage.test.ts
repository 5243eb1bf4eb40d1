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

describe('the session a page gets by default', () => {
  it('is bearer tokens where the API is another origin, unless the page chooses', () => {
    // Node has no page: a server rendering a partner's page is another origin too.
    expect(createFanstage({ baseUrl: server.baseUrl }).session.mode).toBe('body');
    expect(createFanstage({ baseUrl: server.baseUrl, session: { mode: 'cookie' } }).session.mode).toBe('cookie');
  });

  it('asks for no credentials from another origin, and sends them on the API’s own', async () => {
    const sent: (RequestCredentials | undefined)[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push(init?.credentials);
      return fetch(input, init);
    };
    await createFanstage({ baseUrl: server.baseUrl, fetch: recording }).api.settings();
    const page = globalThis as { location?: { origin: string; href: string } };
    page.location = { origin: server.baseUrl, href: `${server.baseUrl}/` };
    try {
      const own = createFanstage({ baseUrl: '', fetch: (input, init) => recording(new URL(String(input), server.baseUrl), init) });
      expect(own.session.mode).toBe('cookie');
      await own.api.settings();
    } finally {
      delete page.location;
    }
    expect(sent).toEqual(['omit', 'include']);
  });
});

describe('fanstage.activity', () => {
  it('tells follow and unfollow once the server agreed, and a sign-in and sign-out', async () => {
    const fan = await createAccount(server.app);
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const heard: { type: string; detail: unknown }[] = [];
    const stop = fanstage.activity.onAny((type, detail) => heard.push({ type, detail }));
    const follows: unknown[] = [];
    fanstage.activity.on('follow', (detail) => follows.push(detail));
    fanstage.session.adopt({ accessToken: fan.accessToken });
    await fanstage.relations.follow(alice.id);
    await fanstage.relations.unfollow(alice.id);
    // A refused follow (nobody there) tells nothing.
    await expect(fanstage.relations.follow(999_999)).rejects.toThrow();
    await fanstage.session.logout();
    expect(heard).toEqual([
      { type: 'signin', detail: { userId: fan.id } },
      { type: 'follow', detail: { userId: alice.id } },
      { type: 'unfollow', detail: { userId: alice.id } },
      { type: 'signout', detail: { userId: fan.id } },
    ]);
    expect(follows).toEqual([{ userId: alice.id }]);
    stop();
    fanstage.session.dispose();
  });
});

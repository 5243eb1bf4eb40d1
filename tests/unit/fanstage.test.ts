import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFanstage } from '../../lib/sdk';
import { sendEnvelope, startApiServer, type ApiServer } from './support/api-server';
import { profile } from './support/profiles';

let server: ApiServer;

beforeAll(async () => {
  server = await startApiServer();
  server.on('/papi/users/alice', (_req, res) => sendEnvelope(res, { statusCode: 2, body: profile() }));
});

afterAll(() => server.close());

describe('createFanstage', () => {
  it('builds the client, the public API and the stores on one client', async () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl, language: 'cs' });
    expect(Object.keys(fanstage).sort()).toEqual(['account', 'api', 'chat', 'client', 'earnings', 'feeds', 'notifications', 'posts', 'profiles', 'relations', 'search', 'session', 'settings', 'socket', 'subscriptions', 'uploads', 'wallet']);
    expect(fanstage.client.language.value).toBe('cs');

    await expect(fanstage.api.user('alice')).resolves.toMatchObject({ id: 42 });
    await fanstage.profiles.load('alice');
    expect(fanstage.profiles.get(42).profile.value?.username).toBe('Alice');
    // Both went through the same client, so both carried its language.
    expect(server.requests.every((r) => r.headers.language === 'cs')).toBe(true);
  });
});

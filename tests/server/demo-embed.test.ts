import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPartnerOrigins } from '../../server/src/features/demo/domain';
import { normaliseOrigins } from '../../server/src/features/users/domain';
import { createAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('the partner demo as another site', () => {
  it('lists origins a creator could have entered herself, for the port the server answers on', () => {
    const origins = demoPartnerOrigins('http://127.0.0.1:8183');
    const result = normaliseOrigins(origins);
    expect('origins' in result ? [...result.origins].sort() : result).toEqual([...origins].sort());
    expect(origins).toEqual(['http://localhost:8080', 'http://127.0.0.1:8080', 'http://localhost:8183', 'http://127.0.0.1:8183']);
    expect(demoPartnerOrigins('http://localhost:8080')).toEqual(['http://localhost:8080', 'http://127.0.0.1:8080']);
    // A platform on a real address lists only the local demo's origins, never its own host as a partner.
    expect(demoPartnerOrigins('https://fanstage.example')).toEqual(['http://localhost:8080', 'http://127.0.0.1:8080']);
  });

  it('lets the demo on the other loopback name call the API, and sign in a fan who allows it', async () => {
    const partner = 'http://localhost:8181';
    const preflight = await server.app.inject({
      method: 'OPTIONS',
      url: '/papi/embed/exchange',
      headers: { origin: partner, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    // Any page may call the public API, never with credentials.
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();

    const fan = await createAccount(server.app);
    const code = (payload: object) => server.app.inject({ method: 'POST', url: '/api/embed/code', headers: { authorization: `Bearer ${fan.accessToken}` }, payload });
    // Listed by the demo creators or not, the fan is asked first.
    expect((await code({ origin: partner })).json()).toEqual({ statusCode: -1, statusText: 'consent-required' });
    const issued = await code({ origin: partner, allow: true });
    expect(issued.json()).toMatchObject({ statusCode: 2, body: { expiresIn: 60 } });
    const exchanged = await server.app.inject({
      method: 'POST',
      url: '/papi/embed/exchange',
      headers: { origin: partner },
      payload: { code: (issued.json() as { body: { code: string } }).body.code, origin: partner },
    });
    expect(exchanged.json()).toMatchObject({ statusCode: 2 });
    // Tokens in the body only: no cookie for the partner's page.
    expect(exchanged.headers['set-cookie']).toBeUndefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { refreshTokenMs, sessionMarker } from '../../server/src/features/auth/domain';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const cookieOf = (response: LightMyRequestResponse, name: string) => response.cookies.find((cookie) => cookie.name === name);

async function login(email: string, password: string, extra: Record<string, unknown> = {}) {
  return app.inject({ method: 'POST', url: '/papi/login', payload: { email, password, ...extra } });
}

describe('the session marker beside the refresh cookie', () => {
  it('is written as 1 with the refresh cookie at login and on every refresh, readable by scripts and as long-lived', async () => {
    const fan = await createAccount(app);
    const signedIn = await login(fan.email, fan.password);
    expect(signedIn.statusCode).toBe(200);
    const refresh = cookieOf(signedIn, 'fs_refresh');
    const marker = cookieOf(signedIn, sessionMarker.name);
    expect(refresh).toMatchObject({ httpOnly: true, path: '/papi/login', sameSite: 'Lax' });
    // Readable by the site (not HttpOnly), sent to every page (Path=/), and nothing in it but a flag.
    expect(marker).toMatchObject({ value: '1', path: '/', sameSite: 'Lax', maxAge: Math.floor(refreshTokenMs / 1000) });
    expect(marker?.httpOnly).toBeFalsy();

    // A browser that signed in before markers existed gets one at its next refresh.
    const refreshed = await app.inject({ method: 'GET', url: '/papi/login/refresh', headers: { cookie: `fs_refresh=${refresh?.value}` } });
    expect(refreshed.json()).toMatchObject({ statusCode: 2 });
    expect(cookieOf(refreshed, sessionMarker.name)).toMatchObject({ value: '1', path: '/', maxAge: Math.floor(refreshTokenMs / 1000) });
    expect(cookieOf(refreshed, 'fs_refresh')?.value).not.toBe(refresh?.value);
  });

  it('turns 0 when the refresh cookie goes: logout, a refused refresh, and a refresh with no cookie at all', async () => {
    const fan = await createAccount(app);
    const signedIn = await login(fan.email, fan.password);
    const token = cookieOf(signedIn, 'fs_refresh')?.value;

    const loggedOut = await app.inject({ method: 'GET', url: '/papi/login/logout', headers: { cookie: `fs_refresh=${token}` } });
    expect(loggedOut.json()).toEqual({ statusCode: 1 });
    expect(cookieOf(loggedOut, 'fs_refresh')?.value).toBe('');
    expect(cookieOf(loggedOut, sessionMarker.name)).toMatchObject({ value: '0', path: '/', maxAge: sessionMarker.signedOutSeconds });

    const refused = await app.inject({ method: 'GET', url: '/papi/login/refresh', headers: { cookie: `fs_refresh=${token}` } });
    expect([refused.statusCode, refused.json()]).toEqual([401, { statusCode: -1, statusText: 'refresh-token-failed' }]);
    expect(cookieOf(refused, sessionMarker.name)?.value).toBe('0');

    const none = await app.inject({ method: 'GET', url: '/papi/login/refresh' });
    expect([none.statusCode, none.json()]).toEqual([401, { statusCode: -1, statusText: 'refresh-token-failed' }]);
    expect(cookieOf(none, sessionMarker.name)?.value).toBe('0');
    expect(none.headers['cache-control']).toBe('no-store');
  });

  it('grants nothing: a marker without a refresh cookie resumes no session and reaches no account', async () => {
    const fan = await createAccount(app);
    await login(fan.email, fan.password);
    const forged = `${sessionMarker.name}=1`;
    const refresh = await app.inject({ method: 'GET', url: '/papi/login/refresh', headers: { cookie: forged } });
    expect([refresh.statusCode, refresh.json()]).toEqual([401, { statusCode: -1, statusText: 'refresh-token-failed' }]);
    const me = await app.inject({ method: 'GET', url: '/api/users/me', headers: { cookie: forged } });
    expect(me.statusCode).toBe(401);
  });

  it('is not written for a session whose tokens travel in the body (widgets)', async () => {
    const fan = await createAccount(app);
    const signedIn = await login(fan.email, fan.password, { tokenInBody: true });
    expect(signedIn.json()).toMatchObject({ statusCode: 2 });
    expect(signedIn.headers['set-cookie']).toBeUndefined();
  });
});

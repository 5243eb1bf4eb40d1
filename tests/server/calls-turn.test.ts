import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSettings } from '../../server/src/features/settings/domain';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { fundWallet } from '../support/money';
import { startTestServer, type TestServer } from '../support/server';
import { callingCreator, isCall, newCallId, ringCall, sendCall } from '../support/calls';
import { closeSockets } from '../support/sockets';

/**
 * TURN credentials only for the two people of a call, and short-lived (docs/calls.md "ICE
 * servers and TURN"): the server shares coturn's static-auth-secret and mints, per call and per
 * party, the credential coturn recomputes. The test recomputes it too, from the secret it gave
 * the server, as coturn would.
 */

const SECRET = `turn-secret-${randomBytes(12).toString('hex')}`;
const TTL = 1800;
const STUN = 'stun:stun.fanstage.example:3478';
const TURN_URLS = ['turn:turn.fanstage.example:3478?transport=udp', 'turns:turn.fanstage.example:5349?transport=tcp'];
const site = 'https://lucy-fan-club.example';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({
    seed: false,
    env: { ICE_SERVERS: JSON.stringify([{ urls: STUN }]), TURN_URLS: TURN_URLS.join(','), TURN_SECRET: SECRET, TURN_TTL: String(TTL) },
  });
  app = server.app;
}, 60_000);
afterAll(async () => {
  closeSockets();
  await server?.close();
});

const call = apiCaller(() => app);
const send = sendCall;
const creator = (): Promise<TestAccount> => callingCreator(app);
/** The fan rings the creator; she has it ringing. */
const ringingCall = ringCall;

/** What coturn does with a credential of `use-auth-secret`: the password is the HMAC of the username under the shared secret. */
function coturnAccepts(server: { username?: string; credential?: string }, secret: string): boolean {
  if (server.username === undefined || server.credential === undefined) return false;
  return createHmac('sha1', secret).update(server.username).digest('base64') === server.credential;
}

interface IceAnswer {
  iceServers: { urls: string | string[]; username?: string; credential?: string }[];
  ttl: number | null;
}

describe('TURN credentials of a call', () => {
  it('are minted for each party of a ringing and a live call: coturn accepts them, they name the person and expire ttl seconds from now', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    await fundWallet(app, fan.id, 1000);
    const { callId, fanSocket, starSocket } = await ringingCall(server, fan, star);

    const before = Math.floor(app.fanstage.clock.now().getTime() / 1000);
    const asked = await app.inject({ method: 'GET', url: `/api/calls/${callId}/ice-servers`, headers: { authorization: `Bearer ${fan.accessToken}` } });
    const after = Math.floor(app.fanstage.clock.now().getTime() / 1000);
    // Nobody between the browser and the server may keep it.
    expect(asked.headers['cache-control']).toBe('no-store');
    const answer = asked.json() as { statusCode: number; body: IceAnswer };
    expect(answer.statusCode).toBe(2);
    expect(answer.body.ttl).toBe(TTL);
    expect(answer.body.iceServers).toEqual([{ urls: STUN }, { urls: TURN_URLS, username: expect.any(String), credential: expect.any(String) }]);
    const fanTurn = answer.body.iceServers[1]!;
    const [expiry, userId] = fanTurn.username!.split(':');
    expect(Number(userId)).toBe(fan.id);
    expect(Number(expiry)).toBeGreaterThanOrEqual(before + TTL);
    expect(Number(expiry)).toBeLessThanOrEqual(after + TTL);
    expect(coturnAccepts(fanTurn, SECRET)).toBe(true);
    // Signed with another secret, or with the username changed to someone else's, coturn refuses it.
    expect(coturnAccepts(fanTurn, `${SECRET}x`)).toBe(false);
    expect(coturnAccepts({ ...fanTurn, username: `${expiry}:${star.id}` }, SECRET)).toBe(false);

    // Live, the creator gets her own; later asked, a later expiry.
    send(starSocket, callId, 'preAnswer', fan.id, { accept: true });
    await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStart'));
    app.fanstage.clock.advance(90_000);
    const hers = (await call('GET', `/api/calls/${callId}/ice-servers`, star)).json.body as IceAnswer;
    const starTurn = hers.iceServers.find((s) => s.username !== undefined)!;
    expect(starTurn.username!.split(':')[1]).toBe(String(star.id));
    expect(Number(starTurn.username!.split(':')[0])).toBeGreaterThanOrEqual(before + TTL + 90);
    expect(coturnAccepts(starTurn, SECRET)).toBe(true);
    expect(starTurn.credential).not.toBe(fanTurn.credential);

    send(fanSocket, callId, 'callStop', star.id);
    await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'));
  });

  it('are refused to a stranger, a third person, anyone after the call is over and anyone signed out: not-found, as for the call itself', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    const other = await createAccount(app);
    await fundWallet(app, fan.id, 1000);
    const { callId, fanSocket, starSocket } = await ringingCall(server, fan, star);

    expect((await call('GET', `/api/calls/${callId}/ice-servers`, other)).json).toEqual({ statusCode: -1, statusText: 'not-found' });
    expect((await call('GET', `/api/calls/${newCallId()}/ice-servers`, fan)).json).toEqual({ statusCode: -1, statusText: 'not-found' });
    expect((await call('GET', `/api/calls/${callId}/ice-servers`)).status).toBe(401);
    expect((await call('GET', `/api/calls/not-a-call-id/ice-servers`, fan)).json.statusCode).toBe(-1);

    // The creator declines: for both parties the call is over, and so are its credentials.
    send(starSocket, callId, 'preAnswer', fan.id, { accept: false });
    await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'));
    for (const party of [fan, star]) {
      expect((await call('GET', `/api/calls/${callId}/ice-servers`, party)).json).toEqual({ statusCode: -1, statusText: 'not-found' });
    }
  });

  it('are given to a widget session of the fan for its own call (a <fanstage-call> on the creator’s site)', async () => {
    const fan = await createAccount(app);
    const star = await creator();
    expect((await call('PUT', '/api/users/me', star, { embedOrigins: [site] })).json.statusCode).toBe(2);
    await fundWallet(app, fan.id, 1000);
    const issued = await call('POST', '/api/embed/code', fan, { origin: site, allow: true });
    const exchanged = await app.inject({ method: 'POST', url: '/papi/embed/exchange', headers: { origin: site }, payload: { code: issued.json.body.code, origin: site } });
    const widgetToken = (exchanged.json() as { body: { accessToken: string } }).body.accessToken;
    const { callId } = await ringingCall(server, fan, star);

    const asked = await app.inject({ method: 'GET', url: `/api/calls/${callId}/ice-servers`, headers: { authorization: `Bearer ${widgetToken}`, origin: site } });
    const answer = asked.json() as { statusCode: number; body: IceAnswer };
    expect(answer.statusCode).toBe(2);
    expect(coturnAccepts(answer.body.iceServers.find((s) => s.username !== undefined)!, SECRET)).toBe(true);
  });

  it('never show in the settings, which anyone reads: STUN only', async () => {
    const settings = await call('GET', '/papi/settings');
    expect(settings.json.body.iceServers).toEqual([{ urls: STUN }]);
    const text = JSON.stringify(settings.json);
    expect(text).not.toContain('credential');
    expect(text).not.toContain('username');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('turn:');
    // Whatever the settings are given, they carry no credential.
    expect(buildSettings({ publicUrl: 'https://x.example', salt: 10_000, iceServers: [{ urls: 'turn:t.example', username: 'u', credential: 'c' }] }).iceServers).toEqual([
      { urls: 'turn:t.example' },
    ]);
  });
});

describe('without a TURN server configured', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer({ seed: false, env: { ICE_SERVERS: JSON.stringify([{ urls: STUN }]) } });
  }, 60_000);
  afterAll(async () => {
    await plain?.close();
  });

  it('a party of a call gets the STUN servers alone, and no ttl', async () => {
    const fan = await createAccount(plain.app);
    const star = await createAccount(plain.app, { seller: true });
    const asPlain = apiCaller(() => plain.app);
    expect((await asPlain('PUT', '/api/users/me', star, { callPrice: 128 })).json.statusCode).toBeGreaterThan(0);
    await fundWallet(plain.app, fan.id, 1000);
    const { callId } = await ringingCall(plain, fan, star);
    expect((await asPlain('GET', `/api/calls/${callId}/ice-servers`, star)).json).toEqual({ statusCode: 2, body: { iceServers: [{ urls: STUN }], ttl: null } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { startTestServer, type TestServer } from '../support/server';
import { eq } from '../support/db';
import { users } from '../../server/src/db/schema';
import { BADGE_KEYS_JOB } from '../../server/src/features/badge/routes';
import { BADGE_KEY_GRACE_MS, BADGE_KEY_ROTATION_MS, BADGE_TTL_SECONDS } from '../../server/src/features/badge/domain';
import { rotateBadgeKey } from '../../server/src/features/badge/keys';
import { createStoppedClock } from '../../server/src/clock';
import { verifyBadge } from '../../lib/sdk/badge';
import { passIdCheck, photo, register } from './support-partner';

let server: TestServer;
let app: FastifyInstance;
let admin: TestAccount;

beforeAll(async () => {
  // A clock that stands still (on a whole second), so a badge's lifetime and its Cache-Control are exact.
  server = await startTestServer({ seed: false, clock: createStoppedClock(Math.floor(Date.now() / 1000) * 1000) });
  app = server.app;
  admin = await createAccount(app, { level: 500 });
});
afterAll(async () => {
  await server?.close();
});

const call = apiCaller(() => app);

/** An approved partner whose identity the platform verified and who shows the badge. */
async function verifiedPartner(): Promise<TestAccount> {
  const partner = await createAccount(app, { seller: true });
  await app.fanstage.db.update(users).set({ isPartner: true, approvedState: 120, badgeVerifiedState: 3, hasBadge: true }).where(eq(users.id, partner.id));
  return partner;
}

async function jwks(): Promise<JSONWebKeySet> {
  const response = await app.inject({ url: '/.well-known/jwks.json', headers: { origin: 'https://partner.example' } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['access-control-allow-origin']).toBe('*');
  expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
  return response.json() as JSONWebKeySet;
}

async function badgeOf(ref: string): Promise<string> {
  const response = await app.inject({ url: `/papi/users/${ref}/badge` });
  const json = response.json() as { statusCode: number; body: { token: string; expiresAt: number } };
  expect(json.statusCode, JSON.stringify(json)).toBe(2);
  // Cached no longer than it verifies.
  expect(response.headers['cache-control']).toBe(`public, max-age=${Math.round((json.body.expiresAt - app.fanstage.clock.now().getTime()) / 1000)}`);
  return json.body.token;
}

function verifyWith(keys: JSONWebKeySet, token: string) {
  return jwtVerify(token, createLocalJWKSet(keys), { algorithms: ['EdDSA'], currentDate: app.fanstage.clock.now() });
}

describe('the verified badge', () => {
  it('is a short-lived EdDSA statement about the username that verifies with the published key', async () => {
    const partner = await verifiedPartner();
    // By id or by username in another case, the statement names the username.
    const token = await badgeOf(String(partner.id));
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'fanstage-badge+jwt' });
    const keys = await jwks();
    expect(keys.keys.map((key) => key.kid)).toContain(header.kid);
    expect(keys.keys.every((key) => key.kty === 'OKP' && key.crv === 'Ed25519' && !('d' in key))).toBe(true);
    const { payload } = await verifyWith(keys, token);
    expect(payload).toMatchObject({ sub: partner.username, verified: true, partner: true });
    expect(payload.exp! - payload.iat!).toBe(BADGE_TTL_SECONDS);
    expect((await verifyWith(keys, await badgeOf(partner.username.toUpperCase()))).payload.sub).toBe(partner.username);

    // The SDK's own check, with WebCrypto and nothing else, agrees.
    const keyFor = async (kid: string) => keys.keys.find((key) => key.kid === kid) ?? null;
    const now = app.fanstage.clock.now().getTime();
    expect(await verifyBadge(token, keyFor, { username: partner.username, now })).toMatchObject({ sub: partner.username, verified: true });
    expect(await verifyBadge(token, keyFor, { username: 'someone.else', now })).toBeNull();
  });

  it('fails with a tampered signature, a tampered statement or a key of its own', async () => {
    const partner = await verifiedPartner();
    const token = await badgeOf(partner.username);
    const keys = await jwks();
    const [head, body, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    await expect(verifyWith(keys, `${head}.${body}.${flipped}`)).rejects.toThrow();
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'impostor' })).toString('base64url');
    await expect(verifyWith(keys, `${head}.${forged}.${signature}`)).rejects.toThrow();
    const keyFor = async (kid: string) => keys.keys.find((key) => key.kid === kid) ?? null;
    const now = app.fanstage.clock.now().getTime();
    expect(await verifyBadge(`${head}.${body}.${flipped}`, keyFor, { username: partner.username, now })).toBeNull();
    expect(await verifyBadge(`${head}.${forged}.${signature}`, keyFor, { username: 'impostor', now })).toBeNull();
    // Signed by a key the platform never published, under a published kid: refused too.
    const { SignJWT, generateKeyPair } = await import('jose');
    const stranger = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const kid = keys.keys[0]!.kid!;
    const own = await new SignJWT({ verified: true, partner: true })
      .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'fanstage-badge+jwt' })
      .setSubject('impostor')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(stranger.privateKey);
    await expect(verifyWith(keys, own)).rejects.toThrow();
    expect(await verifyBadge(own, keyFor, { username: 'impostor', now })).toBeNull();
    // And `alg: none` is no badge at all.
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid })).toString('base64url')}.${body}.`;
    expect(await verifyBadge(none, keyFor, { username: partner.username, now })).toBeNull();
  });

  it('stops being issued when revoked, and the badge already out stops verifying at its expiry', async () => {
    // Through the programme itself: the form, the identity check, the administrator's approval.
    const partner = await createAccount(app);
    await register(call, partner);
    const pictures = { front: await photo(), back: await photo('#aa3366'), selfie: await photo('#66aa33') };
    await passIdCheck(call, partner, 'AB123456', pictures);
    const approved = await call('POST', `/api/admin/partners/${partner.id}/approve`, admin, {});
    expect(approved.json.statusCode, JSON.stringify(approved.json)).toBe(2);
    const token = await badgeOf(partner.username);
    const revoked = await call('POST', `/api/admin/partners/${partner.id}/revoke-badge`, admin, { reason: 'Documents were forged' });
    expect(revoked.json.statusCode, JSON.stringify(revoked.json)).toBe(2);
    const refused = await app.inject({ url: `/papi/users/${partner.username}/badge` });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ statusCode: -1, statusText: 'badge-not-issued' });
    expect(refused.headers['cache-control']).toBe('no-store');
    // Until its expiry the old statement is still a valid signature…
    const keys = await jwks();
    await expect(verifyWith(keys, token)).resolves.toBeDefined();
    // …and not after.
    app.fanstage.clock.advance(BADGE_TTL_SECONDS * 1000 + 1000);
    await expect(verifyWith(keys, token)).rejects.toThrow(/exp/);
    const keyFor = async (kid: string) => keys.keys.find((key) => key.kid === kid) ?? null;
    expect(await verifyBadge(token, keyFor, { username: partner.username, now: app.fanstage.clock.now().getTime() })).toBeNull();
  });

  it('is not issued to a fan, a banned partner or nobody', async () => {
    const fan = await createAccount(app);
    expect((await call('GET', `/papi/users/${fan.username}/badge`)).json).toEqual({ statusCode: -1, statusText: 'badge-not-issued' });
    const banned = await verifiedPartner();
    await app.fanstage.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, banned.id));
    expect((await call('GET', `/papi/users/${banned.username}/badge`)).json.statusText).toBe('badge-not-issued');
    expect((await call('GET', '/papi/users/nobody.at.all/badge')).json).toEqual({ statusCode: -1, statusText: 'user-not-found' });
    expect((await call('GET', '/papi/users/%3Cscript%3E/badge')).json.statusCode).toBe(-1);
  });

  it('rotates its key by kid: the new key signs, the old one stays published for its grace, then goes', async () => {
    const partner = await verifiedPartner();
    const before = await badgeOf(partner.username);
    const oldKid = decodeProtectedHeader(before).kid!;
    const newKid = await rotateBadgeKey(app.fanstage);
    const after = await badgeOf(partner.username);
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    const both = await jwks();
    expect(both.keys.map((key) => key.kid).sort()).toEqual([oldKid, newKid].sort());
    await expect(verifyWith(both, before)).resolves.toBeDefined();
    await expect(verifyWith(both, after)).resolves.toBeDefined();

    app.fanstage.clock.advance(BADGE_KEY_GRACE_MS + 1000);
    expect(await app.fanstage.jobs.runNow(BADGE_KEYS_JOB)).toBe(1);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([newKid]);

    // A key past the rotation period is replaced by the job itself.
    app.fanstage.clock.advance(BADGE_KEY_ROTATION_MS);
    expect(await app.fanstage.jobs.runNow(BADGE_KEYS_JOB)).toBe(1);
    const rotated = decodeProtectedHeader(await badgeOf(partner.username)).kid;
    expect(rotated).not.toBe(newKid);
    expect((await jwks()).keys.map((key) => key.kid).sort()).toEqual([newKid, rotated].sort());
  });
});

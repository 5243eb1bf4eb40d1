import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { eq, sql } from '../support/db';
import { earningsOf, expectLedgerBalanced, fundWallet } from '../support/money';
import { AFFILIATE_SHARE_PERCENT } from '../../server/src/ledger';
import { users } from '../../server/src/db/schema';
import { loadConfig, ConfigError } from '../../server/src/config';
import { INVITE_CODE_ALPHABET, normalizeInviteCode } from '../../lib/contract/constants';
import { newInviteCode } from '../../server/src/features/invites/domain';
import { issueAccessToken } from '../../server/src/features/auth/guard';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const call = apiCaller(() => app);
const codePattern = new RegExp(`^[${INVITE_CODE_ALPHABET}]{8}$`);

async function codeOf(account: TestAccount): Promise<string> {
  const answer = await call('GET', '/api/users/invite', account);
  expect(answer.json.statusCode).toBe(2);
  return answer.json.body.code as string;
}

async function inviterOf(userId: number): Promise<number | null> {
  const [row] = await app.fanstage.db.select({ id: users.referrerId }).from(users).where(eq(users.id, userId));
  return row?.id ?? null;
}

/** Signs a new account up through POST /papi/signup, as the site does; answers the envelope and the new account's id. */
async function signUp(options: { affCode?: unknown; cookie?: string } = {}) {
  const email = `invited.${randomBytes(5).toString('hex')}@example.com`;
  const response = await app.inject({
    method: 'POST',
    url: '/papi/signup',
    payload: { email, password: 'a long enough password', ...(options.affCode === undefined ? {} : { affCode: options.affCode }) },
    ...(options.cookie === undefined ? {} : { cookies: { affcode: options.cookie } }),
  });
  const [row] = await app.fanstage.db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`);
  return { status: response.statusCode, json: response.json() as { statusCode: number; statusText?: string }, id: row?.id ?? null };
}

describe('invite codes', () => {
  it('are 8 characters without look-alikes, one per account, the same every time, with the link that carries them', async () => {
    const [ann, bob] = [await createAccount(app), await createAccount(app)];
    const first = await call('GET', '/api/users/invite', ann);
    expect(first.json.body.code).toMatch(codePattern);
    expect(first.json.body.link).toBe(`${app.fanstage.config.publicUrl}/?aff=${first.json.body.code}`);
    expect(await codeOf(ann)).toBe(first.json.body.code);
    expect(await codeOf(bob)).not.toBe(first.json.body.code);
    expect(first.json.body.invitedBy).toBeNull();
  });

  it('are given once even when asked for twice at the same moment', async () => {
    const fan = await createAccount(app);
    const codes = await Promise.all(Array.from({ length: 6 }, () => codeOf(fan)));
    expect(new Set(codes).size).toBe(1);
  });

  it('are drawn from the whole alphabet and read in any case, and nothing else reads as one', () => {
    let next = 0;
    expect(newInviteCode(() => next++ % INVITE_CODE_ALPHABET.length)).toBe(INVITE_CODE_ALPHABET.slice(0, 8));
    expect(normalizeInviteCode(' abcdefgh ')).toBe('ABCDEFGH');
    for (const wrong of ['ABCDEFG', 'ABCDEFGHJ', 'ABCDEFG0', 'ABCDEFGI', 'C-12345678', 'ABC DEFG', '', null, undefined]) {
      expect(normalizeInviteCode(wrong)).toBeNull();
    }
  });

  it('are only for the signed-in account itself', async () => {
    const answer = await call('GET', '/api/users/invite');
    expect(answer.status).toBe(401);
    expect(answer.json.statusCode).toBe(-1);
  });
});

describe('the affiliate lookup for the invitation prompt', () => {
  it('tells a visitor the username, display name and avatar behind a code, in any case, and nothing more', async () => {
    const creator = await createAccount(app, { seller: true });
    await app.fanstage.db.update(users).set({ displayName: 'Lucy Rivers' }).where(eq(users.id, creator.id));
    const code = await codeOf(creator);
    for (const asked of [code, code.toLowerCase()]) {
      const answer = await call('GET', `/papi/users/aff-code/${asked}`);
      expect(answer.json).toEqual({ statusCode: 2, body: { username: creator.username, displayName: 'Lucy Rivers', avatarMedia: null } });
    }
  });

  it('answers user-not-found for an unknown, malformed or partner code and for an account that is gone, never a failure of the server', async () => {
    const gone = await createAccount(app);
    const banned = await createAccount(app);
    const [goneCode, bannedCode] = [await codeOf(gone), await codeOf(banned)];
    await app.fanstage.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
    await app.fanstage.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, banned.id));
    let unknown = newInviteCode();
    while ((await call('GET', `/papi/users/aff-code/${unknown}`)).json.statusCode === 2) unknown = newInviteCode();
    for (const code of [unknown, 'C-AB12CD34', 'not-a-code', '%27%20or%201%3D1', goneCode, bannedCode, 'x'.repeat(64)]) {
      const answer = await call('GET', `/papi/users/aff-code/${code}`);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ statusCode: -1, statusText: 'user-not-found' });
    }
    expect((await call('GET', `/papi/users/aff-code/${'x'.repeat(65)}`)).json.statusCode).toBe(-1);
  });
});

describe('a sign-up with an invite code', () => {
  it('makes the affiliate relation from the code in the sign-up', async () => {
    const inviter = await createAccount(app, { seller: true });
    const signed = await signUp({ affCode: (await codeOf(inviter)).toLowerCase() });
    expect(signed.json).toEqual({ statusCode: 1 });
    expect(await inviterOf(signed.id!)).toBe(inviter.id);
    // The invited account sees who invited it, as anyone may see that person.
    const token = await issueAccessToken(app.fanstage, signed.id!);
    const invite = await app.inject({ method: 'GET', url: '/api/users/invite', headers: { authorization: `Bearer ${token}` } });
    expect(invite.json().body.invitedBy).toEqual({ username: inviter.username, displayName: inviter.username, avatarMedia: null });
  });

  it('makes it from the affcode cookie an invite link left, and the code in the sign-up wins over the cookie', async () => {
    const [first, second] = [await createAccount(app), await createAccount(app)];
    const fromCookie = await signUp({ cookie: await codeOf(first) });
    expect(fromCookie.json.statusCode).toBe(1);
    expect(await inviterOf(fromCookie.id!)).toBe(first.id);
    const both = await signUp({ cookie: await codeOf(first), affCode: await codeOf(second) });
    expect(await inviterOf(both.id!)).toBe(second.id);
  });

  it('still signs up, with no inviter, when the code is unknown, malformed, a partner code or of an account that is gone', async () => {
    const gone = await createAccount(app);
    const goneCode = await codeOf(gone);
    await app.fanstage.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
    for (const options of [{ affCode: 'ZZZZZZZZ' }, { affCode: 'C-AB12CD34' }, { affCode: '' }, { cookie: 'nonsense!' }, { affCode: goneCode }]) {
      const signed = await signUp(options);
      expect(signed.json).toEqual({ statusCode: 1 });
      expect(await inviterOf(signed.id!)).toBeNull();
    }
    // A code longer than any code is refused by the contract, as any bad input is.
    const tooLong = await signUp({ affCode: 'A'.repeat(65) });
    expect(tooLong.json.statusCode).toBe(-1);
    expect(tooLong.id).toBeNull();
  });
});

describe('POST /api/users/aff-code', () => {
  it('records an inviter for an account that has none', async () => {
    const [inviter, fan] = [await createAccount(app), await createAccount(app)];
    expect((await call('POST', '/api/users/aff-code', fan, { affCode: await codeOf(inviter) })).json).toEqual({ statusCode: 1 });
    expect(await inviterOf(fan.id)).toBe(inviter.id);
  });

  it('ignores one’s own code, an unknown code, and any code once the account has an inviter', async () => {
    const [inviter, later, fan] = [await createAccount(app), await createAccount(app), await createAccount(app)];
    expect((await call('POST', '/api/users/aff-code', fan, { affCode: await codeOf(fan) })).json).toEqual({ statusCode: -1, statusText: 'cannot-target-self' });
    expect(await inviterOf(fan.id)).toBeNull();
    expect((await call('POST', '/api/users/aff-code', fan, { affCode: 'ZZZZZZZZ' })).json.statusText).toBe('user-not-found');
    expect(await inviterOf(fan.id)).toBeNull();
    await call('POST', '/api/users/aff-code', fan, { affCode: await codeOf(inviter) });
    expect((await call('POST', '/api/users/aff-code', fan, { affCode: await codeOf(later) })).json).toEqual({ statusCode: 1 });
    expect(await inviterOf(fan.id)).toBe(inviter.id);
    // An account signed up through an invite keeps that inviter too.
    const signed = await signUp({ affCode: await codeOf(inviter) });
    const token = (await app.inject({ method: 'POST', url: '/papi/login', payload: { email: (await app.fanstage.db.select({ email: users.email }).from(users).where(eq(users.id, signed.id!)))[0]!.email, password: 'a long enough password' } })).json().body.accessToken as string;
    const again = await app.inject({ method: 'POST', url: '/api/users/aff-code', headers: { authorization: `Bearer ${token}` }, payload: { affCode: await codeOf(later) } });
    expect(again.json()).toEqual({ statusCode: 1 });
    expect(await inviterOf(signed.id!)).toBe(inviter.id);
  });

  it('keeps exactly one inviter when two codes arrive at once', async () => {
    const [a, b, fan] = [await createAccount(app), await createAccount(app), await createAccount(app)];
    const [codeA, codeB] = [await codeOf(a), await codeOf(b)];
    const answers = await Promise.all([codeA, codeB, codeA, codeB].map((affCode) => call('POST', '/api/users/aff-code', fan, { affCode })));
    expect(answers.every((answer) => answer.json.statusCode === 1)).toBe(true);
    expect([a.id, b.id]).toContain(await inviterOf(fan.id));
  });

  it('is refused to a signed-out caller and to a body without a code', async () => {
    const inviter = await createAccount(app);
    const signedOut = await call('POST', '/api/users/aff-code', undefined, { affCode: await codeOf(inviter) });
    expect(signedOut.status).toBe(401);
    expect(signedOut.json.statusCode).toBe(-1);
    const fan = await createAccount(app);
    expect((await call('POST', '/api/users/aff-code', fan, {})).json.statusCode).toBe(-1);
    expect((await call('POST', '/api/users/aff-code', fan, { affCode: 12345678 })).json.statusCode).toBe(-1);
    expect(await inviterOf(fan.id)).toBeNull();
  });
});

describe('the inviter’s share', () => {
  it('arrives in the inviter’s earnings as affiliate lines when the invited account spends', async () => {
    const inviter = await createAccount(app);
    const creator = await createAccount(app, { seller: true });
    const signed = await signUp({ cookie: await codeOf(inviter) });
    await app.fanstage.db.update(users).set({ emailVerified: true }).where(eq(users.id, signed.id!));
    const gifts = (await call('GET', '/papi/gifts')).json.body as { id: number; gValue: number; cValue: number }[];
    const gift = gifts.find((g) => g.gValue - g.cValue >= 100)!;
    await fundWallet(app, signed.id!, gift.gValue);
    const [row] = await app.fanstage.db.select({ email: users.email }).from(users).where(eq(users.id, signed.id!));
    const login = await app.inject({ method: 'POST', url: '/papi/login', payload: { email: row!.email, password: 'a long enough password' } });
    const token = login.json().body.accessToken as string;
    const tip = await app.inject({ method: 'POST', url: '/api/users/tip', headers: { authorization: `Bearer ${token}` }, payload: { userId: creator.id, giftId: gift.id } });
    expect(tip.json().statusCode).toBe(2);

    const share = Math.floor(((gift.gValue - gift.cValue) * AFFILIATE_SHARE_PERCENT) / 100);
    expect(await earningsOf(app, inviter.id)).toBe(share);
    const lines = (await call('GET', '/api/earnings/', inviter)).json.body;
    expect(lines[0]).toMatchObject({ transactionType: 'affiliate', amountCents: share, user: { id: signed.id } });
    expect((await call('GET', '/api/earnings/transactions-affil/', inviter)).json.body).toHaveLength(1);
    await expectLedgerBalanced(app);
  });
});

describe('the affcode cookie', () => {
  it('lives 31 days and holds the code as given', async () => {
    const response = await app.inject({ method: 'POST', url: '/papi/users/cookie', payload: { name: 'affcode', value: 'ABCDEFGH' } });
    expect(response.json()).toEqual({ statusCode: 1 });
    expect(String(response.headers['set-cookie'])).toMatch(/^affcode=ABCDEFGH; Max-Age=2678400; Path=\/; SameSite=Lax/);
  });
});

describe('the model-program setting', () => {
  it('is on unless MODEL_PROGRAM turns it off, and the public settings say which', async () => {
    expect((await call('GET', '/papi/settings')).json.body.modelProgram).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).modelProgram).toBe(true);
    for (const off of ['false', '0', 'OFF', 'no']) expect(loadConfig({ NODE_ENV: 'test', MODEL_PROGRAM: off }).modelProgram).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'test', MODEL_PROGRAM: 'maybe' })).toThrow(ConfigError);
  });
});

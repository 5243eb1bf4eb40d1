import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { and, eq } from '../support/db';
import { expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { chatMessages, deletionSurveys, ledgerTransfers, mailOutbox, phoneCodes, users } from '../../server/src/db/schema';
import { normalisePhone } from '../../server/src/features/phone/domain';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer();
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const call = apiCaller(() => app);

/** The newest outbox row to an address (mails and sandbox SMS share the development outbox). */
async function newestOutbox(to: string) {
  const rows = await app.fanstage.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
  return rows.sort((a, b) => b.id - a.id)[0];
}

/** The six digits of the newest sandbox SMS to `phone`. */
async function smsCode(phone: string): Promise<string> {
  const sms = await newestOutbox(phone);
  expect(sms?.template).toBe('sms');
  const code = /\b(\d{6})\b/.exec(sms!.text)?.[1];
  expect(code).toMatch(/^\d{6}$/);
  return code!;
}

let phoneCounter = 0;
/** A number no other test uses, so the per-number throttle never mixes tests. */
function freshPhone(): string {
  phoneCounter += 1;
  return `+42077${String(Date.now() % 10_000_000).padStart(7, '0')}${phoneCounter}`.slice(0, 16);
}

describe('changing the e-mail address (PUT /api/users/me {email, currentPassword})', () => {
  it('needs the current password, refuses bad and taken addresses, then unverifies and mails the new address', async () => {
    const me = await createAccount(app);
    const other = await createAccount(app);
    const next = `moved.${Date.now()}@example.com`;

    const noPassword = await call('PUT', '/api/users/me', me, { email: next });
    expect([noPassword.status, noPassword.json.statusCode, noPassword.json.statusText]).toEqual([400, -1, 'invalid-request']);
    const wrong = await call('PUT', '/api/users/me', me, { email: next, currentPassword: 'not my password' });
    expect([wrong.json.statusCode, wrong.json.statusText]).toEqual([-1, 'wrong-password']);
    const invalid = await call('PUT', '/api/users/me', me, { email: 'not an address', currentPassword: me.password });
    expect([invalid.json.statusCode, invalid.json.statusText]).toEqual([-1, 'invalid-email']);
    const taken = await call('PUT', '/api/users/me', me, { email: other.email.toUpperCase(), currentPassword: me.password });
    expect([taken.status, taken.json.statusCode, taken.json.statusText]).toEqual([409, -1, 'email-taken']);
    expect((await call('GET', '/api/users/me', me)).json.body).toMatchObject({ email: me.email, emailVerified: true });

    const changed = await call('PUT', '/api/users/me', me, { email: next, currentPassword: me.password });
    expect(changed.json.statusCode).toBe(2);
    expect(changed.json.body).toMatchObject({ email: next, emailVerified: false });
    const mail = await newestOutbox(next);
    expect(mail?.template).toBe('verify-email');
    const link = /\/action\/([\w-]+)/.exec(mail!.text)?.[1];
    expect((await call('POST', '/papi/action/jwt', undefined, { hash: link })).json.statusCode).toBeGreaterThan(0);
    expect((await call('GET', '/api/users/me', me)).json.body).toMatchObject({ email: next, emailVerified: true });
    // The old address signs in no more; the new one does.
    expect((await call('POST', '/papi/login', undefined, { email: me.email, password: me.password })).json.statusCode).toBe(-1);
    expect((await call('POST', '/papi/login', undefined, { email: next, password: me.password })).json.statusCode).toBe(2);
  });

  it('ends the links mailed to the old address, so they cannot verify the new one', async () => {
    const me = await createAccount(app, { verified: false });
    await call('POST', '/api/users/resend-verification', me);
    const old = await newestOutbox(me.email);
    const oldLink = /\/action\/([\w-]+)/.exec(old!.text)?.[1];
    const next = `second.${Date.now()}@example.com`;
    expect((await call('PUT', '/api/users/me', me, { email: next, currentPassword: me.password })).json.statusCode).toBe(2);
    expect((await call('POST', '/papi/action/jwt', undefined, { hash: oldLink })).json.statusText).toBe('link-expired');
    expect((await call('GET', '/api/users/me', me)).json.body.emailVerified).toBe(false);
  });
});

describe('changing the password (PUT /api/users/me {currentPassword, newPassword})', () => {
  it('needs the current password and a valid new one, and signs the other sessions out', async () => {
    const me = await createAccount(app);
    const other = await call('POST', '/papi/login', undefined, { email: me.email, password: me.password, tokenInBody: true });
    const otherToken = other.json.body.accessToken as string;
    expect((await call('PUT', '/api/users/me', me, { currentPassword: 'wrong one', newPassword: 'a long new password' })).json.statusText).toBe('wrong-password');
    expect((await call('PUT', '/api/users/me', me, { currentPassword: me.password, newPassword: 'short' })).json.statusText).toBe('invalid-request');
    expect((await call('PUT', '/api/users/me', me, { currentPassword: me.password, newPassword: 'a long new password' })).json.statusCode).toBe(2);
    const stale = await app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${otherToken}` } });
    expect(stale.statusCode).toBe(401);
    expect((await call('POST', '/papi/login', undefined, { email: me.email, password: me.password })).json.statusCode).toBe(-1);
    expect((await call('POST', '/papi/login', undefined, { email: me.email, password: 'a long new password' })).json.statusCode).toBe(2);
  });
});

describe('phone verification by SMS (GET /api/sms/send-verification-code, POST /api/users/verify-phone)', () => {
  it('reads numbers in E.164 and forgives spaces and dashes', () => {
    expect(normalisePhone('+420 601-234 567')).toBe('+420601234567');
    expect(normalisePhone('00420601234567')).toBe('+420601234567');
    expect(normalisePhone('601234567')).toBeNull();
    expect(normalisePhone('+0601234567')).toBeNull();
    expect(normalisePhone('+420 call me')).toBeNull();
  });

  it('needs a login, refuses bad numbers, and a code proves the number (statusCode 1)', async () => {
    expect((await call('GET', '/api/sms/send-verification-code?phone=%2B420601234567')).status).toBe(401);
    expect((await call('POST', '/api/users/verify-phone', undefined, { code: '123456' })).status).toBe(401);
    const me = await createAccount(app);
    const bad = await call('GET', '/api/sms/send-verification-code?phone=12345', me);
    expect([bad.status, bad.json.statusCode, bad.json.statusText]).toEqual([400, -1, 'invalid-phone']);
    expect((await call('GET', '/api/sms/send-verification-code', me)).json.statusText).toBe('invalid-request');
    expect((await call('POST', '/api/users/verify-phone', me, {})).json.statusText).toBe('invalid-request');
    // No code was sent yet.
    expect((await call('POST', '/api/users/verify-phone', me, { code: '123456' })).json.statusText).toBe('phone-code-expired');

    const phone = freshPhone();
    const sent = await call('GET', `/api/sms/send-verification-code?phone=${encodeURIComponent(phone)}`, me);
    expect(sent.json).toEqual({ statusCode: 2, body: { phone, expiresInSeconds: 600 } });
    const code = await smsCode(phone);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await call('POST', '/api/users/verify-phone', me, { code: wrongCode });
    expect([wrong.json.statusCode, wrong.json.statusText, wrong.json.body]).toEqual([-1, 'phone-code-wrong', { attemptsLeft: 4 }]);
    expect((await call('GET', '/api/users/me', me)).json.body.phoneVerified).toBe(false);

    expect((await call('POST', '/api/users/verify-phone', me, { code })).json).toEqual({ statusCode: 1 });
    expect((await call('GET', '/api/users/me', me)).json.body.phoneVerified).toBe(true);
    const [row] = await app.fanstage.db.select({ phone: users.phone }).from(users).where(eq(users.id, me.id));
    expect(row?.phone).toBe(phone);
    // A code works once.
    expect((await call('POST', '/api/users/verify-phone', me, { code })).json.statusText).toBe('phone-code-expired');
    // Only a hash of the code is stored.
    const codes = await app.fanstage.db.select().from(phoneCodes).where(eq(phoneCodes.userId, me.id));
    expect(codes.some((c) => c.codeHash.includes(code))).toBe(false);
  });

  it('ends a code after five wrong guesses, even the right one after them', async () => {
    const me = await createAccount(app);
    const phone = freshPhone();
    await call('GET', `/api/sms/send-verification-code?phone=${encodeURIComponent(phone)}`, me);
    const code = await smsCode(phone);
    const wrongCode = code === '999999' ? '888888' : '999999';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push((await call('POST', '/api/users/verify-phone', me, { code: wrongCode })).json.statusText!);
    expect(answers).toEqual(['phone-code-wrong', 'phone-code-wrong', 'phone-code-wrong', 'phone-code-wrong', 'phone-code-attempts']);
    expect((await call('POST', '/api/users/verify-phone', me, { code })).json.statusText).toBe('phone-code-expired');
    expect((await call('GET', '/api/users/me', me)).json.body.phoneVerified).toBe(false);
  });

  it('refuses an expired code, and only the newest code counts', async () => {
    const me = await createAccount(app);
    const phone = freshPhone();
    await call('GET', `/api/sms/send-verification-code?phone=${encodeURIComponent(phone)}`, me);
    const first = await smsCode(phone);
    app.fanstage.clock.advance(11 * 60_000);
    expect((await call('POST', '/api/users/verify-phone', me, { code: first })).json.statusText).toBe('phone-code-expired');
    await call('GET', `/api/sms/send-verification-code?phone=${encodeURIComponent(phone)}`, me);
    const second = await smsCode(phone);
    await call('GET', `/api/sms/send-verification-code?phone=${encodeURIComponent(phone)}`, me);
    const third = await smsCode(phone);
    if (second !== third) expect((await call('POST', '/api/users/verify-phone', me, { code: second })).json.statusText).toBe('phone-code-wrong');
    expect((await call('POST', '/api/users/verify-phone', me, { code: third })).json.statusCode).toBe(1);
  });

  it('throttles sending: five an hour per account', async () => {
    const me = await createAccount(app);
    const statuses: string[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await call('GET', `/api/sms/send-verification-code?phone=${encodeURIComponent(freshPhone())}`, me);
      statuses.push(answer.json.statusText ?? String(answer.json.statusCode));
    }
    expect(statuses).toEqual(['2', '2', '2', '2', '2', 'too-many-requests']);
  });

  it('never lets one account prove a code sent to another account', async () => {
    const owner = await createAccount(app);
    const stranger = await createAccount(app);
    const phone = freshPhone();
    await call('GET', `/api/sms/send-verification-code?phone=${encodeURIComponent(phone)}`, owner);
    const code = await smsCode(phone);
    expect((await call('POST', '/api/users/verify-phone', stranger, { code })).json.statusText).toBe('phone-code-expired');
    expect((await call('GET', '/api/users/me', stranger)).json.body.phoneVerified).toBe(false);
    expect((await call('GET', '/api/users/me', owner)).json.body.phoneVerified).toBe(false);
  });
});

describe('downloading my data (GET /api/users/me/export)', () => {
  it('is an attachment holding only the account’s own data', async () => {
    const me = await createAccount(app);
    const other = await createAccount(app, { seller: true });
    expect((await call('GET', '/api/users/me/export')).status).toBe(401);

    const myPost = (await call('POST', '/api/posts', me, { text: 'my own words' })).json.body.id as number;
    const theirPost = (await call('POST', '/api/posts', other, { text: 'their words' })).json.body.id as number;
    await call('POST', '/api/posts/comments', me, { postId: theirPost, text: 'my comment' });
    await call('POST', '/api/posts/comments', other, { postId: myPost, text: 'their comment' });
    await call('POST', '/api/users/follow', me, { id: other.id });
    await call('POST', '/api/users/follow', other, { id: me.id });
    await app.fanstage.db.insert(chatMessages).values([
      { msgId: `m-${me.id}`, senderId: me.id, receiverId: other.id, text: 'my message' },
      { msgId: `t-${other.id}`, senderId: other.id, receiverId: me.id, text: 'their message' },
    ]);
    await fundWallet(app, me.id, 500);

    const response = await app.inject({ method: 'GET', url: '/api/users/me/export', headers: { authorization: `Bearer ${me.accessToken}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="fanstage-.+\.json"$/);
    expect(response.headers['content-type']).toContain('application/json');
    const data = response.json();
    expect(data).toMatchObject({ format: 'fanstage-account-export', version: 1, profile: { id: me.id, email: me.email } });
    expect(data.posts.map((p: { text: string }) => p.text)).toEqual(['my own words']);
    expect(data.comments.map((c: { text: string }) => c.text)).toEqual(['my comment']);
    expect(data.messagesSent.map((m: { text: string; to: string }) => [m.text, m.to])).toEqual([['my message', other.username]]);
    expect(data.follows.map((f: { username: string }) => f.username)).toEqual([other.username]);
    expect(data.transactions).toEqual([expect.objectContaining({ kind: 'promotion', account: 'wallet', amount: 500 })]);
    const text = response.body;
    for (const foreign of ['their words', 'their comment', 'their message', other.email]) expect(text).not.toContain(foreign);
  });
});

describe('deleting the account (DELETE /api/users/me)', () => {
  it('needs the survey’s reason and the password', async () => {
    const me = await createAccount(app);
    expect((await call('DELETE', '/api/users/me', me, { password: me.password })).json.statusText).toBe('invalid-request');
    expect((await call('DELETE', '/api/users/me', me, { deleteReason: 0, password: me.password })).json.statusText).toBe('invalid-request');
    expect((await call('DELETE', '/api/users/me', me, { deleteReason: 2 })).json.statusText).toBe('invalid-request');
    const wrong = await call('DELETE', '/api/users/me', me, { deleteReason: 2, password: 'not mine' });
    expect([wrong.status, wrong.json.statusText]).toEqual([403, 'wrong-password']);
    expect((await call('GET', '/api/users/me', me)).json.statusCode).toBe(2);
  });

  it('cannot be done by a stranger with their own token and password: only the caller’s own account goes', async () => {
    const owner = await createAccount(app);
    const stranger = await createAccount(app);
    // The owner's password does not confirm the stranger's own request either.
    expect((await call('DELETE', '/api/users/me', stranger, { deleteReason: 1, password: owner.password })).json.statusText).toBe('wrong-password');
    expect((await call('GET', '/api/users/me', stranger)).json.statusCode).toBe(2);
    expect((await call('GET', '/api/users/me', owner)).json.statusCode).toBe(2);
    const exported = await app.inject({ method: 'GET', url: '/api/users/me/export', headers: { authorization: `Bearer ${stranger.accessToken}` } });
    expect(exported.json().profile.id).toBe(stranger.id);
  });

  it('keeps the survey and the ledger, anonymises the person, ends sessions and hides the profile and posts', async () => {
    const me = await createAccount(app);
    const creator = await createAccount(app, { seller: true });
    await fundWallet(app, me.id, 2000);
    const gift = ((await call('GET', '/papi/gifts')).json.body as { id: number; gValue: number }[]).find((g) => g.gValue <= 2000)!;
    expect((await call('POST', '/api/users/tip', me, { userId: creator.id, giftId: gift.id })).json.statusCode).toBe(2);
    const post = (await call('POST', '/api/posts', me, { text: 'soon gone' })).json.body.id as number;
    const transfersBefore = await app.fanstage.db.$count(ledgerTransfers, eq(ledgerTransfers.userId, me.id));
    const walletBefore = await walletOf(app, me.id);

    const deleted = await call('DELETE', '/api/users/me', me, { deleteReason: 3, text: '  privacy  ', password: me.password });
    expect(deleted.json).toEqual({ statusCode: 1 });

    const [survey] = await app.fanstage.db.select().from(deletionSurveys).where(eq(deletionSurveys.userId, me.id));
    expect(survey).toMatchObject({ reason: 3, text: 'privacy' });
    const [row] = await app.fanstage.db.select().from(users).where(eq(users.id, me.id));
    expect(row).toMatchObject({ email: null, passwordHash: null, phone: null, displayName: 'Deleted user', username: `deleted-${me.id}`, deleteReason: 3 });
    expect(row?.deletedAt).toBeInstanceOf(Date);
    // The money records stay, and the ledger still adds up.
    expect(await app.fanstage.db.$count(ledgerTransfers, eq(ledgerTransfers.userId, me.id))).toBe(transfersBefore);
    expect(await walletOf(app, me.id)).toBe(walletBefore);
    await expectLedgerBalanced(app);

    expect((await call('GET', '/api/users/me', me)).status).toBe(401);
    expect((await call('POST', '/papi/login', undefined, { email: me.email, password: me.password })).json.statusCode).toBe(-1);
    expect((await call('GET', `/papi/users/${me.username}`)).json.statusText).toBe('user-not-found');
    expect((await call('GET', `/papi/users/${me.id}`)).json.statusText).toBe('user-not-found');
    expect((await call('GET', `/papi/posts/${post}`)).json.statusCode).toBe(-1);
    // The address is free for a new account.
    expect((await call('POST', '/papi/signup', undefined, { email: me.email, password: 'a fresh password' })).json.statusCode).toBe(1);
    const stillThere = await app.fanstage.db.select().from(users).where(and(eq(users.id, creator.id)));
    expect(stillThere).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { startTestServer, type TestServer } from '../support/server';
import { closeSockets, connectSocket } from '../support/sockets';
import { eq } from '../support/db';
import { identityDocuments, media, partnerDecisions, users } from '../../server/src/db/schema';
import { IDENTITY_SIGNATURE_HEADER, identityKeys } from '../../server/src/features/partner/identity/sandbox';
import { goodForm, passIdCheck, photo, register, stateOf, submitIdentityPage } from './support-partner';

let server: TestServer;
let app: FastifyInstance;
let admin: TestAccount;
let pictures: { front: Buffer; back: Buffer; selfie: Buffer };

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
  admin = await createAccount(app, { level: 500 });
  const [front, back, selfie] = await Promise.all([photo('#3366aa'), photo('#aa6633'), photo('#33aa66')]);
  pictures = { front: front!, back: back!, selfie: selfie! };
});
afterAll(async () => {
  closeSockets();
  await server?.close();
});

const call = apiCaller(() => app);

async function notificationTypes(account: TestAccount): Promise<string[]> {
  const answer = await call('GET', '/api/2/notifications?limit=30', account);
  return (answer.json.body.notifications as { type: string }[]).map((n) => n.type);
}

/** Posts a callback to the platform as a provider would. */
function postCallback(body: string, signature: string | undefined) {
  return app.inject({
    method: 'POST',
    url: '/papi/identity/sandbox/callback',
    headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { [IDENTITY_SIGNATURE_HEADER]: signature }) },
    payload: body,
  });
}

describe('the partner form', () => {
  it('answers the empty programme first, then saves a valid form and moves 0 → 7', async () => {
    const person = await createAccount(app);
    expect((await call('GET', '/api/partner', person)).json).toEqual({
      statusCode: 2,
      body: {
        approvedState: 0,
        isPartner: false,
        isSeller: false,
        hasBadge: false,
        badgeVerifiedState: 0,
        form: null,
        partnerCode: null,
        referredCode: null,
        declineReason: null,
        actionGirlState: 0,
        idCheck: null,
      },
    });
    const saved = await call('PUT', '/api/partner', person, goodForm);
    expect(saved.json).toMatchObject({
      statusCode: 2,
      body: { approvedState: 7, form: { name: 'Jana Nováková', street: 'Dlouhá 12', zip: '110 00', country: 'CZ', iban: 'CZ6508000000192000145399', companyId: '12345678' } },
    });
  });

  it.each([
    ['name', 'x', 'partner-invalid-name'],
    ['street', '<>', 'partner-invalid-street'],
    ['zip', '!', 'partner-invalid-zip'],
    ['country', 'Czech', 'partner-invalid-country'],
    ['iban', 'CZ6508000000192000145398', 'partner-invalid-iban'],
    ['companyId', '$$', 'partner-invalid-company-id'],
  ])('refuses a bad %s with a key naming it, and saves nothing', async (field, value, key) => {
    const person = await createAccount(app);
    const answer = await call('PUT', '/api/partner', person, { ...goodForm, [field]: value });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ statusCode: -1, statusText: key, body: { field } });
    expect((await call('GET', '/api/partner', person)).json.body).toMatchObject({ approvedState: 0, form: null });
  });

  it('sends the validation expressions in GET /papi/settings', async () => {
    const settings = await call('GET', '/papi/settings');
    expect(Object.keys(settings.json.body.partnerValidation).sort()).toEqual(['companyId', 'iban', 'name', 'street', 'zip']);
  });

  it('finishes the registration only from 7, and only with a real partner code', async () => {
    const person = await createAccount(app);
    expect((await call('GET', '/api/partner/reg-done', person)).json).toEqual({ statusCode: -1, statusText: 'partner-wrong-state', body: { approvedState: 0 } });
    await call('PUT', '/api/partner', person, goodForm);
    expect((await call('GET', '/api/partner/reg-done?companyCode=C-ABCDEFGH', person)).json).toMatchObject({ statusCode: -1, statusText: 'invalid-code' });
    expect((await call('GET', '/api/partner/reg-done', person)).json).toMatchObject({ statusCode: 2, body: { approvedState: 101 } });
    expect((await call('GET', '/api/partner/reg-done', person)).json).toMatchObject({ statusCode: -1, statusText: 'partner-wrong-state' });
  });

  it('cancels the verification back to 0 from any state before approval', async () => {
    const person = await createAccount(app);
    expect((await call('GET', '/api/partner/cancel-verification', person)).json).toMatchObject({ statusCode: -1, statusText: 'partner-wrong-state' });
    await register(call, person);
    const started = await call('GET', '/api/partner/start-id-check', person);
    expect(await stateOf(call, person)).toBe(105);
    const cancelled = await call('GET', '/api/partner/cancel-verification', person);
    expect(cancelled.json).toMatchObject({ statusCode: 2, body: { approvedState: 0, idCheck: { id: started.json.body.checkId, status: 'cancelled' } } });
    // The provider's page of a cancelled check is closed.
    const page = await fetch(started.json.body.redirectUrl);
    expect(page.status).toBe(409);
  });
});

describe('the sandbox identity check', () => {
  it('runs the redirect flow: the page takes three pictures, the signed callback moves 105 → 110 and tells the person', async () => {
    const person = await createAccount(app);
    await register(call, person);
    const socket = await connectSocket(server, person);
    const mark = socket.mark;
    const started = await call('GET', '/api/partner/start-id-check', person);
    const { checkId, redirectUrl } = started.json.body as { checkId: string; redirectUrl: string };
    expect(redirectUrl).toContain(`${server.baseUrl}/papi/identity/sandbox/check/${checkId}?sig=`);
    expect((await call('GET', '/api/partner/check-id-check', person)).json).toMatchObject({ statusCode: -1, statusText: 'id-check-pending', body: { id: checkId, status: 'started' } });

    const page = await fetch(redirectUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of ['id="front"', 'id="back"', 'id="selfie"', 'for="documentNumber"', '100000001', '200000002', '300000003']) expect(html).toContain(text);
    const czech = await (await fetch(redirectUrl.replace(/lang=\w+/, 'lang=cs'))).text();
    expect(czech).toContain('<html lang="cs">');
    expect(czech).toContain('Ověřte svou totožnost');

    // A picture missing and a bad number: the form again, with the fields marked, and nothing decided.
    const incomplete = await submitIdentityPage(redirectUrl, '12', { front: pictures.front, back: pictures.back });
    expect(incomplete.status).toBe(422);
    const again = await incomplete.text();
    expect(again).toContain('id="selfie-error"');
    expect(again).toContain('id="documentNumber-error"');
    expect(await stateOf(call, person)).toBe(105);

    const done = await submitIdentityPage(redirectUrl, '100000001', pictures);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${server.baseUrl}/verify-request?check=${checkId}`);

    const checked = await call('GET', '/api/partner/check-id-check', person);
    expect(checked.json).toMatchObject({ statusCode: 2, body: { id: checkId, status: 'approved', provider: 'sandbox' } });
    expect((checked.json.body.documents as { kind: string }[]).map((d) => d.kind).sort()).toEqual(['back', 'front', 'selfie']);
    expect(await stateOf(call, person)).toBe(110);
    expect(await notificationTypes(person)).toContain('verificationApproved');
    const changed = await socket.nextOf('eventMessage', mark, (m) => m.event === 'partnerStatusChanged' && m.data?.approvedState === 110);
    expect(changed).toMatchObject({ userId: person.id, data: { approvedState: 110, isPartner: false, isSeller: false } });
    // The page of a decided check does not take another verdict.
    expect((await submitIdentityPage(redirectUrl, '200000002', pictures)).status).toBe(409);
  });

  it('a declined test document leaves the account in 101 with the reason; review waits in 107', async () => {
    const declined = await createAccount(app);
    await register(call, declined);
    await passIdCheck(call, declined, '200000002', pictures);
    expect(await stateOf(call, declined)).toBe(101);
    const answer = await call('GET', '/api/partner/check-id-check', declined);
    expect(answer.json).toMatchObject({ statusCode: -1, statusText: 'id-check-declined', body: { status: 'declined' } });
    expect(answer.json.body.reason).toMatch(/could not be verified/);
    // 101 may try again.
    expect((await call('GET', '/api/partner/start-id-check', declined)).json.statusCode).toBe(2);

    const reviewed = await createAccount(app);
    await register(call, reviewed);
    await passIdCheck(call, reviewed, '300000003', pictures);
    expect(await stateOf(call, reviewed)).toBe(107);
    expect((await call('GET', '/api/partner/check-id-check', reviewed)).json).toMatchObject({ statusCode: -1, statusText: 'id-check-review' });
  });

  it('refuses a forged callback, a replayed one and a stale one, changing nothing', async () => {
    const person = await createAccount(app);
    await register(call, person);
    const started = await call('GET', '/api/partner/start-id-check', person);
    const checkId = started.json.body.checkId as string;
    const event = { eventId: 'ev-forged-1', checkId, outcome: 'approved', externalId: 'x', reason: null, issuedAt: Date.now() };
    const body = JSON.stringify(event);

    // Signed with another key, unsigned, or the body changed after signing.
    const forged = await postCallback(body, identityKeys('not the server secret').signBody(body));
    expect([forged.statusCode, forged.json()]).toEqual([401, { statusCode: -1, statusText: 'invalid-signature' }]);
    expect((await postCallback(body, undefined)).json()).toEqual({ statusCode: -1, statusText: 'invalid-signature' });
    const keys = identityKeys(app.fanstage.config.jwtSecret);
    const signedOther = keys.signBody(JSON.stringify({ ...event, outcome: 'declined' }));
    expect((await postCallback(body, signedOther)).json()).toEqual({ statusCode: -1, statusText: 'invalid-signature' });
    expect(await stateOf(call, person)).toBe(105);

    // A stale callback, properly signed.
    const stale = JSON.stringify({ ...event, eventId: 'ev-stale', issuedAt: Date.now() - 11 * 60_000 });
    expect((await postCallback(stale, keys.signBody(stale))).json()).toEqual({ statusCode: -1, statusText: 'callback-replayed' });
    expect(await stateOf(call, person)).toBe(105);

    // The genuine one is taken once; sent again it is refused.
    const declined = JSON.stringify({ ...event, eventId: 'ev-genuine', outcome: 'declined', reason: 'blurred' });
    expect((await postCallback(declined, keys.signBody(declined))).json()).toEqual({ statusCode: 1 });
    expect(await stateOf(call, person)).toBe(101);
    const replay = await postCallback(declined, keys.signBody(declined));
    expect([replay.statusCode, replay.json()]).toEqual([409, { statusCode: -1, statusText: 'callback-replayed' }]);
    // A new event for the decided check cannot approve it afterwards.
    const late = JSON.stringify({ ...event, eventId: 'ev-late' });
    expect((await postCallback(late, keys.signBody(late))).json()).toMatchObject({ statusCode: -1, statusText: 'partner-wrong-state' });
    expect(await stateOf(call, person)).toBe(101);
  });

  it('refuses page addresses without the right signature', async () => {
    const person = await createAccount(app);
    await register(call, person);
    const started = await call('GET', '/api/partner/start-id-check', person);
    const url = new URL(started.json.body.redirectUrl as string);
    url.searchParams.set('sig', 'A'.repeat(43));
    expect((await fetch(url)).status).toBe(403);
    expect((await submitIdentityPage(url.toString(), '100000001', pictures)).status).toBe(403);
    expect(await stateOf(call, person)).toBe(105);
  });
});

describe('administrators decide', () => {
  it('approve from the queue: the account becomes a partner and a seller, is told, and the decision is logged', async () => {
    const person = await createAccount(app);
    await register(call, person);
    await passIdCheck(call, person, '100000001', pictures);
    const socket = await connectSocket(server, person);
    const mark = socket.mark;

    const queue = await call('GET', '/api/admin/partners', admin);
    const entry = (queue.json.body as { user: { id: number }; approvedState: number; idCheck: { documents: { url: string }[] } }[]).find((a) => a.user.id === person.id);
    expect(entry).toMatchObject({ approvedState: 110, form: { iban: 'CZ6508000000192000145399' }, idCheck: { status: 'approved' } });
    expect(entry!.idCheck.documents).toHaveLength(3);

    const approved = await call('POST', `/api/admin/partners/${person.id}/approve`, admin, {});
    expect(approved.json).toMatchObject({ statusCode: 2, body: { approvedState: 120, isPartner: true, isSeller: true, decisions: [{ action: 'approve', adminId: admin.id, fromState: 110, toState: 120 }] } });
    const status = (await call('GET', '/api/partner', person)).json.body;
    expect(status).toMatchObject({ approvedState: 120, isPartner: true, isSeller: true, badgeVerifiedState: 3 });
    expect(status.partnerCode).toMatch(/^C-[A-Z0-9]{8}$/);
    expect(await notificationTypes(person)).toEqual(expect.arrayContaining(['partnerApproved', 'verificationApproved']));
    expect(await socket.nextOf('eventMessage', mark, (m) => m.event === 'partnerStatusChanged' && m.data?.approvedState === 120)).toMatchObject({
      data: { isPartner: true, isSeller: true },
    });
    const [row] = await app.fanstage.db.select().from(users).where(eq(users.id, person.id));
    expect([row!.approvedState, row!.isPartner, row!.isSeller]).toEqual([120, true, true]);
    // The new seller may now set a price.
    expect((await call('PUT', '/api/users/me', person, { messagePrice: 32 })).json.statusCode).toBe(2);
    // Not in the queue any more; approving twice is refused.
    expect(((await call('GET', '/api/admin/partners', admin)).json.body as { user: { id: number } }[]).some((a) => a.user.id === person.id)).toBe(false);
    expect((await call('POST', `/api/admin/partners/${person.id}/approve`, admin, {})).json).toMatchObject({ statusCode: -1, statusText: 'partner-wrong-state' });

    // The badge: shown or not, as the partner confirms.
    expect((await call('POST', '/api/partner/confirm-badge', person)).json).toMatchObject({ statusCode: 2, body: { hasBadge: true } });
    expect((await call('POST', '/api/partner/confirm-no-badge', person)).json).toMatchObject({ statusCode: 2, body: { hasBadge: false } });

    // The partner's code is valid now: check-code answers 1 and sets the affcode cookie for 31 days.
    const checked = await app.inject({ method: 'GET', url: `/papi/partner/check-code?companyCode=${status.partnerCode}` });
    expect(checked.json()).toEqual({ statusCode: 1 });
    expect(checked.headers['set-cookie']).toBe(`affcode=${status.partnerCode}; Max-Age=${31 * 86_400}; Path=/; SameSite=Lax`);
    const unknown = await app.inject({ method: 'GET', url: '/papi/partner/check-code?companyCode=C-ZZZZZZZZ' });
    expect([unknown.json(), unknown.headers['set-cookie']]).toEqual([{ statusCode: -1, statusText: 'invalid-code', body: { field: 'companyCode' } }, undefined]);
    expect((await app.inject({ method: 'GET', url: '/papi/partner/check-code?companyCode=short' })).json()).toMatchObject({ statusText: 'invalid-code' });
    // Typed in lower case, it is the same code.
    expect((await app.inject({ method: 'GET', url: `/papi/partner/check-code?companyCode=${status.partnerCode.toLowerCase()}` })).json()).toEqual({ statusCode: 1 });

    // A new applicant brought by this partner names the code when finishing the registration.
    const recruit = await createAccount(app);
    await call('PUT', '/api/partner', recruit, goodForm);
    expect((await call('GET', `/api/partner/reg-done?companyCode=${status.partnerCode}`, recruit)).json).toMatchObject({ statusCode: 2, body: { referredCode: status.partnerCode } });
  });

  it('decline needs a reason, which the applicant reads; the review queue declines back to 101', async () => {
    const person = await createAccount(app);
    await register(call, person);
    await passIdCheck(call, person, '100000001', pictures);
    expect((await call('POST', `/api/admin/partners/${person.id}/decline`, admin, {})).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    const declined = await call('POST', `/api/admin/partners/${person.id}/decline`, admin, { reason: 'The IBAN belongs to someone else.' });
    expect(declined.json).toMatchObject({ statusCode: 2, body: { approvedState: 7, decisions: [{ action: 'decline', reason: 'The IBAN belongs to someone else.', adminUsername: admin.username }] } });
    expect((await call('GET', '/api/partner', person)).json.body).toMatchObject({ approvedState: 7, isSeller: false, declineReason: 'The IBAN belongs to someone else.' });

    const reviewed = await createAccount(app);
    await register(call, reviewed);
    await passIdCheck(call, reviewed, '300000003', pictures);
    const queue = (await call('GET', '/api/admin/partners', admin)).json.body as { user: { id: number }; approvedState: number }[];
    expect(queue.find((a) => a.user.id === reviewed.id)).toMatchObject({ approvedState: 107 });
    await call('POST', `/api/admin/partners/${reviewed.id}/decline`, admin, { reason: 'The selfie is someone else.' });
    expect((await call('GET', '/api/partner', reviewed)).json.body).toMatchObject({ approvedState: 101, idCheck: { status: 'declined', reason: 'The selfie is someone else.' } });

    const log = await app.fanstage.db.select().from(partnerDecisions).where(eq(partnerDecisions.userId, reviewed.id));
    expect(log).toEqual([expect.objectContaining({ adminId: admin.id, action: 'decline', fromState: 107, toState: 101, reason: 'The selfie is someone else.' })]);
    expect(log[0]!.createdAt).toBeInstanceOf(Date);
  });

  it('revoke a partner’s badge with a reason: the profile loses it, the partner cannot show it again until it is given back, and both decisions are logged', async () => {
    const person = await createAccount(app);
    await register(call, person);
    await passIdCheck(call, person, '100000001', pictures);
    await call('POST', `/api/admin/partners/${person.id}/approve`, admin, {});
    expect((await call('POST', '/api/partner/confirm-badge', person)).json).toMatchObject({ statusCode: 2, body: { hasBadge: true } });
    expect((await call('GET', `/papi/users/${person.username}`)).json.body.hasBadge).toBe(true);

    // A reason is required; only a partner in 120 has a badge to revoke; nobody revokes their own.
    expect((await call('POST', `/api/admin/partners/${person.id}/revoke-badge`, admin, {})).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect((await call('POST', `/api/admin/partners/${person.id}/revoke-badge`, admin, { reason: '  ' })).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    const applicant = await createAccount(app);
    await register(call, applicant);
    expect((await call('POST', `/api/admin/partners/${applicant.id}/revoke-badge`, admin, { reason: 'x' })).json).toMatchObject({ statusCode: -1, statusText: 'partner-wrong-state' });
    expect((await call('POST', `/api/admin/partners/${admin.id}/revoke-badge`, admin, { reason: 'x' })).json).toEqual({ statusCode: -1, statusText: 'forbidden' });
    expect((await call('POST', '/api/admin/partners/2147483647/revoke-badge', admin, { reason: 'x' })).json).toMatchObject({ statusCode: -1, statusText: 'user-not-found' });

    const socket = await connectSocket(server, person);
    const mark = socket.mark;
    const revoked = await call('POST', `/api/admin/partners/${person.id}/revoke-badge`, admin, { reason: 'The badge was used to impersonate another creator.' });
    expect(revoked.json).toMatchObject({ statusCode: 2, body: { approvedState: 120, isPartner: true, isSeller: true } });
    expect(revoked.json.body.decisions.at(-1)).toMatchObject({ action: 'revokeBadge', adminId: admin.id, fromState: 120, toState: 120, reason: 'The badge was used to impersonate another creator.' });
    expect(await socket.nextOf('eventMessage', mark, (m) => m.event === 'partnerStatusChanged')).toMatchObject({ data: { hasBadge: false, isSeller: true } });
    expect((await call('GET', '/api/partner', person)).json.body).toMatchObject({ approvedState: 120, hasBadge: false, badgeVerifiedState: 0, isSeller: true });
    expect((await call('GET', `/papi/users/${person.username}`)).json.body.hasBadge).toBe(false);
    // The partner may keep it hidden, not show it again; still a seller otherwise.
    expect((await call('POST', '/api/partner/confirm-badge', person)).json).toEqual({ statusCode: -1, statusText: 'badge-revoked' });
    expect((await call('POST', '/api/partner/confirm-no-badge', person)).json).toMatchObject({ statusCode: 2, body: { hasBadge: false, badgeVerifiedState: 0 } });
    expect((await call('PUT', '/api/users/me', person, { messagePrice: 32 })).json.statusCode).toBe(2);

    // Given back: verified again, and the partner decides whether to show it.
    const restored = await call('POST', `/api/admin/partners/${person.id}/restore-badge`, admin, {});
    expect(restored.json.body.decisions.at(-1)).toMatchObject({ action: 'restoreBadge', adminId: admin.id, reason: null });
    expect((await call('GET', '/api/partner', person)).json.body).toMatchObject({ hasBadge: false, badgeVerifiedState: 3 });
    expect((await call('POST', '/api/partner/confirm-badge', person)).json).toMatchObject({ statusCode: 2, body: { hasBadge: true } });
    expect((await call('GET', `/papi/users/${person.username}`)).json.body.hasBadge).toBe(true);
  });

  it('offers the action-girl programme to a partner, who answers 2 or 3 once', async () => {
    const person = await createAccount(app);
    await register(call, person);
    await passIdCheck(call, person, '100000001', pictures);
    expect((await call('POST', '/api/partner/action-girl', person, { actionState: 2 })).json).toMatchObject({ statusCode: -2, statusText: 'verify-required' });
    await call('POST', `/api/admin/partners/${person.id}/approve`, admin, {});
    expect((await call('POST', '/api/partner/action-girl', person, { actionState: 2 })).json).toMatchObject({ statusCode: -1, statusText: 'not-found' });
    expect((await call('POST', `/api/admin/partners/${person.id}/action-girl-offer`, admin)).json).toEqual({ statusCode: 1 });
    expect(await notificationTypes(person)).toContain('actionGirlOffer');
    expect((await call('POST', '/api/partner/action-girl', person, { actionState: 1 })).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect((await call('POST', '/api/partner/action-girl', person, { actionState: 3 })).json).toEqual({ statusCode: 1 });
    expect((await call('GET', '/api/partner', person)).json.body.actionGirlState).toBe(3);
    expect((await call('POST', '/api/partner/action-girl', person, { actionState: 2 })).json).toMatchObject({ statusText: 'not-found' });
  });
});

describe('identity documents are seen by their owner and administrators only', () => {
  it('a stranger, a fan of the applicant and a visitor get not-found, by id and by a link that was changed or expired', async () => {
    const person = await createAccount(app);
    const stranger = await createAccount(app);
    const fan = await createAccount(app);
    await register(call, person);
    await passIdCheck(call, person, '100000001', pictures);
    await call('POST', `/api/admin/partners/${person.id}/approve`, admin, {});
    expect((await call('POST', '/api/users/follow', fan, { id: person.id })).json.statusCode).toBe(1);

    const own = (await call('GET', '/api/partner', person)).json.body.idCheck.documents as { id: number; url: string }[];
    expect(own).toHaveLength(3);
    const document = own[0]!;
    const get = (url: string, account?: TestAccount) => app.inject({ method: 'GET', url, headers: account ? { authorization: `Bearer ${account.accessToken}` } : {} });

    for (const viewer of [person, admin]) {
      const answer = await get(`/api/partner/documents/${document.id}`, viewer);
      expect([answer.statusCode, answer.headers['content-type']]).toEqual([200, 'image/webp']);
      expect(answer.rawPayload.length).toBeGreaterThan(100);
    }
    const linked = await get(document.url);
    expect([linked.statusCode, linked.headers['content-type']]).toEqual([200, 'image/webp']);

    for (const viewer of [stranger, fan]) {
      const answer = await get(`/api/partner/documents/${document.id}`, viewer);
      expect([answer.statusCode, answer.json()]).toEqual([404, { statusCode: -1, statusText: 'not-found' }]);
      // Neither the applicant's status nor the queue is theirs.
      expect((await call('GET', '/api/admin/partners', viewer)).json).toEqual({ statusCode: -1, statusText: 'forbidden' });
      expect((await call('GET', `/api/admin/partners/${person.id}`, viewer)).json).toEqual({ statusCode: -1, statusText: 'forbidden' });
    }
    expect((await get(`/api/partner/documents/${document.id}`)).statusCode).toBe(401);
    const url = new URL(document.url, server.baseUrl);
    expect((await get(`/papi/partner/documents/${document.id}`)).statusCode).toBe(404);
    expect((await get(`/papi/partner/documents/${own[1]!.id}${url.search}`)).statusCode).toBe(404);
    const expired = `/papi/partner/documents/${document.id}?exp=${Math.floor(Date.now() / 1000) - 1}&sig=${url.searchParams.get('sig')}`;
    expect((await get(expired)).statusCode).toBe(404);
    // The pictures never have a public media address.
    expect(await app.fanstage.db.$count(media, eq(media.ownerId, person.id))).toBe(0);
  });
});

describe('who may call what', () => {
  it('signed-out callers get 401 on every partner and admin endpoint; members get forbidden on the admin ones', async () => {
    const member = await createAccount(app);
    const personal: [string, string][] = [
      ['GET', '/api/partner'],
      ['PUT', '/api/partner'],
      ['GET', '/api/partner/reg-done'],
      ['GET', '/api/partner/cancel-verification'],
      ['POST', '/api/partner/confirm-badge'],
      ['POST', '/api/partner/confirm-no-badge'],
      ['POST', '/api/partner/action-girl'],
      ['GET', '/api/partner/start-id-check'],
      ['GET', '/api/partner/check-id-check'],
      ['GET', '/api/partner/documents/1'],
    ];
    const adminOnly: [string, string][] = [
      ['GET', '/api/admin/partners'],
      ['GET', `/api/admin/partners/${member.id}`],
      ['POST', `/api/admin/partners/${member.id}/approve`],
      ['POST', `/api/admin/partners/${member.id}/decline`],
      ['POST', `/api/admin/partners/${member.id}/action-girl-offer`],
      ['POST', `/api/admin/partners/${member.id}/revoke-badge`],
      ['POST', `/api/admin/partners/${member.id}/restore-badge`],
    ];
    const payloadOf = (method: string, url: string) => (method === 'PUT' ? goodForm : url.endsWith('action-girl') ? { actionState: 2 } : method === 'POST' ? { reason: 'x' } : undefined);
    for (const [method, url] of [...personal, ...adminOnly]) {
      const answer = await call(method as 'GET', url, undefined, payloadOf(method, url));
      expect([url, answer.status, answer.json.statusText]).toEqual([url, 401, 'unauthorized']);
    }
    for (const [method, url] of adminOnly) {
      const answer = await call(method as 'GET', url, member, payloadOf(method, url));
      expect([url, answer.status, answer.json.statusText]).toEqual([url, 403, 'forbidden']);
    }
    // An administrator cannot approve their own application.
    await register(call, admin);
    await passIdCheck(call, admin, '100000001', pictures);
    expect((await call('POST', `/api/admin/partners/${admin.id}/approve`, admin, {})).json).toEqual({ statusCode: -1, statusText: 'forbidden' });
  });

  it('lists every partner endpoint in the OpenAPI document', async () => {
    const document = (await app.inject({ method: 'GET', url: '/papi/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const expected: [string, string][] = [
      ['/api/partner', 'get'],
      ['/api/partner', 'put'],
      ['/api/partner/reg-done', 'get'],
      ['/papi/partner/check-code', 'get'],
      ['/api/partner/cancel-verification', 'get'],
      ['/api/partner/confirm-badge', 'post'],
      ['/api/partner/confirm-no-badge', 'post'],
      ['/api/partner/action-girl', 'post'],
      ['/api/partner/start-id-check', 'get'],
      ['/api/partner/check-id-check', 'get'],
      ['/api/partner/documents/{id}', 'get'],
      ['/papi/partner/documents/{id}', 'get'],
      ['/api/admin/partners', 'get'],
      ['/api/admin/partners/{userId}', 'get'],
      ['/api/admin/partners/{userId}/approve', 'post'],
      ['/api/admin/partners/{userId}/decline', 'post'],
      ['/api/admin/partners/{userId}/action-girl-offer', 'post'],
      ['/api/admin/partners/{userId}/revoke-badge', 'post'],
      ['/api/admin/partners/{userId}/restore-badge', 'post'],
      ['/papi/identity/sandbox/callback', 'post'],
      ['/papi/identity/sandbox/check/{checkId}', 'get'],
      ['/papi/identity/sandbox/check/{checkId}', 'post'],
    ];
    for (const [path, method] of expected) expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });
});

describe('identity documents are not kept longer than needed', () => {
  it('removes every picture of a deleted account, and those of a declined check 30 days after the verdict; an approved check keeps its pictures', async () => {
    const declined = await createAccount(app);
    const deleted = await createAccount(app);
    const approved = await createAccount(app);
    await register(call, declined);
    await passIdCheck(call, declined, '200000002', pictures);
    await register(call, deleted);
    await passIdCheck(call, deleted, '100000001', pictures);
    await register(call, approved);
    await passIdCheck(call, approved, '100000001', pictures);
    const count = (userId: number) => app.fanstage.db.$count(identityDocuments, eq(identityDocuments.userId, userId));
    const keys = async (userId: number) => (await app.fanstage.db.select().from(identityDocuments).where(eq(identityDocuments.userId, userId))).map((d) => d.storageKey);
    const deletedKeys = await keys(deleted.id);
    expect([await count(declined.id), await count(deleted.id), await count(approved.id)]).toEqual([3, 3, 3]);

    expect((await call('DELETE', '/api/users/me', deleted, { deleteReason: 2, password: deleted.password })).json.statusCode).toBe(1);
    await app.fanstage.jobs.runNow('identity-documents-purge');
    expect([await count(declined.id), await count(deleted.id), await count(approved.id)]).toEqual([3, 0, 3]);
    for (const key of deletedKeys) expect(await app.fanstage.storage.exists(key)).toBe(false);

    app.fanstage.clock.advance(31 * 86_400_000);
    await app.fanstage.jobs.runNow('identity-documents-purge');
    expect([await count(declined.id), await count(approved.id)]).toEqual([0, 3]);
  });
});

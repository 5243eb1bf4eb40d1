import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPartnersApi, createClient, partnerApi, SdkError, type FanstageClient } from '../../lib/sdk';
import { createAccount, type TestAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/server';
import { goodForm, photo, submitIdentityPage } from '../server/support-partner';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

function clientOf(account: TestAccount | null): FanstageClient {
  const client = createClient({ baseUrl: server.baseUrl });
  if (account !== null) client.setAuthenticator({ accessToken: () => account.accessToken, onUnauthorized: () => Promise.resolve(false) });
  return client;
}

describe('partnerApi and adminPartnersApi against the real server', () => {
  it('take an applicant from the form to an approved partner', async () => {
    const person = await createAccount(server.app);
    const admin = await createAccount(server.app, { level: 500 });
    const partner = partnerApi(clientOf(person));
    const moderation = adminPartnersApi(clientOf(admin));

    expect((await partner.status()).approvedState).toBe(0);
    const refused = await partner.saveForm({ ...goodForm, iban: 'CZ00' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SdkError);
    expect(refused).toMatchObject({ code: 'partner-invalid-iban', body: { field: 'iban' } });
    expect((await partner.saveForm(goodForm)).approvedState).toBe(7);
    expect((await partner.registrationDone()).approvedState).toBe(101);

    const { redirectUrl } = await partner.startIdCheck();
    await expect(partner.checkIdCheck()).rejects.toMatchObject({ code: 'id-check-pending', body: { status: 'started' } });
    const [front, back, selfie] = await Promise.all([photo(), photo('#884422'), photo('#228844')]);
    expect((await submitIdentityPage(redirectUrl, '100000001', { front, back, selfie })).status).toBe(303);
    expect((await partner.checkIdCheck()).status).toBe('approved');

    const queue = await moderation.list();
    expect(queue.map((application) => application.user.id)).toContain(person.id);
    await expect(adminPartnersApi(clientOf(person)).list()).rejects.toMatchObject({ code: 'forbidden' });
    const approved = await moderation.approve(person.id);
    expect(approved).toMatchObject({ approvedState: 120, isSeller: true, decisions: [{ action: 'approve', adminId: admin.id }] });

    const status = await partner.confirmBadge(true);
    expect(status).toMatchObject({ approvedState: 120, hasBadge: true });
    expect(await partnerApi(clientOf(null)).checkCode(status.partnerCode!)).toBe(true);
    expect(await partnerApi(clientOf(null)).checkCode('C-AAAAAAAA')).toBe(false);
  }, 30_000);
});

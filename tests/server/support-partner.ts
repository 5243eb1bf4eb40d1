import sharp from 'sharp';
import { expect } from 'vitest';
import type { TestAccount } from '../support/accounts';
import type { apiCaller } from '../support/inject';

/** A valid partner form (the IBAN's check sum is right). */
export const goodForm = { name: 'Jana Nováková', street: 'Dlouhá 12', zip: '110 00', country: 'CZ', iban: 'CZ65 0800 0000 1920 0014 5399', companyId: '12345678' };

/** A picture as a phone camera would send it: 800 × 600 JPEG. */
export function photo(colour = '#3366aa'): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 600, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

/** Fills the sandbox provider's page as a person would: three pictures and a document number. Answers the page's response. */
export async function submitIdentityPage(redirectUrl: string, documentNumber: string, pictures: { front?: Buffer; back?: Buffer; selfie?: Buffer }) {
  const form = new FormData();
  for (const kind of ['front', 'back', 'selfie'] as const) {
    const data = pictures[kind];
    if (data !== undefined) form.append(kind, new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), `${kind}.jpg`);
  }
  form.append('documentNumber', documentNumber);
  return fetch(redirectUrl, { method: 'POST', body: form, redirect: 'manual' });
}

type Call = ReturnType<typeof apiCaller>;

/** Takes an account from 0 through the form and the registration to 101 (verify your identity). */
export async function register(call: Call, account: TestAccount) {
  expect((await call('PUT', '/api/partner', account, goodForm)).json).toMatchObject({ statusCode: 2, body: { approvedState: 7 } });
  expect((await call('GET', '/api/partner/reg-done', account)).json).toMatchObject({ statusCode: 2, body: { approvedState: 101 } });
}

/** Starts a check and passes the sandbox page with `documentNumber`; answers the check id. */
export async function passIdCheck(call: Call, account: TestAccount, documentNumber: string, pictures: { front: Buffer; back: Buffer; selfie: Buffer }) {
  const started = await call('GET', '/api/partner/start-id-check', account);
  expect(started.json.statusCode).toBe(2);
  const { checkId, redirectUrl } = started.json.body as { checkId: string; redirectUrl: string };
  const page = await submitIdentityPage(redirectUrl, documentNumber, pictures);
  expect(page.status).toBe(303);
  expect(page.headers.get('location')).toMatch(new RegExp(`/verify-request\\?check=${checkId}$`));
  return checkId;
}

export async function stateOf(call: Call, account: TestAccount): Promise<number> {
  const answer = await call('GET', '/api/partner', account);
  return answer.json.body.approvedState as number;
}

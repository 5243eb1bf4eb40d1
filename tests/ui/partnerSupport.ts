import sharp from 'sharp';
import { partnerApi, type Fanstage } from '../../lib/sdk';
import { multipartBody, type FilePart } from './support/realServer';

/** A valid partner form as a person types it (the IBAN's check sum is right, with spaces). */
export const typedForm = { name: 'Jana Nováková', street: 'Dlouhá 12', zip: '110 00', country: 'cz', iban: 'CZ65 0800 0000 1920 0014 5399', companyId: '12345678' };

function photo(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 600, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

/**
 * Fills the sandbox identity provider's page at `redirectUrl` as a person would: three pictures
 * and `documentNumber` (docs/partners.md: 100000001 approves, 300000003 asks for a review).
 * Sent as the browser sends the form (tests/ui/support/realServer.ts, multipartBody).
 */
export async function passSandboxPage(redirectUrl: string, documentNumber: string): Promise<number> {
  const colours = { front: '#3366aa', back: '#884422', selfie: '#228844' };
  const parts: [string, string | FilePart][] = [];
  for (const kind of ['front', 'back', 'selfie'] as const) {
    parts.push([kind, { bytes: await photo(colours[kind]), type: 'image/jpeg', filename: `${kind}.jpg` }]);
  }
  parts.push(['documentNumber', documentNumber]);
  const { body, contentType } = multipartBody(parts);
  const answer = await fetch(redirectUrl, { method: 'POST', body, headers: { 'content-type': contentType }, redirect: 'manual' });
  return answer.status;
}

/** Takes `fanstage`'s account through the form, the registration and the sandbox check with `documentNumber`. */
export async function applyAndCheck(fanstage: Fanstage, documentNumber: string): Promise<void> {
  const partner = partnerApi(fanstage.client);
  await partner.saveForm({ ...typedForm, country: 'CZ' });
  await partner.registrationDone();
  const { redirectUrl } = await partner.startIdCheck();
  const status = await passSandboxPage(redirectUrl, documentNumber);
  if (status !== 303) throw new Error(`the sandbox page answered ${status}`);
}

import { Blob as NodeBlob } from 'node:buffer';
import sharp from 'sharp';
import { partnerApi, type Fanstage } from '../../lib/sdk';

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
 * Node's own FormData and Blob: jsdom's are not what Node's fetch sends.
 */
export async function passSandboxPage(redirectUrl: string, documentNumber: string): Promise<number> {
  const NodeFormData = (await new Response(new URLSearchParams('a=b')).formData()).constructor as typeof FormData;
  const form = new NodeFormData();
  const colours = { front: '#3366aa', back: '#884422', selfie: '#228844' };
  for (const kind of ['front', 'back', 'selfie'] as const) {
    form.append(kind, new NodeBlob([new Uint8Array(await photo(colours[kind]))], { type: 'image/jpeg' }) as unknown as Blob, `${kind}.jpg`);
  }
  form.append('documentNumber', documentNumber);
  const answer = await fetch(redirectUrl, { method: 'POST', body: form, redirect: 'manual' });
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

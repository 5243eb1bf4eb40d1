import { Blob as NodeBlob } from 'node:buffer';
import { createFanstage, type Fanstage } from '../../../lib/sdk';
import { startTestServer, type TestServer, type TestServerOptions } from '../../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../../support/accounts';

/**
 * Vitest's jsdom environment gives test code jsdom's typed-array constructors, while Node's
 * TextEncoder answers Node's own Uint8Array; jose (signing the server's tokens in this same
 * process) then refuses the key because `instanceof Uint8Array` fails across the two realms.
 * Encoding into the environment's Uint8Array keeps one realm, as in a real Node server.
 */
function useOneTypedArrayRealm(): void {
  const Encoder = globalThis.TextEncoder;
  if ((Encoder as { oneRealm?: boolean }).oneRealm) return;
  class OneRealmEncoder extends Encoder {
    static oneRealm = true;
    override encode(input?: string): Uint8Array<ArrayBuffer> {
      return new Uint8Array(super.encode(input));
    }
  }
  globalThis.TextEncoder = OneRealmEncoder;
}

/**
 * jsdom's FormData and File are not the ones Node's fetch knows how to send (it would hang or
 * send "[object FormData]"); a browser's fetch sends its own FormData natively. The parts are
 * copied into Node's FormData, byte for byte, before the request leaves.
 */
async function fetchWithNodeFormData(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const body = init?.body;
  if (!(body instanceof FormData)) return fetch(input, init);
  const NodeFormData = (await new Response(new URLSearchParams('a=b')).formData()).constructor as typeof FormData;
  const form = new NodeFormData();
  for (const [name, value] of body.entries()) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new NodeBlob([await readBytes(value)], { type: value.type }) as unknown as Blob, value.name);
  }
  return fetch(input, { ...init, body: form });
}

function readBytes(file: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsArrayBuffer(file);
  });
}

/** The real server on a fresh database, able to issue tokens inside the jsdom environment. */
export async function startRealServer(options: TestServerOptions = {}): Promise<TestServer> {
  useOneTypedArrayRealm();
  return startTestServer(options);
}

export interface LoggedIn {
  account: TestAccount;
  fanstage: Fanstage;
}

/** A real account, its access token adopted by a fresh Fanstage as after a login; the account loaded. */
export async function loggedInOn(server: TestServer, options: AccountOptions = {}): Promise<LoggedIn> {
  const account = await createAccount(server.app, options);
  const fanstage = createFanstage({ baseUrl: server.baseUrl, fetch: fetchWithNodeFormData });
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  return { account, fanstage };
}

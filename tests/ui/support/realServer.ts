import { randomBytes } from 'node:crypto';
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

/** A file in a multipart body. */
export interface FilePart {
  bytes: Uint8Array;
  type: string;
  filename: string;
}

/**
 * A multipart/form-data body written byte for byte as a browser writes one. Node's fetch cannot
 * send jsdom's FormData (it would hang or send "[object FormData]"), and Node 24's fetch sends
 * Node's own FormData, filled in this environment, with a wrong length.
 */
export function multipartBody(parts: [name: string, value: string | FilePart][]): { body: Buffer<ArrayBuffer>; contentType: string } {
  const boundary = `----FanstageFormBoundary${randomBytes(12).toString('hex')}`;
  const quoted = (text: string) => text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const chunks: Buffer[] = [];
  for (const [name, value] of parts) {
    const file = typeof value === 'string' ? '' : `; filename="${quoted(value.filename)}"\r\nContent-Type: ${value.type || 'application/octet-stream'}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"${file}\r\n\r\n`));
    chunks.push(typeof value === 'string' ? Buffer.from(value) : Buffer.from(value.bytes));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The SDK's fetch in these tests: a jsdom FormData goes out as a browser would send it. */
async function fetchWithNodeFormData(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const body = init?.body;
  if (!(body instanceof FormData)) return fetch(input, init);
  const parts: [string, string | FilePart][] = [];
  for (const [name, value] of body.entries()) {
    parts.push([name, typeof value === 'string' ? value : { bytes: new Uint8Array(Buffer.from(await readBytes(value))), type: value.type, filename: value.name }]);
  }
  const multipart = multipartBody(parts);
  const headers = new Headers(init?.headers);
  headers.set('content-type', multipart.contentType);
  return fetch(input, { ...init, headers, body: multipart.body });
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

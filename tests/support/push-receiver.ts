import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service on loopback, for tests without the internet: it takes the Web Push POSTs the
 * server sends (RFC 8030), checks their VAPID signature (RFC 8292) and decrypts their aes128gcm
 * payload (RFC 8188, RFC 8291) with the private key of a subscription the test made, as a
 * browser would.
 */

/** A browser's side of a push subscription: the keys it gives the server, and the private key it keeps. */
export interface TestSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The P-256 key pair whose public half is `keys.p256dh`. */
  ecdh: ECDH;
  authSecret: Buffer;
  /** `{endpoint, keys}` as `PushSubscription.toJSON()` gives it (what POST /api/device takes). */
  toJSON(): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** What was answered (201, or the status a test asked for). */
  answered: number;
}

export interface PushReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** A fresh subscription whose endpoint is this receiver. */
  subscription(): TestSubscription;
  /** Answer pushes to this subscription with `status` from now on (410: gone). */
  answerWith(subscription: TestSubscription, status: number): void;
  received: ReceivedPush[];
  /** Resolves with the next push to `subscription` (one already received and not taken counts). */
  next(subscription: TestSubscription, timeoutMs?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  const taken = new Set<ReceivedPush>();
  const statuses = new Map<string, number>();
  const waiters: { path: string; resolve: (push: ReceivedPush) => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const answered = request.method === 'POST' ? (statuses.get(path) ?? 201) : 405;
      const push: ReceivedPush = { path, headers: request.headers, body: Buffer.concat(chunks), answered };
      received.push(push);
      response.writeHead(answered).end();
      const waiter = waiters.findIndex((w) => w.path === path);
      if (waiter >= 0) {
        taken.add(push);
        waiters.splice(waiter, 1)[0]!.resolve(push);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pathOf = (subscription: TestSubscription) => new URL(subscription.endpoint).pathname;

  return {
    origin,
    received,
    subscription() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const endpoint = `${origin}/push/${randomBytes(12).toString('hex')}`;
      const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') };
      return { endpoint, keys, ecdh, authSecret, toJSON: () => ({ endpoint, expirationTime: null, keys }) };
    },
    answerWith(subscription, status) {
      statuses.set(pathOf(subscription), status);
    },
    next(subscription, timeoutMs = 10_000) {
      const path = pathOf(subscription);
      const waiting = received.find((push) => push.path === path && !taken.has(push));
      if (waiting !== undefined) {
        taken.add(waiting);
        return Promise.resolve(waiting);
      }
      return new Promise<ReceivedPush>((resolve, reject) => {
        const entry = { path, resolve };
        waiters.push(entry);
        setTimeout(() => {
          const index = waiters.indexOf(entry);
          if (index < 0) return;
          waiters.splice(index, 1);
          reject(new Error(`no push reached ${path} within ${timeoutMs} ms`));
        }, timeoutMs).unref();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Decrypts an aes128gcm Web Push body (RFC 8291 §3.4, RFC 8188 §2) with the subscription's
 * private key and auth secret, as the browser does. Throws when it was not encrypted for them.
 */
export function decryptPush(subscription: TestSubscription, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('more than one record: a push fits in one');
  const shared = subscription.ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscription.ecdh.getPublicKey(), senderPublicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, subscription.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('not the last record of a push');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * Checks a push's `Authorization: vapid t=…, k=…` (RFC 8292): an ES256 token for the
 * receiver's origin, signed by `k`, not expired. Answers the token's claims and `k`.
 */
export function verifyVapid(push: ReceivedPush, audience: string): { claims: { aud: string; exp: number; sub: string }; publicKey: string } {
  const header = push.headers.authorization ?? '';
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
  if (match === null) throw new Error(`not a VAPID authorization: ${header}`);
  const [, token, k] = match as unknown as [string, string, string];
  const [head, payload, signature] = token.split('.') as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  const signed = verify('sha256', Buffer.from(`${head}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!signed) throw new Error('the VAPID token is not signed by its key');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  if (claims.aud !== audience) throw new Error(`the VAPID token is for ${claims.aud}, not ${audience}`);
  if (claims.exp * 1000 < Date.now()) throw new Error('the VAPID token has expired');
  return { claims, publicKey: k };
}

/**
 * The check of an access token (an HS256 JWT in compact form), synchronous: one HMAC-SHA256 of
 * node:crypto, a few microseconds, where jose's `jwtVerify` went through WebCrypto and a promise
 * (about 70 µs a token, the largest part of opening a socket). It accepts exactly what
 * `jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp', 'iat'] })` accepted,
 * except headers naming critical extensions (`crit`, `b64`), which the server never issues:
 *
 * - three base64url parts; the header a JSON object whose `alg` is `HS256` — anything else
 *   (`none`, an asymmetric algorithm) is refused before the signature is looked at;
 * - the signature the key's HMAC of `header.payload`, compared in constant time;
 * - the claims a JSON object with numbers `exp` and `iat`; expired from the second `exp` names,
 *   not valid before `nbf` when it has one (a number); `iss` and `aud` are not checked (the
 *   server names neither).
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export const tokenAlgorithm = 'HS256';

/** The key of HS256: the secret's UTF-8 bytes, as jose takes them. */
export function hmacKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

const base64url = /^[A-Za-z0-9_-]*$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A base64url part's JSON (its text checked by the caller), when it is a plain object; null for anything else. */
function jsonObjectOf(part: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(Buffer.from(part, 'base64url')));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  return value as Record<string, unknown>;
}

/**
 * The claims of `token` when it is a good HS256 token of `key` at `nowSeconds`; null for
 * anything else (malformed, another algorithm or key, expired, not yet valid).
 */
export function verifiedClaims(token: string, key: KeyObject, nowSeconds: number = Date.now() / 1000): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  // Only base64url text is signed text: nothing else reaches the HMAC.
  if (!base64url.test(header) || !base64url.test(payload) || !base64url.test(signature)) return null;
  const protectedHeader = jsonObjectOf(header);
  if (protectedHeader === null || protectedHeader.alg !== tokenAlgorithm) return null;
  if (protectedHeader.crit !== undefined || protectedHeader.b64 !== undefined) return null;
  const given = Buffer.from(signature, 'base64url');
  const expected = createHmac('sha256', key).update(`${header}.${payload}`, 'latin1').digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const claims = jsonObjectOf(payload);
  if (claims === null) return null;
  const now = Math.floor(nowSeconds);
  if (typeof claims.exp !== 'number' || claims.exp <= now) return null;
  if (typeof claims.iat !== 'number') return null;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > now)) return null;
  return claims;
}

/**
 * Checking a verified badge offline (docs/embedding.md, "Verifying a badge"): the badge is a
 * compact JWS signed with the platform's Ed25519 key (EdDSA); the public keys are at
 * `/.well-known/jwks.json`, by `kid`. WebCrypto does the signature; nothing else is needed, so
 * the widgets' first views carry this too (a kilobyte, no JOSE library).
 */
import type { BadgeClaims, BadgeJwk } from '../contract/badge';

export type { BadgeClaims, BadgeJwk } from '../contract/badge';

/** Finds the platform's public key by `kid`; null when there is none. */
export type BadgeKeyLookup = (kid: string) => Promise<{ kty?: string; crv?: string; x?: string } | null>;

export interface VerifyBadgeOptions {
  /** The username the badge must be about (any case). */
  username: string;
  /** Now, in ms since the epoch (default `Date.now()`). */
  now?: number;
}

function bytesOf(part: string): Uint8Array<ArrayBuffer> {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function jsonOf(part: string): Record<string, unknown> | null {
  const value: unknown = JSON.parse(new TextDecoder().decode(bytesOf(part)));
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * The badge's claims when `token` is a badge the platform signed, about `username`, saying
 * `verified`, and not expired; otherwise null (a bad signature, an unknown key, another
 * algorithm, another person, a revoked badge past its expiry). Never throws.
 */
export async function verifyBadge(token: string, keyFor: BadgeKeyLookup, options: VerifyBadgeOptions): Promise<BadgeClaims | null> {
  try {
    const parts = token.split('.');
    if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) return null;
    const [head, body, signature] = parts as [string, string, string];
    const header = jsonOf(head);
    if (header === null || header.alg !== 'EdDSA' || typeof header.kid !== 'string' || header.crit !== undefined) return null;
    const jwk = await keyFor(header.kid);
    if (jwk === null || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return null;
    const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
    const signed = new TextEncoder().encode(`${head}.${body}`);
    if (!(await crypto.subtle.verify({ name: 'Ed25519' }, key, bytesOf(signature), signed))) return null;
    const claims = jsonOf(body);
    if (claims === null || typeof claims.sub !== 'string' || typeof claims.exp !== 'number' || claims.verified !== true) return null;
    if (claims.sub.toLowerCase() !== options.username.trim().replace(/^@/, '').toLowerCase()) return null;
    if (claims.exp * 1000 <= (options.now ?? Date.now())) return null;
    return {
      iss: typeof claims.iss === 'string' ? claims.iss : '',
      sub: claims.sub,
      verified: true,
      partner: claims.partner === true,
      iat: typeof claims.iat === 'number' ? claims.iat : 0,
      exp: claims.exp,
    };
  } catch {
    return null;
  }
}

/** Asks again for the key set on an unknown kid, but not more often than this (a forged kid cannot make a page hammer the platform). */
const REFETCH_AFTER_MS = 30_000;

interface KeySet {
  keys: Promise<BadgeJwk[]>;
  at: number;
}

export interface BadgeVerifier {
  /** The verified badge of `username` now, or null: fetched, checked, kept until it expires. */
  check(username: string): Promise<BadgeClaims | null>;
}

/**
 * A verifier for one platform (`baseUrl`, e.g. `https://fanstage.example`): the key set is
 * fetched once and kept, and fetched again when a badge names a key it does not have (the
 * platform rotated); each person's badge is kept until it expires. `fetch` defaults to the
 * global one; requests carry no credentials.
 */
export function createBadgeVerifier(baseUrl: string, fetchImpl: typeof fetch = (...args) => fetch(...args)): BadgeVerifier {
  const base = baseUrl.replace(/\/+$/, '');
  let keySet: KeySet | null = null;
  const badges = new Map<string, { claims: Promise<BadgeClaims | null>; until: number }>();

  function loadKeys(): KeySet {
    const keys = fetchImpl(`${base}/.well-known/jwks.json`, { credentials: 'omit' })
      .then((response) => (response.ok ? (response.json() as Promise<{ keys?: unknown }>) : { keys: [] }))
      .then((set) => (Array.isArray(set.keys) ? (set.keys as BadgeJwk[]) : []));
    keySet = { keys, at: Date.now() };
    // A failed fetch is tried again next time.
    keys.catch(() => {
      if (keySet?.keys === keys) keySet = null;
    });
    return keySet;
  }

  const keyFor: BadgeKeyLookup = async (kid) => {
    const set = keySet ?? loadKeys();
    const found = (await set.keys).find((key) => key.kid === kid);
    if (found !== undefined || Date.now() - set.at < REFETCH_AFTER_MS) return found ?? null;
    return (await loadKeys().keys).find((key) => key.kid === kid) ?? null;
  };

  async function fetchAndVerify(username: string): Promise<BadgeClaims | null> {
    const response = await fetchImpl(`${base}/papi/users/${encodeURIComponent(username)}/badge`, { credentials: 'omit', headers: { Apiversion: '1.0' } });
    const envelope = (await response.json()) as { statusCode?: number; body?: { token?: unknown } };
    if (envelope.statusCode !== 2 || typeof envelope.body?.token !== 'string') return null;
    return verifyBadge(envelope.body.token, keyFor, { username });
  }

  return {
    check(username) {
      const name = username.trim().replace(/^@/, '').toLowerCase();
      const now = Date.now();
      const kept = badges.get(name);
      if (kept !== undefined && kept.until > now) return kept.claims;
      const claims = fetchAndVerify(name).catch(() => null);
      // A verified badge is kept until it expires; no badge (or a failure) for a minute.
      const entry = { claims, until: now + 60_000 };
      badges.set(name, entry);
      void claims.then((found) => {
        if (found !== null) entry.until = found.exp * 1000;
      });
      return claims;
    },
  };
}

const verifiers = new Map<string, BadgeVerifier>();

/** The page's one verifier for a platform: elements and cards of one platform share the key set. */
export function badgeVerifierFor(baseUrl: string): BadgeVerifier {
  const base = baseUrl.replace(/\/+$/, '');
  let verifier = verifiers.get(base);
  if (verifier === undefined) {
    verifier = createBadgeVerifier(base);
    verifiers.set(base, verifier);
  }
  return verifier;
}

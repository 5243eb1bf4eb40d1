import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors';
import { randomToken, tokenHash } from '../auth/domain';
import type { ExternalIdentity, OAuthProvider } from './types';

/**
 * The built-in test sign-in provider: a consent page served by this server where the person
 * enters any identity (an id, a name, an e-mail) and approves or denies, so the whole redirect
 * flow runs without an account at a real provider. Nobody is really signed in anywhere.
 */
export const SANDBOX_OAUTH = 'sandbox';

/** How long an approval (`oauth_verifier`) may take to come back. */
export const VERIFIER_MAX_AGE_MS = 5 * 60_000;

/** The sandbox's key, derived from the server's JWT secret so nothing else needs configuring. */
export function oauthSandboxKeys(jwtSecret: string) {
  const key = createHmac('sha256', jwtSecret).update('fanstage sandbox oauth provider v1').digest();
  const mac = (text: string) => createHmac('sha256', key).update(text).digest();
  return {
    /**
     * The verifier of an approval: the identity and the request token it answers, signed. The
     * sandbox keeps nothing: the platform's own request row makes each token single-use.
     */
    seal(token: string, identity: ExternalIdentity, now: number): string {
      const payload = Buffer.from(JSON.stringify({ t: tokenHash(token), i: identity, exp: now + VERIFIER_MAX_AGE_MS })).toString('base64url');
      return `${payload}.${mac(`verifier:${payload}`).toString('base64url')}`;
    },
    open(token: string, verifier: string, now: number): ExternalIdentity | null {
      const match = /^([A-Za-z0-9_-]{1,4000})\.([A-Za-z0-9_-]{43})$/.exec(verifier);
      if (match === null) return null;
      const expected = mac(`verifier:${match[1]!}`);
      const given = Buffer.from(match[2]!, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let parsed: { t?: unknown; i?: ExternalIdentity; exp?: unknown };
      try {
        parsed = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8')) as typeof parsed;
      } catch {
        return null;
      }
      if (parsed.t !== tokenHash(token) || typeof parsed.exp !== 'number' || parsed.exp < now || parsed.i === undefined) return null;
      return parsed.i;
    },
  };
}

export type OAuthSandboxKeys = ReturnType<typeof oauthSandboxKeys>;

/** A fresh id offered on the consent page, so one click makes a new person. */
export function newSandboxIdentityId(): string {
  return `sbx-${randomBytes(6).toString('hex')}`;
}

/** The consent page of a request token. */
export function sandboxConsentUrl(publicUrl: string, token: string, language: string): string {
  const url = new URL(`/papi/oauth/${SANDBOX_OAUTH}/authorize`, publicUrl);
  url.searchParams.set('oauth_token', token);
  url.searchParams.set('lang', language);
  return url.toString();
}

export function createSandboxOAuthProvider(options: { publicUrl: () => string; jwtSecret: string; now?: () => number }): OAuthProvider & { keys: OAuthSandboxKeys } {
  const keys = oauthSandboxKeys(options.jwtSecret);
  const now = options.now ?? Date.now;
  return {
    name: SANDBOX_OAUTH,
    title: 'Sandbox',
    keys,
    async start(request) {
      const token = randomToken();
      return { token, url: sandboxConsentUrl(options.publicUrl(), token, request.language) };
    },
    async exchange(token, verifier) {
      const identity = keys.open(token, verifier, now());
      if (identity === null) throw new AppError('invalid-code');
      return identity;
    },
  };
}

/** The person as the provider knows them, after the platform checked the provider's answer. */
export interface ExternalIdentity {
  /** The provider's stable id of the person; the link to an account here is by this id. */
  id: string;
  name: string | null;
  email: string | null;
  /** Whether the provider vouches that the person owns `email`. */
  emailVerified: boolean;
}

/** What the platform tells a provider when a sign-in starts. */
export interface OAuthStart {
  /** Where the provider sends the person back: GET /api/oauth/callback?oauth_token&oauth_verifier. */
  callbackUrl: string;
  /** The language the person uses on the platform (`en`, `cs`). */
  language: string;
}

/**
 * An external sign-in provider (docs/oauth.md), shaped after OAuth 1.0a as SPEC §7 names its
 * parameters: `start` obtains a request token and the address of the provider's consent page;
 * the provider returns the person to the callback with `oauth_token` and `oauth_verifier`
 * (or `denied`), and `exchange` trades the pair for the person's identity, server to server.
 * The built-in `sandbox` implements this on the platform's own server; a real provider is one
 * more implementation, selected by OAUTH_PROVIDERS.
 */
export interface OAuthProvider {
  /** Lower-case letters, digits and dashes: it appears in URLs. */
  readonly name: string;
  /** What the "Continue with …" button says. */
  readonly title: string;
  start(request: OAuthStart): Promise<{ token: string; url: string }>;
  /** The identity behind an approved request; throws AppError('invalid-code') when the pair is not valid. */
  exchange(token: string, verifier: string): Promise<ExternalIdentity>;
}

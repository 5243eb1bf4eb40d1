import type { FastifyRequest } from 'fastify';

/** What the platform tells a provider when a check starts. */
export interface IdentityCheckStart {
  /** The platform's id of the check; the provider reports it back in its callback. */
  id: string;
  userId: number;
  /** The language the person uses on the platform (`en`, `cs`). */
  language: string;
}

/**
 * A provider's verdict, after the platform checked that the provider really sent it:
 * `approved` (the identity is verified), `declined` (it is not), or `review` (a person has to
 * look at the documents; an administrator of the platform decides).
 */
export interface IdentityEvent {
  /** Unique per callback: the platform takes each event id once. */
  eventId: string;
  checkId: string;
  outcome: 'approved' | 'declined' | 'review';
  /** The provider's own reference of the check. */
  externalId: string;
  /** Why it declined or wants a review, in the provider's words; null when approved. */
  reason: string | null;
  /** When the provider sent it (ms since the epoch): older callbacks are refused. */
  issuedAt: number;
}

/** The request a provider's callback arrived with: its headers and the body exactly as sent. */
export interface IdentityCallbackRequest {
  headers: FastifyRequest['headers'];
  rawBody: string;
}

/**
 * An identity provider (docs/identity.md). The platform never handles the check itself: it
 * sends the person to the provider's page (`startCheck`), and the verdict arrives at
 * `/papi/identity/{name}/callback`, where `verifyCallback` authenticates it before anything
 * changes. The built-in `sandbox` implements this on the platform's own server.
 */
export interface IdentityProvider {
  /** Lower-case letters, digits and dashes: it appears in URLs. */
  readonly name: string;
  readonly title: string;
  /** The address of the provider's page for this check. */
  startCheck(check: IdentityCheckStart): Promise<string>;
  /** Authenticates a callback and reads it; throws AppError('invalid-signature') otherwise. */
  verifyCallback(request: IdentityCallbackRequest): Promise<IdentityEvent>;
}

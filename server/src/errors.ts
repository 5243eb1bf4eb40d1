import type { ErrorKey } from '../../lib/contract/errors';

/**
 * The one error catalogue of the server: every failure a handler can answer is an AppError
 * carrying a message key of `lib/contract/errors.ts` (which the clients translate) and the
 * HTTP status that goes with it. The error handler turns it into the envelope
 * `{ statusCode: -1, statusText: key, body? }`.
 */
export const httpStatusOf: Record<ErrorKey, number> = {
  'invalid-request': 400,
  'invalid-json': 400,
  'not-found': 404,
  'route-not-found': 404,
  unauthorized: 401,
  forbidden: 403,
  'too-many-requests': 429,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  server_not_responding: 503,
  'service-unavailable': 503,
  'internal-error': 500,
  'user-not-found': 404,
  'invalid-username': 400,
  'username-taken': 409,
  'invalid-email': 400,
  'email-taken': 409,
  'email-not-verified': 403,
  'invalid-credentials': 401,
  banned: 403,
  'refresh-token-failed': 401,
  'link-expired': 410,
  'already-verified': 409,
  'invalid-code': 400,
  'weak-password': 400,
  'wrong-password': 403,
  'invalid-phone': 400,
  'phone-code-wrong': 400,
  'phone-code-expired': 410,
  'phone-code-attempts': 429,
  'widget-scope': 403,
  'origin-not-allowed': 403,
  'consent-required': 403,
  'confirmation-required': 403,
  'confirmation-invalid': 409,
  'spend-cancelled': 409,
  'spending-limit': 403,
  'spending-cooldown': 403,
  'embed-origins-not-allowed': 403,
  'origin-not-listed': 404,
  'origin-proof-failed': 422,
  'badge-not-issued': 404,
  'cannot-target-self': 400,
  'must_be_18': 400,
  'verify-required': 403,
  'wrong_media_type': 415,
  lowRes: 400,
  'post-doesnt-exists': 404,
  'comment-not-found': 404,
  'format': 415,
  'tooLong': 400,
  'upload-not-found': 404,
  'media-not-ready': 409,
  'post-scheduled': 409,
  'invalid-price': 400,
  'media-locked': 403,
  'media-processing-unavailable': 503,
  'storage-full': 507,
  'noMoney': 402,
  'idempotency-conflict': 409,
  'price-changed': 409,
  'nsfw-agreement-required': 403,
  'gift-not-found': 404,
  'gift-send-error': 400,
  'payment_is_processing': 409,
  'payment-declined': 402,
  'payment-failed': 502,
  'processor-unknown': 400,
  'package-not-found': 404,
  'card-not-found': 404,
  'order-not-found': 404,
  'invalid-signature': 401,
  'offer-not-found': 404,
  'subscription-not-found': 404,
  'already-subscribed': 409,
  'link-not-found': 404,
  'link-name-taken': 409,
  'trial-used': 409,
  'trial-unavailable': 409,
  'invalid-amount': 400,
  'payout-too-small': 400,
  'payout-destination-required': 409,
  'couldnt-get-info-from-server': 503,
  'message-too-long': 400,
  'message-not-found': 404,
  'conversation-not-found': 404,
  'call-not-found': 404,
  'calls-not-offered': 403,
  'call-not-live': 409,
  'call-taken': 409,
  'partner-wrong-state': 409,
  'badge-revoked': 403,
  'partner-invalid-name': 400,
  'partner-invalid-street': 400,
  'partner-invalid-zip': 400,
  'partner-invalid-country': 400,
  'partner-invalid-iban': 400,
  'partner-invalid-company-id': 400,
  'id-check-not-started': 404,
  'id-check-pending': 409,
  'id-check-review': 409,
  'id-check-declined': 409,
  'callback-replayed': 409,
  'already-reported': 409,
  'report-not-found': 404,
  'moderation-not-applicable': 409,
};

export class AppError extends Error {
  override name = 'AppError';
  readonly key: ErrorKey;
  readonly httpStatus: number;
  /** The envelope's statusCode: -1 failure, -2 verification needed, or a call-specific code. */
  readonly statusCode: number;
  readonly body: unknown;
  /** Seconds until trying again makes sense (a throttle): answered as the `Retry-After` header. */
  readonly retryAfter: number | undefined;

  constructor(key: ErrorKey, options: { httpStatus?: number; statusCode?: number; body?: unknown; retryAfter?: number } = {}) {
    super(key);
    this.key = key;
    this.httpStatus = options.httpStatus ?? httpStatusOf[key];
    this.statusCode = options.statusCode ?? -1;
    this.body = options.body;
    this.retryAfter = options.retryAfter;
  }
}

export const errors = {
  invalidRequest: (body?: unknown) => new AppError('invalid-request', { body }),
  notFound: () => new AppError('not-found'),
  userNotFound: () => new AppError('user-not-found'),
};

/** The message key for an HTTP status that reached the error handler without one. */
export function keyForHttpStatus(status: number): ErrorKey {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not-found';
    case 413:
      return 'payload-too-large';
    case 415:
      return 'unsupported-media-type';
    case 429:
      return 'too-many-requests';
    default:
      return status >= 500 ? 'internal-error' : 'invalid-request';
  }
}

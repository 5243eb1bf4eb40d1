/**
 * Message keys the server answers in `statusText`. They double as i18next keys under
 * `errors.*`, so every key here has an English and a Czech text (a unit test checks it).
 */
export const ErrorKeys = [
  // generic
  'invalid-request',
  'invalid-json',
  'not-found',
  'route-not-found',
  'unauthorized',
  'forbidden',
  'too-many-requests',
  'payload-too-large',
  'unsupported-media-type',
  'server_not_responding',
  'service-unavailable',
  'internal-error',
  // users
  'user-not-found',
  'invalid-username',
  'username-taken',
  'invalid-email',
  'email-taken',
  // accounts and sessions
  'email-not-verified',
  'invalid-credentials',
  'banned',
  'refresh-token-failed',
  'link-expired',
  'already-verified',
  'invalid-code',
  'weak-password',
  'wrong-password',
  // phone verification (SMS codes)
  'invalid-phone',
  'phone-code-wrong',
  'phone-code-expired',
  'phone-code-attempts',
  // trust: widget sessions and the origins they run on
  'widget-scope',
  'origin-not-allowed',
  'consent-required',
  // spending: confirmations, allowances, the fan's own limits
  'confirmation-required',
  'confirmation-invalid',
  'spend-cancelled',
  'spending-limit',
  'spending-cooldown',
  'embed-origins-not-allowed',
  'origin-not-listed',
  'origin-proof-failed',
  'badge-not-issued',
  // profiles and the social graph
  'cannot-target-self',
  'must_be_18',
  'verify-required',
  'wrong_media_type',
  'lowRes',
  // posts, comments and media
  'post-doesnt-exists',
  'comment-not-found',
  'format',
  'tooLong',
  'upload-not-found',
  'media-not-ready',
  'post-scheduled',
  'invalid-price',
  'media-locked',
  'media-processing-unavailable',
  'storage-full',
  // money
  'noMoney',
  'idempotency-conflict',
  'price-changed',
  'nsfw-agreement-required',
  'gift-not-found',
  'gift-send-error',
  'payment_is_processing',
  'payment-declined',
  'payment-failed',
  'processor-unknown',
  'package-not-found',
  'card-not-found',
  'order-not-found',
  'invalid-signature',
  'offer-not-found',
  'subscription-not-found',
  'already-subscribed',
  // tracking links and free trials
  'link-not-found',
  'link-name-taken',
  'trial-used',
  'trial-unavailable',
  'invalid-amount',
  'payout-too-small',
  'payout-destination-required',
  'couldnt-get-info-from-server',
  // chat
  'message-too-long',
  'message-not-found',
  'conversation-not-found',
  // calls
  'call-not-found',
  'calls-not-offered',
  'call-not-live',
  'call-taken',
  // partner programme and identity checks
  'partner-wrong-state',
  'badge-revoked',
  'partner-invalid-name',
  'partner-invalid-street',
  'partner-invalid-zip',
  'partner-invalid-country',
  'partner-invalid-iban',
  'partner-invalid-company-id',
  'id-check-not-started',
  'id-check-pending',
  'id-check-review',
  'id-check-declined',
  'callback-replayed',
  // reports and moderation
  'already-reported',
  'report-not-found',
  'moderation-not-applicable',
] as const;

export type ErrorKey = (typeof ErrorKeys)[number];

export function isErrorKey(value: unknown): value is ErrorKey {
  return typeof value === 'string' && (ErrorKeys as readonly string[]).includes(value);
}

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
  'internal-error',
  // users
  'user-not-found',
  'invalid-username',
  'username-taken',
  'invalid-email',
  'email-taken',
] as const;

export type ErrorKey = (typeof ErrorKeys)[number];

export function isErrorKey(value: unknown): value is ErrorKey {
  return typeof value === 'string' && (ErrorKeys as readonly string[]).includes(value);
}

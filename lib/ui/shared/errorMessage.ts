import type { TFunction } from 'i18next';
import { isSdkError } from '../../sdk';

/**
 * What a component shows for a failed call, apart from the forms' markup (formParts.tsx), so a
 * button that only reports a refusal (Follow, on every post) does not bring the forms with it.
 */

/** A message the user should read, or null. */
export type Message = string | null;

/** What to show for a failed call: the server's message key translated, else a general line. */
export function errorMessage(t: TFunction, error: unknown): string {
  const generic = t('auth.genericError');
  if (!isSdkError(error) || error.code === 'aborted') return generic;
  // A throttled sign-in says when to try again (the server's `retryAfter`, in seconds).
  const retryAfter = (error.body as { retryAfter?: unknown } | undefined)?.retryAfter;
  if (error.code === 'too-many-requests' && typeof retryAfter === 'number' && retryAfter > 0) {
    return retryAfter < 60 ? t('auth.retrySeconds', { count: Math.ceil(retryAfter) }) : t('auth.retryMinutes', { count: Math.ceil(retryAfter / 60) });
  }
  return t(`errors.${error.code}`, { defaultValue: generic });
}

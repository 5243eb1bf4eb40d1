/**
 * Failures as the stores keep them. A store shows an `SdkError` (its `code` is an `errors.*`
 * key, SPEC §8) and never a bare exception: whatever a request or a callback throws is turned
 * into one here, and a refusal the person can fix themselves (no credits, an e-mail not yet
 * verified) is named as the prompt the page should open for it.
 */
import { SdkError } from '../../errors';

/**
 * `cause` as an `SdkError`: an `SdkError` as it is, anything else (a bug, a callback that threw)
 * as `internal-error` with the original kept as its `cause`, so a store's `error` signal always
 * holds something the page can translate.
 */
export function asSdkError(cause: unknown): SdkError {
  return cause instanceof SdkError ? cause : new SdkError({ code: 'internal-error', statusCode: 0, cause });
}

/** What a page opens so the person can remove the reason for a refusal: buy credits, or verify the e-mail. */
export type RefusalPrompt = 'topUp' | 'verifyEmail';

const PROMPTS: Readonly<Record<string, RefusalPrompt>> = {
  // The realtime refusals (eventMessage events) and the envelope keys of the same reasons.
  noCredit: 'topUp',
  noMoney: 'topUp',
  emailNotVerified: 'verifyEmail',
  'email-not-verified': 'verifyEmail',
};

/**
 * The prompt a refusal asks for, or null when the person cannot do anything about it here.
 * `refusal` is a realtime refusal (`noCredit`, `emailNotVerified`) or an `SdkError`'s `code`
 * (`noMoney`, `email-not-verified`). A store keeps the answer in a `prompt` signal with what
 * the refusal was about (e.g. the chat's `{kind, userId, msgId}`), so the page can retry it after.
 */
export function promptFor(refusal: string): RefusalPrompt | null {
  return Object.hasOwn(PROMPTS, refusal) ? (PROMPTS[refusal] as RefusalPrompt) : null;
}

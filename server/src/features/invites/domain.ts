import { randomInt } from 'node:crypto';
import { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH } from '../../../../lib/contract/constants';

/** A fresh invite code: 8 characters drawn uniformly from the alphabet without look-alikes. */
export function newInviteCode(draw: (max: number) => number = randomInt): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += INVITE_CODE_ALPHABET[draw(INVITE_CODE_ALPHABET.length)];
  return code;
}

/** The address an invite code travels in: any landing page with `?aff=` works, this is the home page. */
export function inviteLink(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/?aff=${code}`;
}

/**
 * What a code did to an account's inviter: `set` it, or was ignored — `unknown` (no such code,
 * or its account is gone), `self` (one's own code), `already` (the account has an inviter; the
 * first one stays).
 */
export type InviteOutcome = 'set' | 'unknown' | 'self' | 'already';

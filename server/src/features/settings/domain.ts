import type { Settings } from '../../../../lib/contract/settings';
import { AFFILIATE_SHARE_PERCENT } from '../../ledger/pay';
import { MIN_PAYOUT_CENTS } from '../spending/domain';

/**
 * The expressions clients and server validate with. They are sent as strings (SPEC §3
 * Settings) and written so that they mean the same with or without the `u` flag.
 */
export const emailPattern = "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.[A-Za-z]{2,}$";
const emailRegExp = new RegExp(emailPattern);

/** Mentions are `@username` (the characters of UsernamePattern); the capture group is the username. */
export const mentionsPattern = '@([A-Za-z0-9._]{3,30})';

export const partnerValidation = {
  /** A person's or company's name: letters, spaces and the usual punctuation of names. */
  name: "^[^0-9<>@#$%*=+|\\\\{}\\[\\]~^\"_;:!?]{2,100}$",
  street: '^[^<>{}\\[\\]|\\\\]{3,120}$',
  zip: '^[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]$',
  /** Spaces are removed before checking. */
  iban: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$',
  companyId: '^[A-Za-z0-9][A-Za-z0-9 ./-]{2,18}[A-Za-z0-9]$',
} as const;

export const settingsLanguages = [
  { id: 1, languageIso: 'en', name: 'English' },
  { id: 2, languageIso: 'cs', name: 'Čeština' },
];

/** RFC 5321 caps an address at 254 characters. */
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && emailRegExp.test(email);
}

export function buildSettings(options: {
  publicUrl: string;
  salt: number;
  pushPubKey?: string;
  slug?: string;
  iceServers?: Settings['iceServers'];
  modelProgram?: boolean;
  operator?: Settings['operator'];
  forceLogin?: boolean;
  testMode?: boolean;
}): Settings {
  return {
    languages: settingsLanguages,
    mediaCDN: `${options.publicUrl}/media`,
    salt: options.salt,
    regExpMentions: mentionsPattern,
    regExpEmail: emailPattern,
    pushPubKey: options.pushPubKey ?? '',
    slug: options.slug ?? 'fanstage',
    publicUrl: options.publicUrl,
    partnerValidation: { ...partnerValidation },
    modelProgram: options.modelProgram ?? false,
    affiliateSharePercent: AFFILIATE_SHARE_PERCENT,
    minimumPayoutCents: MIN_PAYOUT_CENTS,
    ...(options.operator === undefined ? {} : { operator: { ...options.operator } }),
    forceLogin: options.forceLogin ?? false,
    // The calls' STUN servers (ICE_SERVERS); an empty list when none is configured. Anyone reads
    // this, so it never carries a credential, whatever it is given: TURN credentials are minted
    // per call (GET /api/calls/{id}/ice-servers).
    iceServers: (options.iceServers ?? []).map((server) => ({ urls: server.urls })),
    testMode: options.testMode ?? false,
  };
}

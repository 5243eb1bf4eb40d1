import { randomBytes } from 'node:crypto';
import { partnerValidation } from '../settings/domain';

/**
 * The partner programme's rules, without the database: the approved states of SPEC §4 as an
 * explicit transition table, the partner form's checks and the partner codes of SPEC §5.
 *
 * Approved states (users.approved_state):
 *
 * | state | meaning                                                                 |
 * |-------|-------------------------------------------------------------------------|
 * | 0     | not in the programme, or the applicant cancelled the verification        |
 * | 7     | the partner form is saved; the site prompts to finish the registration   |
 * | 101   | registration finished: verify your identity (also after a declined check) |
 * | 105   | an identity check is running at the provider                             |
 * | 107   | the provider could not decide: an administrator reviews the documents    |
 * | 110   | identity verified: the application waits for an administrator            |
 * | 120   | approved partner and seller                                              |
 */
export const ApprovedState = {
  none: 0,
  registration: 7,
  verify: 101,
  checking: 105,
  review: 107,
  verified: 110,
  approved: 120,
} as const;
export type ApprovedState = (typeof ApprovedState)[keyof typeof ApprovedState];

export type PartnerEvent =
  /** PUT /api/partner with a valid form. */
  | 'saveForm'
  /** GET /api/partner/reg-done: the applicant finished the registration. */
  | 'registrationDone'
  /** GET /api/partner/start-id-check: a check starts (or restarts) at the provider. */
  | 'startIdCheck'
  /** The provider's signed callback: the identity is verified. */
  | 'idApproved'
  /** The provider's signed callback: a person has to look at the documents. */
  | 'idNeedsReview'
  /** The provider's signed callback: the identity was not verified. */
  | 'idDeclined'
  /** An administrator approves the application (or the reviewed check). */
  | 'adminApprove'
  /** An administrator declines the application (or the reviewed check), with a reason. */
  | 'adminDecline'
  /** GET /api/partner/cancel-verification. */
  | 'cancel'
  /** POST /api/partner/confirm-badge or confirm-no-badge. */
  | 'confirmBadge';

/**
 * Every allowed move: event → (state before → state after). A pair missing here is refused
 * (`partner-wrong-state`), so nothing reaches a state by a path this table does not name.
 */
export const transitions: Readonly<Record<PartnerEvent, Readonly<Partial<Record<ApprovedState, ApprovedState>>>>> = {
  saveForm: { 0: 7, 7: 7, 101: 101, 120: 120 },
  registrationDone: { 7: 101 },
  startIdCheck: { 101: 105, 105: 105 },
  idApproved: { 105: 110 },
  idNeedsReview: { 105: 107 },
  idDeclined: { 105: 101 },
  adminApprove: { 110: 120, 107: 120 },
  adminDecline: { 110: 7, 107: 101 },
  cancel: { 7: 0, 101: 0, 105: 0, 107: 0, 110: 0 },
  confirmBadge: { 120: 120 },
};

export const approvedStates: readonly ApprovedState[] = Object.values(ApprovedState);

/** The state after `event`, or null when the event is not allowed in `state`. */
export function nextApprovedState(state: number, event: PartnerEvent): ApprovedState | null {
  return transitions[event][state as ApprovedState] ?? null;
}

/** States that wait for an administrator: the moderation queue. */
export const queuedStates: readonly ApprovedState[] = [ApprovedState.review, ApprovedState.verified];

/** SPEC §2: the site shows the request-check banner (and the Timeline badge an error) in these. */
export const bannerStates: readonly ApprovedState[] = [ApprovedState.registration, ApprovedState.verify, ApprovedState.checking, ApprovedState.review];

// ---------------------------------------------------------------------------------------------
// The partner form

export const partnerFields = ['name', 'street', 'zip', 'country', 'iban', 'companyId'] as const;
export type PartnerField = (typeof partnerFields)[number];

/** The message key of a field that fails its check. */
export const partnerFieldError = {
  name: 'partner-invalid-name',
  street: 'partner-invalid-street',
  zip: 'partner-invalid-zip',
  country: 'partner-invalid-country',
  iban: 'partner-invalid-iban',
  companyId: 'partner-invalid-company-id',
} as const satisfies Record<PartnerField, string>;

export interface PartnerFormInput {
  name: string;
  street: string;
  zip: string;
  country: string;
  iban: string;
  companyId?: string | null;
}

export interface PartnerForm {
  name: string;
  street: string;
  zip: string;
  country: string;
  iban: string;
  companyId: string | null;
}

const patterns = {
  name: new RegExp(partnerValidation.name),
  street: new RegExp(partnerValidation.street),
  zip: new RegExp(partnerValidation.zip),
  iban: new RegExp(partnerValidation.iban),
  companyId: new RegExp(partnerValidation.companyId),
};

/** ISO 13616: move the first four characters to the end, letters to numbers, the whole modulo 97 is 1. */
export function ibanChecksumValid(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of moved) {
    const code = char.charCodeAt(0);
    const value = code >= 65 && code <= 90 ? String(code - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/**
 * Checks the partner form with the settings' expressions (the same the site's form uses) and
 * tidies it: trimmed, IBAN upper case without spaces and with a valid check sum, country an
 * ISO 3166-1 alpha-2 code, company id optional. Answers the first field that fails, in the
 * order the form shows them.
 */
export function checkPartnerForm(input: PartnerFormInput): { form: PartnerForm } | { field: PartnerField; key: (typeof partnerFieldError)[PartnerField] } {
  const name = input.name.trim();
  const street = input.street.trim();
  const zip = input.zip.trim();
  const country = input.country.trim().toUpperCase();
  const iban = input.iban.replace(/\s+/g, '').toUpperCase();
  const companyId = (input.companyId ?? '').trim();
  const fail = (field: PartnerField) => ({ field, key: partnerFieldError[field] });
  if (!patterns.name.test(name)) return fail('name');
  if (!patterns.street.test(street)) return fail('street');
  if (!patterns.zip.test(zip)) return fail('zip');
  if (!/^[A-Z]{2}$/.test(country)) return fail('country');
  if (!patterns.iban.test(iban) || !ibanChecksumValid(iban)) return fail('iban');
  if (companyId !== '' && !patterns.companyId.test(companyId)) return fail('companyId');
  return { form: { name, street, zip, country, iban, companyId: companyId === '' ? null : companyId } };
}

/** The IBAN as shown back to its owner: the country and the last four characters. */
export function maskIban(iban: string): string {
  return iban.length <= 8 ? iban : `${iban.slice(0, 4)}${'•'.repeat(iban.length - 8)}${iban.slice(-4)}`;
}

// ---------------------------------------------------------------------------------------------
// Partner codes (SPEC §5: 10 characters starting 'C-')

const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function isPartnerCode(value: string): boolean {
  return /^C-[A-Z0-9]{8}$/.test(value);
}

/** A new partner code: `C-` and eight characters without the easily confused 0/O, 1/I. */
export function newPartnerCode(): string {
  const bytes = randomBytes(8);
  let code = 'C-';
  for (const byte of bytes) code += codeAlphabet[byte % codeAlphabet.length];
  return code;
}

/** SPEC §5: actionGirl accepts only actionState 2 (accept) or 3 (refuse). */
export function isActionGirlAnswer(value: number): value is 2 | 3 {
  return value === 2 || value === 3;
}

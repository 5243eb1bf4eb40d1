import type { PartnerFormBody, PartnerValidation } from '../../contract';

/** The partner form's fields, in the order the form shows them and the server checks them. */
export const partnerFields = ['name', 'street', 'zip', 'country', 'iban', 'companyId'] as const;
export type PartnerField = (typeof partnerFields)[number];

/** The message key of a field that fails its check (the server answers the same keys). */
export const partnerFieldError: Record<PartnerField, string> = {
  name: 'partner-invalid-name',
  street: 'partner-invalid-street',
  zip: 'partner-invalid-zip',
  country: 'partner-invalid-country',
  iban: 'partner-invalid-iban',
  companyId: 'partner-invalid-company-id',
};

export type PartnerFormValues = Record<PartnerField, string>;

/** ISO 13616: the first four characters moved to the end, letters as numbers, modulo 97 is 1. */
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

function matches(expression: string, value: string): boolean {
  try {
    return new RegExp(expression).test(value);
  } catch {
    // An expression this browser cannot compile is left to the server, which checks anyway.
    return true;
  }
}

/**
 * Checks the form in the browser with the settings' expressions (`partnerValidation`), as the
 * server does (docs/partners.md): every failing field with its message key, and the body to send.
 */
export function checkPartnerForm(values: PartnerFormValues, validation: PartnerValidation): { errors: Partial<Record<PartnerField, string>>; body: PartnerFormBody } {
  const body: PartnerFormBody = {
    name: values.name.trim(),
    street: values.street.trim(),
    zip: values.zip.trim(),
    country: values.country.trim().toUpperCase(),
    iban: values.iban.replace(/\s+/g, '').toUpperCase(),
    companyId: values.companyId.trim() === '' ? null : values.companyId.trim(),
  };
  const errors: Partial<Record<PartnerField, string>> = {};
  if (!matches(validation.name, body.name)) errors.name = partnerFieldError.name;
  if (!matches(validation.street, body.street)) errors.street = partnerFieldError.street;
  if (!matches(validation.zip, body.zip)) errors.zip = partnerFieldError.zip;
  if (!/^[A-Z]{2}$/.test(body.country)) errors.country = partnerFieldError.country;
  if (!matches(validation.iban, body.iban) || !ibanChecksumValid(body.iban)) errors.iban = partnerFieldError.iban;
  if (body.companyId && !matches(validation.companyId, body.companyId)) errors.companyId = partnerFieldError.companyId;
  return { errors, body };
}

/** SPEC §5: a partner code is `C-` and eight letters or digits. */
export function isPartnerCode(value: string): boolean {
  return /^C-[A-Z0-9]{8}$/.test(value);
}

/** SPEC §2 Navigation: the approved states in which the Timeline badge flags an error and the request-check banner shows. */
export const REQUEST_CHECK_STATES: ReadonlySet<number> = new Set([7, 101, 105, 107]);

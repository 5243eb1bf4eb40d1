import { Type, type Static } from 'typebox';

export const Language = Type.Object({
  id: Type.Integer(),
  languageIso: Type.String({ minLength: 2, maxLength: 5 }),
  name: Type.String(),
});
export type Language = Static<typeof Language>;

/** Regular expressions the partner registration form validates with (SPEC §3 Settings). */
export const PartnerValidation = Type.Object({
  name: Type.String(),
  street: Type.String(),
  zip: Type.String(),
  iban: Type.String(),
  companyId: Type.String(),
});
export type PartnerValidation = Static<typeof PartnerValidation>;

export const Settings = Type.Object(
  {
    languages: Type.Array(Language),
    /** Base address of media: `${mediaCDN}/${hash}.${format}?t=variant&k=unlockKey`. */
    mediaCDN: Type.String(),
    /** The platform's price multiplier: a fan pays price × salt / 10000 (10000 = ×1). */
    salt: Type.Integer({ minimum: 1 }),
    regExpMentions: Type.String(),
    regExpEmail: Type.String(),
    pushPubKey: Type.String(),
    slug: Type.String(),
    partnerValidation: PartnerValidation,
  },
  { $id: 'Settings' },
);
export type Settings = Static<typeof Settings>;

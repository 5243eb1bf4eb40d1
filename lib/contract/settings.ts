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
    /**
     * The address people reach the platform at (the server's PUBLIC_URL), such as
     * `https://fanstage.example`: a profile's address is `{publicUrl}/{username}`. Absent from
     * servers older than this field.
     */
    publicUrl: Type.Optional(Type.String()),
    partnerValidation: PartnerValidation,
    /** Whether the model-program page `/tour-partners` is offered (the server's MODEL_PROGRAM); absent means no. */
    modelProgram: Type.Optional(Type.Boolean()),
    /** The inviter's share of the platform's fee on what an invited account spends, in per cent. */
    affiliateSharePercent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    /** The smallest payout a creator may ask for, in cents. */
    minimumPayoutCents: Type.Optional(Type.Integer({ minimum: 0 })),
    /**
     * Who runs the platform, as the legal pages and the contact page name them (the server's
     * OPERATOR_NAME, OPERATOR_ADDRESS and SUPPORT_EMAIL); the address may be empty.
     */
    operator: Type.Optional(Type.Object({ name: Type.String(), address: Type.String(), email: Type.String() })),
    /**
     * Whether visitors are asked to log in on every page but the information pages (the
     * server's FORCE_LOGIN, SPEC §6); absent means no.
     */
    forceLogin: Type.Optional(Type.Boolean()),
    /**
     * External sign-in providers the login and sign-up forms offer as "Continue with {title}"
     * (the server's OAUTH_PROVIDERS): a button goes to `GET /api/oauth/authorize?provider={name}&returnTo=`.
     * Absent or empty: none.
     */
    oauthProviders: Type.Optional(Type.Array(Type.Object({ name: Type.String(), title: Type.String() }))),
    /**
     * STUN servers for calls (the server's `ICE_SERVERS`), never with a credential: TURN
     * credentials are minted per call (`GET /api/calls/{id}/ice-servers`). Absent or empty:
     * calls use none, which is enough on one network.
     */
    iceServers: Type.Optional(
      Type.Array(
        Type.Object({
          urls: Type.Union([Type.String(), Type.Array(Type.String())]),
          username: Type.Optional(Type.String()),
          credential: Type.Optional(Type.String()),
        }),
      ),
    ),
    /**
     * A test installation (the server's FANSTAGE_STAGING): payments and identity checks go
     * through sandboxes and move no real money, and the site says so on every page. Absent
     * means no.
     */
    testMode: Type.Optional(Type.Boolean()),
  },
  { $id: 'Settings' },
);
export type Settings = Static<typeof Settings>;

import { Type, type Static } from 'typebox';

export const TranslationsQuery = Type.Object({
  /** The client's cached version; answers are cacheable per version. */
  v: Type.Optional(Type.String({ maxLength: 64 })),
});

/** One language's resource: nested objects of strings, as i18next stores them. */
export const TranslationsBody = Type.Object({
  language: Type.String(),
  version: Type.String(),
  resources: Type.Record(Type.String(), Type.Unknown()),
});
export type TranslationsBody = Static<typeof TranslationsBody>;

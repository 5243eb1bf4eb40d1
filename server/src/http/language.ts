/** Languages the API answers in (SPEC §1: English and Czech); the first is the default. */
export const supportedLanguages = ['en', 'cs'] as const;
export type ApiLanguage = (typeof supportedLanguages)[number];
export const defaultLanguage: ApiLanguage = 'en';

/**
 * The request's `Language` header (SPEC §7, the client's languageIso) picks the answer's
 * language. Tolerates region tags and lists ("cs-CZ", "cs,en;q=0.8") because browsers and
 * hand-written clients send those.
 */
export function pickLanguage(header: string | string[] | undefined): ApiLanguage {
  if (header === undefined) return defaultLanguage;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === 'en' || value === 'cs') return value;
  for (const part of value.split(',')) {
    const base = part.trim().slice(0, 2).toLowerCase();
    if (base === 'en' || base === 'cs') return base;
  }
  return defaultLanguage;
}

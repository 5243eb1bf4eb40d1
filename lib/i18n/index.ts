import i18next, { type i18n } from 'i18next';
import en from './locales/en.json';
import cs from './locales/cs.json';
import enumsEn from './locales/enums.en.json';
import enumsCs from './locales/enums.cs.json';

export const languages = ['en', 'cs'] as const;
export type LanguageIso = (typeof languages)[number];
export const defaultLanguage: LanguageIso = 'en';

/** The bundled resources, also served by the server at /papi/translations/{client,enums}. */
export const resources = {
  en: { translation: en, enums: enumsEn },
  cs: { translation: cs, enums: enumsCs },
} as const;

export function isLanguage(value: unknown): value is LanguageIso {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** Picks the best supported language from an Accept-Language-like list or a single tag. */
export function pickLanguage(candidates: readonly string[] | string | null | undefined): LanguageIso {
  const list = typeof candidates === 'string' ? candidates.split(',') : (candidates ?? []);
  for (const raw of list) {
    const base = raw.trim().split(/[-_;]/)[0]?.toLowerCase();
    if (isLanguage(base)) return base;
  }
  return defaultLanguage;
}

/**
 * A fresh, initialised i18next instance. Each widget tree and the site get their own
 * instance so a host page's i18next (if any) is never touched.
 */
export function createI18n(language: LanguageIso = defaultLanguage): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    resources,
    lng: language,
    fallbackLng: defaultLanguage,
    supportedLngs: [...languages],
    ns: ['translation', 'enums'],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

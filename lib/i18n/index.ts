import i18next, { type BackendModule, type i18n, type ResourceLanguage } from 'i18next';
import en from './locales/en.json';
import enumsEn from './locales/enums.en.json';

export const languages = ['en', 'cs'] as const;
export type LanguageIso = (typeof languages)[number];
export const defaultLanguage: LanguageIso = 'en';

type Resources = { translation: ResourceLanguage; enums: ResourceLanguage };

/**
 * English is bundled: it is the default and every other language's fallback. The others are
 * chunks of their own, loaded when a page first speaks them, so a page carries only the
 * strings of the language it shows (the same files the server serves at
 * /papi/translations/{client,enums}).
 */
const loaders: Partial<Record<LanguageIso, () => Promise<Resources>>> = {
  cs: () => import('./cs').then((m) => m.default),
};

const loaded = new Map<LanguageIso, Resources>([[defaultLanguage, { translation: en, enums: enumsEn }]]);
const loading = new Map<LanguageIso, Promise<Resources>>();

export function isLanguage(value: unknown): value is LanguageIso {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** Whether a language's strings are here, so an instance made now speaks it from its first render. */
export function isLanguageLoaded(language: LanguageIso): boolean {
  return loaded.has(language);
}

/**
 * A language's strings (both namespaces), fetched once per page. Await it before the first
 * render in that language (or before `createI18n`) to show no text in the fallback first.
 */
export function loadLanguage(language: LanguageIso): Promise<Resources> {
  const ready = loaded.get(language);
  if (ready) return Promise.resolve(ready);
  const pending = loading.get(language);
  if (pending) return pending;
  const load = loaders[language];
  if (!load) return Promise.reject(new Error(`No strings for the language ${language}`));
  const fetched = load().then((resources) => {
    loaded.set(language, resources);
    return resources;
  });
  // A failed fetch (offline) may be tried again later.
  fetched.catch(() => loading.delete(language));
  loading.set(language, fetched);
  return fetched;
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

/** Brings a language i18next asks for that is not loaded yet (`changeLanguage` waits for it). */
const lazyLanguages: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    if (!isLanguage(language)) return callback(null, {});
    loadLanguage(language).then(
      (resources) => callback(null, resources[namespace as keyof Resources] ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

/**
 * A fresh, initialised i18next instance. Each widget tree and the site get their own
 * instance so a host page's i18next (if any) is never touched. A language already loaded
 * (English always is; see `loadLanguage`) is there from the start; another is fetched, and
 * react-i18next suspends the components that translate until it is in, so no English shows
 * in its place. `changeLanguage` switches once the new language's strings have arrived.
 */
export function createI18n(language: LanguageIso = defaultLanguage): i18n {
  const instance = i18next.createInstance();
  void instance.use(lazyLanguages).init({
    resources: Object.fromEntries(loaded),
    partialBundledLanguages: true,
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

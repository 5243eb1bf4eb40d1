import { useEffect, useMemo, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { createI18n, defaultLanguage, type LanguageIso } from '../../i18n';
import { createFanstage, type Fanstage, type SessionOptions } from '../../sdk';
import { FanstageContext } from './context';

export interface FanstageProviderProps {
  /**
   * The object from `createFanstage()`. Share one per API across a page, so every component
   * shares its settings request and profile cache. When omitted, the provider makes its own
   * from `baseUrl`.
   */
  fanstage?: Fanstage;
  /** Where the API lives when no `fanstage` is given; `''` (the default) is the page's origin. */
  baseUrl?: string;
  /**
   * The session of the provider's own `fanstage` (no effect with `fanstage`). By default
   * cookies on the API's origin and tokens in the body, without credentials, on any other.
   */
  session?: SessionOptions;
  /** The interface language, `en` (default) or `cs`. */
  language?: LanguageIso;
  /**
   * An i18next instance to translate with, e.g. the host site's, created with `createI18n`.
   * When omitted, the provider keeps its own, so a host page's i18next is never touched.
   */
  i18n?: I18n;
  children?: ReactNode;
}

export function FanstageProvider({ fanstage, baseUrl = '', session, language = defaultLanguage, i18n, children }: FanstageProviderProps) {
  // `language` is left out of both memos on purpose: a language switch re-labels the same
  // client and translator (below) instead of throwing away caches and subscriptions. So is
  // `session`, an object literal in most pages: a new one each render must not sign the fan out.
  /* eslint-disable react-hooks/exhaustive-deps */
  const ownFanstage = useMemo(() => (fanstage ? null : createFanstage({ baseUrl, language, ...(session ? { session } : {}) })), [fanstage, baseUrl]);
  const ownI18n = useMemo(() => (i18n ? null : createI18n(language)), [i18n]);
  /* eslint-enable react-hooks/exhaustive-deps */

  useEffect(() => {
    // Only what the provider owns follows `language`; passed-in instances belong to the host.
    if (ownI18n && ownI18n.language !== language) void ownI18n.changeLanguage(language);
    ownFanstage?.client.setLanguage(language);
  }, [language, ownI18n, ownFanstage]);

  return (
    <FanstageContext.Provider value={(fanstage ?? ownFanstage) as Fanstage}>
      <I18nextProvider i18n={(i18n ?? ownI18n) as I18n}>{children}</I18nextProvider>
    </FanstageContext.Provider>
  );
}

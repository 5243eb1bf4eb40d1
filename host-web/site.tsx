import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { i18n as I18n } from 'i18next';
import type { Fanstage } from '../lib/sdk';
import type { LanguageIso } from '../lib/i18n';
import { writeLanguageCookie } from './language';

interface SiteState {
  readonly fanstage: Fanstage;
  readonly language: LanguageIso;
  setLanguage(language: LanguageIso): void;
  /** Nobody can log in yet; every screen asks this rather than assuming a visitor. */
  readonly loggedIn: boolean;
  readonly loginPromptOpen: boolean;
  openLoginPrompt(): void;
  closeLoginPrompt(): void;
  readonly title: PageTitle | null;
  setTitle(title: PageTitle | null): void;
}

export interface PageTitle {
  readonly text: string;
  /** Shown in the header bar too (SPEC §2: Discover, a chat partner's name, ...). */
  readonly inHeader: boolean;
}

const SiteContext = createContext<SiteState | null>(null);

export function SiteProvider(props: { fanstage: Fanstage; i18n: I18n; initialLanguage: LanguageIso; children: ReactNode }) {
  const { fanstage, i18n } = props;
  const [language, setLanguageState] = useState<LanguageIso>(props.initialLanguage);
  const [loginPromptOpen, setLoginPromptOpen] = useState(false);
  const [title, setTitle] = useState<PageTitle | null>(null);

  const setLanguage = useCallback(
    (next: LanguageIso) => {
      writeLanguageCookie(next);
      // The API answers in the same language the page speaks (the `Language` header).
      fanstage.client.setLanguage(next);
      void i18n.changeLanguage(next);
      setLanguageState(next);
    },
    [fanstage, i18n],
  );

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const value = useMemo<SiteState>(
    () => ({
      fanstage,
      language,
      setLanguage,
      loggedIn: false,
      loginPromptOpen,
      openLoginPrompt: () => setLoginPromptOpen(true),
      closeLoginPrompt: () => setLoginPromptOpen(false),
      title,
      setTitle,
    }),
    [fanstage, language, setLanguage, loginPromptOpen, title],
  );
  return <SiteContext.Provider value={value}>{props.children}</SiteContext.Provider>;
}

export function useSite(): SiteState {
  const site = useContext(SiteContext);
  if (!site) throw new Error('useSite() needs a <SiteProvider> above it');
  return site;
}

/**
 * Declares the current screen's title for the browser tab and, unless `inHeader` is false,
 * for the header bar. The header shows it as plain text: every screen has its own `<h1>`, so
 * the heading outline does not depend on which layout is showing. `null`: the site's name.
 */
export function usePageTitle(text: string | null, { inHeader = true }: { inHeader?: boolean } = {}): void {
  const { setTitle } = useSite();
  useEffect(() => {
    setTitle(text === null ? null : { text, inHeader });
  }, [setTitle, text, inHeader]);
  useEffect(
    () => () => {
      setTitle(null);
    },
    [setTitle],
  );
}

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { i18n as I18n } from 'i18next';
import { useSignals } from '@preact/signals-react/runtime';
import type { Fanstage } from '../lib/sdk';
import { isLanguage, type LanguageIso } from '../lib/i18n';
import { writeLanguageCookie } from './language';

interface SiteState {
  readonly fanstage: Fanstage;
  readonly language: LanguageIso;
  setLanguage(language: LanguageIso): void;
  /** Every screen asks this rather than assuming a visitor. */
  readonly loggedIn: boolean;
  /** The own username once the account is loaded (the Profile tab leads there, SPEC §2). */
  readonly username: string | null;
  /** False until the start-up `session.restore()` has answered: guards wait for it. */
  readonly sessionChecked: boolean;
  readonly logoutConfirmOpen: boolean;
  openLogoutConfirm(): void;
  closeLogoutConfirm(): void;
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

export function SiteProvider(props: {
  fanstage: Fanstage;
  i18n: I18n;
  initialLanguage: LanguageIso;
  /** The start-up session check (see main.tsx); the provider only waits for it. */
  sessionReady: Promise<unknown>;
  children: ReactNode;
}) {
  useSignals();
  const { fanstage, i18n, sessionReady } = props;
  const [language, setLanguageState] = useState<LanguageIso>(props.initialLanguage);
  const [loginPromptOpen, setLoginPromptOpen] = useState(false);
  const [logoutConfirmOpen, setLogoutConfirmOpen] = useState(false);
  const [title, setTitle] = useState<PageTitle | null>(null);
  const [sessionChecked, setSessionChecked] = useState(false);
  const loggedIn = fanstage.session.isLoggedIn.value;
  const username = fanstage.session.account.value?.username ?? null;

  useEffect(() => {
    let live = true;
    void sessionReady.finally(() => {
      if (live) setSessionChecked(true);
    });
    return () => {
      live = false;
    };
  }, [sessionReady]);

  // A prompt meant for visitors has nothing left to say once its user is logged in.
  useEffect(() => {
    if (loggedIn) setLoginPromptOpen(false);
  }, [loggedIn]);

  const speak = useCallback(
    (next: LanguageIso) => {
      writeLanguageCookie(next);
      // The API answers in the same language the page speaks (the `Language` header).
      fanstage.client.setLanguage(next);
      void i18n.changeLanguage(next);
      setLanguageState(next);
    },
    [fanstage, i18n],
  );

  // One language for the account and the interface: once signed in, the page speaks the
  // account's language, however it was set (Edit profile, another device, the picker below).
  const accountLanguage = fanstage.session.account.value?.appLanguage;
  useEffect(() => {
    if (accountLanguage !== undefined && isLanguage(accountLanguage) && accountLanguage !== i18n.language) speak(accountLanguage);
  }, [accountLanguage, i18n, speak]);

  const setLanguage = useCallback(
    (next: LanguageIso) => {
      speak(next);
      // The account remembers it for mails and other devices; the page has already switched,
      // so a failure here changes nothing the user sees.
      if (fanstage.session.isLoggedIn.peek()) {
        fanstage.account
          .updateMe({ appLanguage: next })
          .then((account) => fanstage.session.setAccount(account))
          .catch(() => undefined);
      }
    },
    [fanstage, speak],
  );

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const value = useMemo<SiteState>(
    () => ({
      fanstage,
      language,
      setLanguage,
      loggedIn,
      username,
      sessionChecked,
      logoutConfirmOpen,
      openLogoutConfirm: () => setLogoutConfirmOpen(true),
      closeLogoutConfirm: () => setLogoutConfirmOpen(false),
      loginPromptOpen,
      openLoginPrompt: () => setLoginPromptOpen(true),
      closeLoginPrompt: () => setLoginPromptOpen(false),
      title,
      setTitle,
    }),
    [fanstage, language, setLanguage, loggedIn, username, sessionChecked, logoutConfirmOpen, loginPromptOpen, title],
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

import type { i18n as I18n } from 'i18next';

/**
 * The English strings the first load leaves out (host-web/vite.config.ts, first-load strings):
 * fetched once, at start, and added to the site's i18next instance. Every screen but the home
 * screen, and every lazily fetched part, waits for them before it renders.
 */
let fetched: Promise<Record<string, unknown>> | null = null;
let added: Promise<void> | null = null;

/** Starts fetching them (the site calls this first thing, so they come in with the shell). */
export function prefetchMoreStrings(): Promise<Record<string, unknown>> {
  fetched ??= import('virtual:fanstage-english-rest').then((m) => m.default);
  return fetched;
}

/** Adds them to `i18n` once they are in; a failed fetch may be tried again. */
export function addMoreStrings(i18n: I18n): Promise<void> {
  added ??= prefetchMoreStrings().then(
    (rest) => {
      i18n.addResourceBundle('en', 'translation', rest, true, true);
    },
    (error: unknown) => {
      fetched = null;
      added = null;
      throw error;
    },
  );
  return added;
}

/** Resolves once the rest of the strings are in `i18n` (at once where nothing asked for them). */
export function moreStrings(): Promise<void> {
  return added ?? Promise.resolve();
}

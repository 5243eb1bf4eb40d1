import { lazy, useEffect, type ComponentType } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { moreStrings } from './strings';
import { storesReady } from './stores';

/** Set when a screen's code could not be fetched, so the offline screen can offer a way back. */
let failedLocation: string | null = null;

export function getFailedLocation(): string | null {
  return failedLocation;
}

function GoOffline() {
  useEffect(() => {
    navigate('/offline', { replace: true });
  }, []);
  return null;
}

/**
 * A screen in its own chunk. If the chunk cannot be loaded (offline, or a deploy removed the
 * old files), the user lands on /offline (SPEC §2) instead of a broken page. React caches the
 * failed import, so the offline screen's retry reloads the whole page to fetch fresh code.
 */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, options: { firstLoadStrings?: boolean } = {}) {
  return lazy(() =>
    // A screen renders once its code and its strings are in (the home screen's come with the
    // first load: `firstLoadStrings`), so no key shows in place of a text; and, but for the home
    // screen, once the SDK's stores left out of the first load are in (stores.ts).
    Promise.all([load(), options.firstLoadStrings ? null : moreStrings(), options.firstLoadStrings ? null : storesReady()])
      .then(([screen]) => screen)
      .catch((error: unknown) => {
        failedLocation = window.location.pathname + window.location.search;
        console.error('A screen could not be loaded', error);
        return { default: GoOffline as ComponentType<P> };
      }),
  );
}

import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False while the server renders and while React hydrates that HTML, true from then on (and at
 * once for a component first rendered in the browser). A component that loads data renders its
 * loading state while this is false: the server has no business calling the API of a visitor's
 * page (a prerender would keep whatever came of it), and the browser's first render must match
 * the server's HTML, whatever the browser's caches already hold.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

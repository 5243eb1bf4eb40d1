import { useSyncExternalStore } from 'react';

/** SPEC §9 breakpoints: the web layout from 1280 px. */
export const webLayoutQuery = '(min-width: 1280px)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(webLayoutQuery);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the page shows its web layout (≥ 1280 px) now; follows resizes. */
export function useWebLayout(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(webLayoutQuery).matches,
    () => false,
  );
}

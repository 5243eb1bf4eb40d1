import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { Release } from '../../contract';
import type { FanstageClient } from '../client';

/** SPEC §9: the update check runs at most every 30 minutes. */
export const RELEASE_CHECK_MS = 30 * 60_000;

export interface ReleaseWatcherOptions {
  /** The release this page runs (the site's build id). Without one nothing is ever "newer". */
  current: string | null;
  /** Least time between two checks; SPEC §9's 30 minutes by default. */
  everyMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

/**
 * The update check of SPEC §7 (`GET /release?{timestamp}`): at most every 30 minutes the page
 * asks which release the server serves, and when it is another than the page's own,
 * `updateAvailable` turns true (the site shows its reload banner). `watch()` checks on that
 * schedule and when the page gets focus again after the 30 minutes passed — a tab left in the
 * background all day asks once when its reader comes back, not every half hour meanwhile.
 *
 *   const release = createReleaseWatcher(client, { current: BUILD_ID });
 *   const stop = release.watch();        // timers and focus listeners; returns the stop
 *   release.updateAvailable.value        // show the banner
 *   release.check()                      // asks now if the 30 minutes passed (force: always)
 */
export function createReleaseWatcher(client: FanstageClient, options: ReleaseWatcherOptions) {
  const everyMs = options.everyMs ?? RELEASE_CHECK_MS;
  const now = options.now ?? Date.now;
  const updateAvailable = signal(false);
  const latest = signal<string | null>(null);
  // The page was built as the server served it: the first question is due after the interval.
  let lastAsked = now();
  let pending: Promise<boolean> | null = null;

  function check(force = false): Promise<boolean> {
    if (pending) return pending;
    if (!force && now() - lastAsked < everyMs) return Promise.resolve(updateAvailable.peek());
    if (options.current === null) return Promise.resolve(false);
    lastAsked = now();
    pending = client
      .get<Release>(`/release?${now()}`)
      .then(
        (answer) => {
          latest.value = answer.release;
          // A server without a built site knows no release: nothing to compare.
          if (answer.release !== null && answer.release !== options.current) updateAvailable.value = true;
          return updateAvailable.peek();
        },
        // Offline or a server in trouble: ask again at the next occasion.
        () => updateAvailable.peek(),
      )
      .finally(() => {
        pending = null;
      });
    return pending;
  }

  function watch(): () => void {
    if (typeof window === 'undefined') return () => undefined;
    const tick = () => {
      if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
      void check();
    };
    const timer = setInterval(tick, Math.max(1_000, Math.floor(everyMs / 6)));
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    const onFocus = () => void check();
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }

  return {
    updateAvailable: updateAvailable as ReadonlySignal<boolean>,
    /** The server's release as last answered. */
    latest: latest as ReadonlySignal<string | null>,
    check,
    watch,
  };
}

export type ReleaseWatcher = ReturnType<typeof createReleaseWatcher>;

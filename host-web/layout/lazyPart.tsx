import { lazy, useEffect, useState, type ComponentType } from 'react';
import { moreStrings } from '../strings';
import { storesReady } from '../stores';
import { whenIdle } from '../../lib/ui/idle';

function Nothing() {
  return null;
}

/**
 * True from the first render at which `now` is: a lazily fetched part mounts when first wanted
 * and stays (its dialog closes as it opened; a badge keeps clearing itself when its person logs
 * out).
 */
export function useWanted(now: boolean): boolean {
  const [wanted, setWanted] = useState(now);
  if (now && !wanted) setWanted(true);
  return wanted || now;
}


/** False until the browser was first idle after this component mounted, then true. */
export function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  return idle;
}

/**
 * A part of the shell in its own chunk, fetched when first shown. Unlike a screen, a part that
 * cannot be loaded (offline, a deploy removed the old file) simply stays away: the page it sits
 * on still works. A part `alone` shows only the first load's strings and uses none of the
 * stores fetched later: it waits for nothing but its own code.
 */
export function lazyPart<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, { alone = false }: { alone?: boolean } = {}) {
  return lazy(() =>
    // Its strings may be among those the first load leaves out (host-web/strings.ts), and the
    // stores it uses among those fetched later (host-web/stores.ts).
    Promise.all([load(), alone ? null : moreStrings(), alone ? null : storesReady()])
      .then(([part]) => part)
      .catch((error: unknown) => {
        console.error('A part of the page could not be loaded', error);
        return { default: Nothing as ComponentType<P> };
      }),
  );
}

import { useEffect, useState } from 'react';
import type { Settings } from '../../lib/contract';
import { useSite } from '../site';

/** The platform settings for the information pages: null while they load (or could not be had). */
export function useTourSettings(): { settings: Settings | null; failed: boolean } {
  const { fanstage } = useSite();
  const [settings, setSettings] = useState<Settings | null>(fanstage.settings.settings.peek());
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (settings !== null) return;
    let live = true;
    fanstage.settings.load().then(
      (loaded) => {
        if (live) setSettings(loaded);
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [fanstage, settings]);
  return { settings, failed };
}

/** Whole dollars without cents (`$20`), cents only when there are some. */
export function dollars(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;
}

/** Whether the model-program page is offered (SPEC §2: the menus list it only then). */
export function useModelProgram(): boolean {
  return useTourSettings().settings?.modelProgram === true;
}

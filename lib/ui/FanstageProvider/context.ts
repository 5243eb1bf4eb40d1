import { createContext, useContext } from 'react';
import type { Fanstage } from '../../sdk';

/**
 * What every component under a FanstageProvider reads: the headless Fanstage object (client,
 * api and stores). Translations travel separately, through react-i18next's own context.
 */
export const FanstageContext = createContext<Fanstage | null>(null);

/** The Fanstage object of the nearest FanstageProvider. */
export function useFanstage(): Fanstage {
  const fanstage = useContext(FanstageContext);
  if (!fanstage) {
    // A component outside a provider cannot reach the API at all; say so at once instead of
    // failing later with an unrelated `undefined` error.
    throw new Error('Fanstage components must be rendered inside <FanstageProvider>.');
  }
  return fanstage;
}

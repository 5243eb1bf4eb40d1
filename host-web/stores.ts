import type { Fanstage } from '../lib/sdk';
import type { HeavyStores } from '../lib/sdk/stores/heavy';

/**
 * The SDK's stores a visitor's home screen does not use (money, chat, calls, uploads, push: see
 * lib/sdk/stores/heavy.ts) are not in the site's first load. They are fetched when first
 * needed: at start for a browser that may hold a session, before the realtime connection, and
 * before any screen but the home screen or any lazily fetched part renders (lazyScreen.tsx,
 * layout/lazyPart.tsx), so no signed-in part ever touches a store whose code is not in.
 */
export const loadHeavyStores = (): Promise<HeavyStores> => import('../lib/sdk/stores/heavy').then((m) => m.heavyStores);

let site: Fanstage | null = null;

/** The site's one Fanstage object (main.tsx). */
export function setSiteFanstage(fanstage: Fanstage): void {
  site = fanstage;
}

/** Resolves once the stores' code is in (at once when there is no site object, as in tests). */
export function storesReady(): Promise<void> {
  return site ? site.loadStores() : Promise.resolve();
}

import type { Fanstage, FanstageOptions } from './fanstage';
import { createFanstageWith } from './fanstageCore';
import { heavyStores } from './stores/heavy';

/**
 * Every store of the SDK, each built the first time it is touched: a visitor's page that never
 * looks at the chat, calls or money sets none of them up. The chat and calls start with the
 * realtime connection (their messages must not be missed), whether touched or not.
 */
export function createFanstage(options: FanstageOptions): Fanstage {
  return createFanstageWith(options, heavyStores);
}

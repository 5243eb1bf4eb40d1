import { createClient, type ClientOptions, type FanstageClient } from './client';
import { publicApi, type PublicApi } from './api';
import { createSettingsStore, type SettingsStore } from './stores/settings';
import { createProfileStore, type ProfileStore } from './stores/profiles';

/**
 * Everything a screen or widget needs, built on one client. Components receive this object
 * rather than building their own, so two widgets on a page share one settings request and
 * one profile cache. Translations are not part of it: they belong to the UI.
 */
export interface Fanstage {
  readonly client: FanstageClient;
  readonly api: PublicApi;
  readonly settings: SettingsStore;
  readonly profiles: ProfileStore;
}

export function createFanstage(options: ClientOptions): Fanstage {
  const client = createClient(options);
  return {
    client,
    api: publicApi(client),
    settings: createSettingsStore(client),
    profiles: createProfileStore(client),
  };
}

import { createClient, type ClientOptions, type FanstageClient } from './client';
import { accountApi, publicApi, type AccountApi, type PublicApi } from './api';
import { createSettingsStore, type SettingsStore } from './stores/settings';
import { createProfileStore, type ProfileStore } from './stores/profiles';
import { createSessionStore, type SessionOptions, type SessionStore } from './stores/session';
import { createRelationsStore, type RelationsStore } from './stores/relations';

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
  /** The logged-in user and the tokens; authorizes every `/api` call of `client`. */
  readonly session: SessionStore;
  /** Follow, block, hide and relation lists, kept in step with `profiles`. */
  readonly relations: RelationsStore;
  /** Typed calls of accounts: password reset, mailed actions, verification, profile edits. */
  readonly account: AccountApi;
}

export interface FanstageOptions extends ClientOptions {
  /** How the session keeps its refresh token; the default suits the site (`'cookie'`). */
  session?: SessionOptions;
}

export function createFanstage(options: FanstageOptions): Fanstage {
  const { session: sessionOptions, ...clientOptions } = options;
  const client = createClient(clientOptions);
  const session = createSessionStore(client, sessionOptions);
  const profiles = createProfileStore(client, { isLoggedIn: () => session.isLoggedIn.peek() });
  return {
    client,
    api: publicApi(client),
    settings: createSettingsStore(client),
    profiles,
    session,
    relations: createRelationsStore(client, profiles, session),
    account: accountApi(client),
  };
}

import { batch, signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import type { PublicProfile } from '../../contract';
import type { FanstageClient } from '../client';
import { publicApi } from '../api';
import { SdkError } from '../errors';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface ProfileEntry {
  readonly status: ReadonlySignal<LoadStatus>;
  readonly profile: ReadonlySignal<PublicProfile | null>;
  readonly error: ReadonlySignal<SdkError | null>;
}

interface MutableEntry {
  status: Signal<LoadStatus>;
  profile: Signal<PublicProfile | null>;
  error: Signal<SdkError | null>;
  pending: Promise<void> | null;
}

/**
 * Profiles by username or id, shared by every component of one client: two cards of the
 * same creator make one request and show the same state.
 */
export function createProfileStore(client: FanstageClient) {
  const api = publicApi(client);
  const entries = new Map<string, MutableEntry>();

  function entryFor(key: string): MutableEntry {
    let entry = entries.get(key);
    if (!entry) {
      entry = { status: signal<LoadStatus>('idle'), profile: signal<PublicProfile | null>(null), error: signal<SdkError | null>(null), pending: null };
      entries.set(key, entry);
    }
    return entry;
  }

  function normalise(idOrUsername: string | number): string {
    return String(idOrUsername).trim().replace(/^@/, '').toLowerCase();
  }

  /** The entry for a profile; starts loading it unless it is loaded or loading already. */
  function get(idOrUsername: string | number): ProfileEntry {
    const key = normalise(idOrUsername);
    const entry = entryFor(key);
    if (entry.status.peek() === 'idle') void load(key);
    return entry;
  }

  /** Files a profile under both of its names: the same profile is reachable by id and by username. */
  function store(profile: PublicProfile): void {
    batch(() => {
      for (const alias of [String(profile.id), profile.username.toLowerCase()]) {
        const entry = entryFor(alias);
        entry.profile.value = profile;
        entry.error.value = null;
        entry.status.value = 'ready';
      }
    });
  }

  /**
   * Keeps profiles that arrived in a list (who-to-follow, search, ...), so the cards that show
   * them render at once instead of asking for each profile again.
   */
  function remember(profiles: readonly PublicProfile[]): void {
    for (const profile of profiles) store(profile);
  }

  /** (Re)loads a profile; concurrent calls share one request. */
  function load(idOrUsername: string | number): Promise<void> {
    const key = normalise(idOrUsername);
    const entry = entryFor(key);
    if (entry.pending) return entry.pending;
    entry.status.value = 'loading';
    entry.error.value = null;
    entry.pending = api
      .user(key)
      .then(
        (profile) => {
          store(profile);
          entry.profile.value = profile;
          entry.status.value = 'ready';
        },
        (error: unknown) => {
          entry.error.value = error instanceof SdkError ? error : new SdkError({ code: 'internal-error', statusCode: 0, cause: error });
          entry.status.value = 'error';
        },
      )
      .finally(() => {
        entry.pending = null;
      });
    return entry.pending;
  }

  return { get, load, remember };
}

export type ProfileStore = ReturnType<typeof createProfileStore>;

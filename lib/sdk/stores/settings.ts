import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { Settings } from '../../contract';
import type { FanstageClient } from '../client';
import { publicApi } from '../api';
import type { SdkError } from '../errors';
import { asSdkError } from './shared/errors';
import type { LoadStatus } from './profiles';

export interface SettingsStore {
  readonly settings: ReadonlySignal<Settings | null>;
  readonly status: ReadonlySignal<LoadStatus>;
  readonly error: ReadonlySignal<SdkError | null>;
  /**
   * The platform settings (SPEC §3: media CDN, salt, expressions). Fetched once: later calls
   * resolve with the loaded value, concurrent calls share the request in flight, and after a
   * failure (rejected with an SdkError) the next call tries again.
   */
  load(): Promise<Settings>;
}

/**
 * One store per client, however many times it is asked for: every widget built on the same
 * client needs the same salt and CDN, and the settings do not change while a page lives.
 */
const stores = new WeakMap<FanstageClient, SettingsStore>();

export function createSettingsStore(client: FanstageClient): SettingsStore {
  const existing = stores.get(client);
  if (existing) return existing;

  const api = publicApi(client);
  const settings = signal<Settings | null>(null);
  const status = signal<LoadStatus>('idle');
  const error = signal<SdkError | null>(null);
  let pending: Promise<Settings> | null = null;

  function load(): Promise<Settings> {
    const loaded = settings.peek();
    if (loaded) return Promise.resolve(loaded);
    if (pending) return pending;
    status.value = 'loading';
    error.value = null;
    pending = api.settings().then(
      (value) => {
        settings.value = value;
        status.value = 'ready';
        pending = null;
        return value;
      },
      (cause: unknown) => {
        const failure = asSdkError(cause);
        error.value = failure;
        status.value = 'error';
        pending = null;
        throw failure;
      },
    );
    return pending;
  }

  const store: SettingsStore = { settings, status, error, load };
  stores.set(client, store);
  return store;
}

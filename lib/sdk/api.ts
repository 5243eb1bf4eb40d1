import type { Gift, ProfileList, PublicProfile, Settings } from '../contract';
import type { FanstageClient } from './client';

/** Typed calls of the public API (SPEC §7), one function per endpoint. */
export function publicApi(client: FanstageClient) {
  return {
    settings: () => client.get<Settings>('/papi/settings'),
    gifts: () => client.get<Gift[]>('/papi/gifts'),
    user: (idOrUsername: string | number, signal?: AbortSignal) =>
      client.get<PublicProfile>(`/papi/users/${encodeURIComponent(String(idOrUsername))}`, undefined, { signal }),
    whoToFollow: (query: { limit?: number; offset?: number; seed?: number } = {}) =>
      client.get<ProfileList>('/papi/who-to-follow', query),
  };
}

export type PublicApi = ReturnType<typeof publicApi>;

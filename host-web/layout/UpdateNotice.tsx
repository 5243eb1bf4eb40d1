import { useEffect, useMemo } from 'react';
import { createReleaseWatcher, type FanstageClient, type ReleaseWatcher } from '../../lib/sdk';
import { UpdateBanner } from '../../lib/ui/UpdateBanner';
import { useSite } from '../site';

declare const __FANSTAGE_RELEASE__: string | undefined;

/** The release this page was built as (host-web/vite.config.ts); none in development and tests. */
export const siteRelease: string | null = typeof __FANSTAGE_RELEASE__ === 'string' ? __FANSTAGE_RELEASE__ : null;

/** SPEC §2: the update-available banner shows on these screens only. */
const bannerScreens = ['/timeline', '/discover', '/notifications', '/settings', '/settings/main'];

export function showsUpdateBanner(location: string): boolean {
  const path = (location.split('?')[0] ?? '').replace(/\/+$/, '') || '/';
  return bannerScreens.includes(path);
}

const watchers = new WeakMap<FanstageClient, ReleaseWatcher>();

/** One watcher per page (per API client): every screen reads the same answer. */
export function releaseWatcherFor(client: FanstageClient): ReleaseWatcher {
  let watcher = watchers.get(client);
  if (!watcher) {
    watcher = createReleaseWatcher(client, { current: siteRelease });
    watchers.set(client, watcher);
  }
  return watcher;
}

/**
 * Asks the server which release is live, at most every 30 minutes and when the page comes back
 * into view after that (SPEC §7, §9), on whatever screen; the banner with the reload shows on
 * Timeline, Discover, Notifications and Settings.
 */
export function UpdateNotice({ location }: { location: string }) {
  const { fanstage } = useSite();
  const watcher = useMemo(() => releaseWatcherFor(fanstage.client), [fanstage]);
  useEffect(() => watcher.watch(), [watcher]);
  if (!showsUpdateBanner(location)) return null;
  return <UpdateBanner watcher={watcher} />;
}

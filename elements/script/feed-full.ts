/** Everything behind the script tag's feed (./feed.ts): React, the SDK, the windowed feed, sharing. */
import { feedWidget } from '../feed';
import { takeOver as takeOverWith, type LiteProfile, type Takeover } from './takeover';

export function takeOver(host: HTMLElement, root: ShadowRoot, profile: LiteProfile | null, onReady: () => void): Takeover {
  // The first post drawn, or what the feed says instead (no posts, an error, no creator set).
  return takeOverWith(feedWidget, 'article[data-post-id]:not([aria-busy]), [role="alert"], section > [role="status"]:not(:has(span)), p.fs-root[role="status"]', host, root, profile, onReady);
}

/** Everything behind the script tag's profile card (./profile-card.ts): React, the SDK, the follow button. */
import { profileCardWidget } from '../profile-card';
import { takeOver as takeOverWith, type LiteProfile, type Takeover } from './takeover';

export function takeOver(host: HTMLElement, root: ShadowRoot, profile: LiteProfile | null, onReady: () => void): Takeover {
  // The loaded card, or what the card says instead (not found, an error, no user set).
  return takeOverWith(profileCardWidget, 'article, [role="status"]:not([aria-busy]), [role="alert"]', host, root, profile, onReady);
}

/** Everything behind the script tag's call button (./call.ts): React, the SDK, the call window. */
import { callWidget } from '../call';
import { takeOver as takeOverWith, type LiteProfile, type Takeover } from './takeover';

export function takeOver(host: HTMLElement, root: ShadowRoot, profile: LiteProfile | null, onReady: () => void): Takeover {
  return takeOverWith(
    callWidget,
    // The button says the price once the settings are in; a creator who takes no calls has none.
    (container, fanstage) => {
      if (container.querySelector('p[role="status"]')) return true;
      const settled = fanstage.settings.status.peek() === 'ready' || fanstage.settings.status.peek() === 'error';
      return settled && container.querySelector('button[data-testid="call-button"]') !== null;
    },
    host,
    root,
    profile,
    onReady,
  );
}

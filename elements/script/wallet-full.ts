/** Everything behind the script tag's wallet (./wallet.ts): React, the SDK, the balance and the top-up. */
import { walletWidget } from '../wallet';
import { takeOver as takeOverWith, type LiteProfile, type Takeover } from './takeover';

export function takeOver(host: HTMLElement, root: ShadowRoot, profile: LiteProfile | null, onReady: () => void): Takeover {
  return takeOverWith(walletWidget, 'button', host, root, profile, onReady);
}

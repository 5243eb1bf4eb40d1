/**
 * Everything behind the script tag's tip button (./tip-button.ts): React, the SDK, the gift
 * picker and the top-up, as the `<fanstage-tip-button>` of `fanstage/elements` renders them.
 */
import { tipButtonWidget } from '../tip-button';
import { takeOver as takeOverWith, type LiteProfile, type Takeover } from './takeover';

export function takeOver(host: HTMLElement, root: ShadowRoot, profile: LiteProfile | null, onReady: () => void): Takeover {
  return takeOverWith(tipButtonWidget, 'button[aria-haspopup="dialog"], p[role="status"]', host, root, profile, onReady);
}

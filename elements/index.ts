import { profileCardElement, profileCardTag } from './profile-card';
import { feedElement, feedTag } from './feed';
import { walletElement, walletTag } from './wallet';
import { tipButtonElement, tipButtonTag } from './tip-button';
import { chatElement, chatTag } from './chat';
import { callElement, callTag } from './call';
import { setDefaultApiBase } from './shared';

export { profileCardElement, profileCardTag } from './profile-card';
export type { ProfileCardElementProps } from './profile-card';
export { feedElement, feedTag } from './feed';
export type { FeedElementProps } from './feed';
export { walletElement, walletTag } from './wallet';
export type { WalletElementProps } from './wallet';
export { tipButtonElement, tipButtonTag } from './tip-button';
export type { TipButtonElementProps } from './tip-button';
export { chatElement, chatTag } from './chat';
export type { ChatElementProps, ChatRealtimeFailure } from './chat';
export { callElement, callTag } from './call';
export type { CallElementProps, CallEndedDetail } from './call';
export { version } from '../lib/sdk/version';
export type { FanstageGlobal, FanstageLoaded, FanstageStub, FanstageCommand } from './global';
export type {
  FanstageElement,
  FanstageElementEventMap,
  FanstageIntrinsicElements,
  FanstageProfileCardElement,
  FanstageFeedElement,
  FanstageWalletElement,
  FanstageTipButtonElement,
  FanstageChatElement,
  FanstageCallElement,
} from './types';
export type { FanstageEventType } from './activity';

/** Every element this package defines, by tag name. */
export const elements = {
  [profileCardTag]: profileCardElement,
  [feedTag]: feedElement,
  [walletTag]: walletElement,
  [tipButtonTag]: tipButtonElement,
  [chatTag]: chatElement,
  [callTag]: callElement,
} as const;

export type ElementTag = keyof typeof elements;
export const elementTags = Object.keys(elements) as ElementTag[];

export interface DefineElementsOptions {
  /**
   * The API for elements without an `api-base` attribute, e.g. `https://fanstage.example`.
   * Defaults to the page's origin.
   */
  apiBase?: string;
}

/**
 * Registers every `<fanstage-*>` element. Safe to call more than once, and next to another
 * copy of the package: names already defined are left as they are. Elements already in the
 * page are upgraded by the browser at once. Returns the class behind each tag.
 */
export function defineElements(options: DefineElementsOptions = {}): Record<ElementTag, CustomElementConstructor> {
  if (typeof customElements === 'undefined') {
    throw new Error('defineElements() needs a browser: customElements is not available here.');
  }
  if (options.apiBase !== undefined) setDefaultApiBase(options.apiBase);
  const defined = {} as Record<ElementTag, CustomElementConstructor>;
  for (const tag of elementTags) {
    const existing = customElements.get(tag);
    if (existing) {
      defined[tag] = existing;
    } else {
      const element = elements[tag]();
      customElements.define(tag, element);
      defined[tag] = element;
    }
  }
  return defined;
}

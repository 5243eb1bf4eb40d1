import { elements, elementTags, type DefineElementsOptions, type ElementTag } from './tags';
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

export { elements, elementTags } from './tags';
export type { ElementTag, DefineElementsOptions } from './tags';

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

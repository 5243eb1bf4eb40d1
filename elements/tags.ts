import { profileCardElement, profileCardTag } from './profile-card';
import { feedElement, feedTag } from './feed';
import { walletElement, walletTag } from './wallet';
import { tipButtonElement, tipButtonTag } from './tip-button';
import { chatElement, chatTag } from './chat';
import { callElement, callTag } from './call';

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

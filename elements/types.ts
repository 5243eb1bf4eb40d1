import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { ActivityDetails, ActivityType } from '../lib/sdk';
import type { CallEndedDetail } from './call';
import type { ChatRealtimeFailure } from './chat';

/**
 * Types for the `<fanstage-*>` tags in a host page's code: `document.querySelector('fanstage-feed')`
 * and `createElement` know them (`HTMLElementTagNameMap`), their listeners know each event's
 * `detail`, and React's JSX accepts them with their attributes. They come with `fanstage/elements`.
 */

/** Every event the elements dispatch, with its `detail`; all bubble out of the shadow root. */
export type FanstageElementEventMap = HTMLElementEventMap & { [T in ActivityType as `fanstage:${T}`]: CustomEvent<ActivityDetails[T]> } & {
  callended: CustomEvent<CallEndedDetail>;
  realtimefailed: CustomEvent<ChatRealtimeFailure>;
};

/** A `<fanstage-*>` element: its attributes are properties too (`apiBase` for `api-base`). */
export interface FanstageElement extends HTMLElement {
  apiBase?: string;
  language?: string;
  addEventListener<K extends keyof FanstageElementEventMap>(type: K, listener: (this: FanstageElement, event: FanstageElementEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof FanstageElementEventMap>(type: K, listener: (this: FanstageElement, event: FanstageElementEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

export interface FanstageProfileCardElement extends FanstageElement {
  user?: string;
  follow?: string;
}
export interface FanstageFeedElement extends FanstageElement {
  creator?: string;
}
export interface FanstageTipButtonElement extends FanstageElement {
  creator?: string;
}
export interface FanstageChatElement extends FanstageElement {
  with?: string;
}
export interface FanstageCallElement extends FanstageElement {
  with?: string;
}
export type FanstageWalletElement = FanstageElement;

/** The attributes JSX takes on every tag, besides the usual HTML ones. */
interface CommonAttributes extends DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> {
  'api-base'?: string;
  language?: string;
}

/** Each tag's own attributes, as JSX writes them. */
export interface FanstageIntrinsicElements {
  'fanstage-profile-card': CommonAttributes & { user: string; follow?: 'true' | 'false' };
  'fanstage-feed': CommonAttributes & { creator: string };
  'fanstage-wallet': CommonAttributes;
  'fanstage-tip-button': CommonAttributes & { creator: string };
  'fanstage-chat': CommonAttributes & { with: string };
  'fanstage-call': CommonAttributes & { with: string };
}

declare global {
  interface HTMLElementTagNameMap {
    'fanstage-profile-card': FanstageProfileCardElement;
    'fanstage-feed': FanstageFeedElement;
    'fanstage-wallet': FanstageWalletElement;
    'fanstage-tip-button': FanstageTipButtonElement;
    'fanstage-chat': FanstageChatElement;
    'fanstage-call': FanstageCallElement;
  }
  // The events bubble to the document: `document.addEventListener('fanstage:tip', …)` knows its detail.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DocumentEventMap extends Omit<FanstageElementEventMap, keyof HTMLElementEventMap> {}
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- the JSX namespace is React's own
  namespace JSX {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface IntrinsicElements extends FanstageIntrinsicElements {}
  }
}

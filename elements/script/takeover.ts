/**
 * The React side of the script tag's first views (./lite.ts): renders a widget into the shadow
 * root the first view drew in, out of sight, and says when it shows what the first view did,
 * so the first view can step aside without anything moving.
 */
import type { Fanstage, KnownProfile } from '../../lib/sdk';
import { fanstageFor, resolveApiBase, resolveLanguage } from '../shared';
import { signedInEvent } from '../base';
import { widgetRenderer, type CommonWidgetProps, type WidgetRenderer, type WidgetSpec } from '../widget';

/** What a first view read of the creator (`GET /papi/users/{name}`). */
export interface LiteProfile {
  id: number;
  username: string;
  displayName: string;
}

export interface Takeover extends WidgetRenderer {
  /** Where the React widget renders, in the shadow root. */
  readonly container: HTMLElement;
  /** Whether it is in sight. */
  readonly shown: boolean;
  /** Brings it into sight (the first view is gone by then). */
  show(): void;
  /** Calls back with the widget's control matching `selector` once it shows (at once when it does already). */
  whenControl(selector: string, callback: (control: HTMLElement) => void): void;
}

/** What each React widget's chunk behind a first view exports (./tip-button-full.ts, …). */
export interface TakeoverModule {
  takeOver(host: HTMLElement, root: ShadowRoot, profile: LiteProfile | null, onReady: () => void): Takeover;
}

/** The clients whose sign-ins the page's first views hear of. */
const announced = new WeakSet<Fanstage>();

/** Tells the first views still showing a visitor's look that a fan has signed in (./lite.ts). */
function announceSignIns(fanstage: Fanstage, base: string): void {
  if (announced.has(fanstage)) return;
  announced.add(fanstage);
  fanstage.session.isLoggedIn.subscribe((loggedIn) => {
    if (loggedIn) document.dispatchEvent(new CustomEvent(signedInEvent, { detail: base }));
  });
}

/**
 * Laid out at the element's width (so a windowed feed measures itself), but taking no height
 * and never seen or clicked until it shows.
 */
const outOfSight = 'display:block;height:0;overflow:hidden;visibility:hidden;pointer-events:none';

/** A widget that never reaches its first view's look (a failing API) shows anyway after this long. */
const readyTimeoutMs = 8000;

/** Calls back once `selector` matches in `root`; stops waiting after `timeout`. */
function whenMatches(root: ParentNode & Node, selector: string, callback: (found: HTMLElement) => void, timeout: number): void {
  const find = () => root.querySelector<HTMLElement>(selector);
  const shown = find();
  if (shown) {
    callback(shown);
    return;
  }
  const observer = new MutationObserver(() => {
    const found = find();
    if (!found) return;
    observer.disconnect();
    clearTimeout(timer);
    callback(found);
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true });
  const timer = setTimeout(() => observer.disconnect(), timeout);
}

/** Calls back once `test` holds of `root`, or after `timeout` whatever it says. */
function whenTrue(root: HTMLElement, test: (root: HTMLElement) => boolean, callback: () => void, timeout: number): void {
  if (test(root)) {
    callback();
    return;
  }
  const done = () => {
    observer.disconnect();
    clearTimeout(timer);
    callback();
  };
  const observer = new MutationObserver(() => {
    if (test(root)) done();
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true, characterData: true });
  const timer = setTimeout(done, timeout);
}

/**
 * `ready`: a selector that matches once the React widget shows what the first view shows (its
 * button, the loaded card, the first post) or an error state of its own; or a test of the
 * widget's container and client, for a widget whose look also waits for data (the call's price).
 */
export function takeOver<P extends CommonWidgetProps>(
  spec: WidgetSpec<P>,
  ready: string | ((container: HTMLElement, fanstage: Fanstage) => boolean),
  host: HTMLElement,
  root: ShadowRoot,
  profile: LiteProfile | null,
  onReady: () => void,
): Takeover {
  const base = resolveApiBase(host.getAttribute('api-base') ?? undefined);
  const fanstage = fanstageFor(base, resolveLanguage(host.getAttribute('language') ?? undefined));
  announceSignIns(fanstage, base);
  // The profile the first view fetched: the widget shows the creator at once, without asking again.
  if (profile && !fanstage.profiles.peek(profile.id)) fanstage.profiles.remember([profile as KnownProfile]);
  const container = document.createElement('div');
  container.style.cssText = outOfSight;
  root.append(container);
  const renderer = widgetRenderer(spec, host, container);
  let shown = false;
  let readied = false;
  const readyOnce = () => {
    if (readied) return;
    readied = true;
    onReady();
  };
  renderer.render();
  const test = typeof ready === 'string' ? (node: HTMLElement) => node.querySelector(ready) !== null : (node: HTMLElement) => ready(node, fanstage);
  whenTrue(container, test, readyOnce, readyTimeoutMs);
  return {
    ...renderer,
    container,
    get shown() {
      return shown;
    },
    show() {
      shown = true;
      container.style.cssText = 'display:contents';
    },
    whenControl(selector, callback) {
      // The control never showed (an unknown creator, a fan who is that creator): stop waiting.
      whenMatches(container, selector, callback, 15_000);
    },
  };
}

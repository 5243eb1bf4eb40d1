/**
 * The React side of the script tag's first screens (./lite.ts): renders a widget into the
 * shadow root the first screen drew in, replacing it in one task before the browser paints.
 */
import type { KnownProfile } from '../../lib/sdk';
import { fanstageFor, resolveApiBase, resolveLanguage } from '../shared';
import { widgetRenderer, type CommonWidgetProps, type WidgetRenderer, type WidgetSpec } from '../widget';

/** What a first screen read of the creator (`GET /papi/users/{name}`). */
export interface LiteProfile {
  id: number;
  username: string;
  displayName: string;
}

export interface Takeover extends WidgetRenderer {
  /** Calls back with the widget's button once it shows (at once when it does already). */
  whenButton(callback: (button: HTMLButtonElement) => void): void;
}

/** What each React widget's chunk for a first screen exports (./tip-button-full.ts, ./chat-full.ts). */
export interface TakeoverModule {
  takeOver(host: HTMLElement, root: ShadowRoot, profile: LiteProfile | null): Takeover;
}

/** `button`: the selector of the button a click on the first screen stands for. */
export function takeOver<P extends CommonWidgetProps>(spec: WidgetSpec<P>, button: string, host: HTMLElement, root: ShadowRoot, profile: LiteProfile | null): Takeover {
  if (profile) {
    // The profile the first screen fetched: the widget shows the creator at once, without asking again.
    const fanstage = fanstageFor(resolveApiBase(host.getAttribute('api-base') ?? undefined), resolveLanguage(host.getAttribute('language') ?? undefined));
    if (!fanstage.profiles.peek(profile.id)) fanstage.profiles.remember([profile as KnownProfile]);
  }
  const renderer = widgetRenderer(spec, host, root);
  root.replaceChildren();
  renderer.render({ sync: true });
  return {
    ...renderer,
    whenButton(callback) {
      const find = () => root.querySelector<HTMLButtonElement>(button);
      const shown = find();
      if (shown) {
        callback(shown);
        return;
      }
      const observer = new MutationObserver(() => {
        const found = find();
        if (!found) return;
        observer.disconnect();
        callback(found);
      });
      observer.observe(root, { childList: true, subtree: true });
      // The button never showed (an unknown creator, a fan who is that creator): stop waiting.
      setTimeout(() => observer.disconnect(), 15_000);
    },
  };
}

/**
 * The script tag's runtime (`window.Fanstage` once loaded), an ES module chunk of
 * `dist/embed/assets/`. The loader (`embed/fanstage.js`) imports it when the page talks to
 * `Fanstage(...)`, or when the browser is idle after the page's own elements were defined; it
 * never imports any element by itself. It replaces the loader's stub and replays its queue.
 */
import { createFanstage } from '../lib/sdk';
import { version } from '../lib/sdk/version';
import type { ElementTag } from './index';
import { originOf } from './base';
import { queuedCommands, type FanstageCommand, type FanstageLoaded } from './global';
import type { DefineElement } from './script/define';

/** Every element's chunk, imported only when asked for (`defineElements`, `Fanstage('load')`). */
const chunks: Record<ElementTag, () => Promise<{ define: DefineElement }>> = {
  'fanstage-profile-card': () => import('./script/profile-card'),
  'fanstage-feed': () => import('./script/feed'),
  'fanstage-wallet': () => import('./script/wallet'),
  'fanstage-tip-button': () => import('./script/tip-button'),
  'fanstage-chat': () => import('./script/chat'),
  'fanstage-call': () => import('./script/call'),
};

function start(): void {
  const previous = window.Fanstage;
  if (previous?.loaded) return;

  const scriptUrl = (previous?.loaded === false && previous.scriptUrl) || import.meta.url;
  // The widgets' API is the one the loader found (its tag's `data-api-base`), else where they
  // were loaded from: a partner page embeds the platform's script.
  const apiBase = (previous?.loaded === false && previous.apiBase) || originOf(scriptUrl);

  /** Loads and defines every element (names already defined stay as they are). */
  async function defineElements(options: { apiBase?: string } = {}): Promise<Record<ElementTag, CustomElementConstructor>> {
    const base = options.apiBase ?? apiBase;
    const entries = await Promise.all(
      (Object.keys(chunks) as ElementTag[]).map(async (tag) => [tag, (await chunks[tag]()).define(base)] as const),
    );
    return Object.fromEntries(entries) as Record<ElementTag, CustomElementConstructor>;
  }

  const fanstage = function Fanstage(...[command, ...args]: FanstageCommand) {
    run(command, args);
  } as FanstageLoaded;
  Object.assign(fanstage, {
    version,
    scriptUrl,
    apiBase,
    loaded: true,
    load: () => void defineElements().catch((error: unknown) => console.error(error)),
    defineElements,
    createFanstage,
  });

  function run(command: string, args: unknown[]): void {
    switch (command) {
      case 'ready': {
        const callback = args[0];
        if (typeof callback === 'function') callback(fanstage);
        return;
      }
      case 'load':
        // Elements the loader cannot see (inside another component's shadow root): define them all.
        fanstage.load();
        return;
      default:
        console.warn(`Fanstage: unknown command "${command}"`);
    }
  }

  window.Fanstage = fanstage;
  const queued = queuedCommands(previous);
  for (const [command, ...args] of queued) {
    try {
      run(command, args);
    } catch (error) {
      // One page script's failing callback must not keep the others from running.
      console.error(error);
    }
  }
}

start();

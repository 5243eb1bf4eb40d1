/**
 * The full script-tag bundle (`embed/fanstage-elements.js`), with React inside. Normally the
 * loader fetches it when a page first shows a `<fanstage-*>` element; it also works as the
 * only script on a page. It defines the elements (the browser upgrades tags already in the
 * page), then replaces the loader's stub on `window.Fanstage` and replays its queue.
 */
import { createFanstage } from '../lib/sdk';
import { version } from '../lib/sdk/version';
import { defineElements } from './index';
import { originOf } from './shared';
import { queuedCommands, type FanstageCommand, type FanstageLoaded } from './global';

function start(): void {
  const previous = window.Fanstage;
  if (previous?.loaded) return;

  const bundleUrl = document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : '';
  const scriptUrl = (previous?.loaded === false && previous.scriptUrl) || bundleUrl;
  // The widgets' API is where they were loaded from: a partner page embeds the platform's script.
  const apiBase = originOf(scriptUrl || bundleUrl);
  defineElements({ apiBase });

  const fanstage = function Fanstage(...[command, ...args]: FanstageCommand) {
    run(command, args);
  } as FanstageLoaded;
  Object.assign(fanstage, {
    version,
    scriptUrl,
    apiBase,
    loaded: true,
    load: () => undefined,
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

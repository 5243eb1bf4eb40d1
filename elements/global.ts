/**
 * `window.Fanstage`, the script tag's public face. The loader puts a queueing stub there at
 * once; the full bundle replaces it with the real object and replays the queue, so a page can
 * call `Fanstage('ready', cb)` before, during or after the bundle loads.
 */
import type { createFanstage } from '../lib/sdk';
import type { defineElements } from './index';

export type FanstageCommand = [command: string, ...args: unknown[]];

/** Common to the stub and the loaded object. */
interface FanstageGlobalBase {
  (command: 'ready', callback: (fanstage: FanstageLoaded) => void): void;
  (command: 'load'): void;
  (command: string, ...args: unknown[]): void;
  /** The package version this script was built from. */
  readonly version: string;
  /** Address of the script that created this object (the loader, or the bundle when used alone). */
  readonly scriptUrl: string;
}

/** What the loader exposes until the bundle has run. */
export interface FanstageStub extends FanstageGlobalBase {
  readonly loaded: false;
  /** Commands waiting for the bundle. */
  readonly q: FanstageCommand[];
  /** Fetches the bundle now instead of waiting for a `<fanstage-*>` element to appear. */
  load(): void;
}

/** What the full bundle exposes. */
export interface FanstageLoaded extends FanstageGlobalBase {
  readonly loaded: true;
  /** The API that elements without an `api-base` attribute talk to. */
  readonly apiBase: string;
  load(): void;
  defineElements: typeof defineElements;
  createFanstage: typeof createFanstage;
}

/**
 * The one-line snippet a page may run before any Fanstage script, to queue calls early:
 * `window.Fanstage = window.Fanstage || function () { (Fanstage.q = Fanstage.q || []).push(arguments) }`.
 * The loader and the bundle both take over its queue.
 */
export interface FanstageSnippet {
  (...args: unknown[]): void;
  q?: ArrayLike<unknown>[];
  loaded?: undefined;
}

export type FanstageGlobal = FanstageStub | FanstageLoaded | FanstageSnippet;

/** The calls queued on a stub or a snippet, as arrays. */
export function queuedCommands(global: FanstageGlobal | undefined): FanstageCommand[] {
  const queue = global && !global.loaded ? global.q : undefined;
  if (!Array.isArray(queue)) return [];
  return queue.splice(0).map((entry: ArrayLike<unknown>) => Array.from(entry) as FanstageCommand);
}

/** The full bundle's file, next to the loader. */
export const bundleFileName = 'fanstage-elements.js';

declare global {
  interface Window {
    Fanstage?: FanstageGlobal;
  }
}

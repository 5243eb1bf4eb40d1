/**
 * `window.Fanstage`, the script tag's public face. The loader puts a queueing stub there at
 * once; the runtime (elements/embed.ts) replaces it with the real object and replays the
 * queue, so a page can call `Fanstage('ready', cb)` before, during or after it loads.
 */
import type { createFanstage } from '../lib/sdk';
import type { DefineElementsOptions, ElementTag } from './tags';

export type FanstageCommand = [command: string, ...args: unknown[]];

/** Common to the stub and the loaded object. */
interface FanstageGlobalBase {
  (command: 'ready', callback: (fanstage: FanstageLoaded) => void): void;
  (command: 'load'): void;
  (command: string, ...args: unknown[]): void;
  /** The package version this script was built from. */
  readonly version: string;
  /** Address of the loader that created this object. */
  readonly scriptUrl: string;
  /** The API the widgets talk to: the tag's `data-api-base`, else the script's origin. */
  readonly apiBase: string;
}

/** What the loader exposes until the runtime has run. */
export interface FanstageStub extends FanstageGlobalBase {
  readonly loaded: false;
  /** Commands waiting for the runtime. */
  readonly q: FanstageCommand[];
  /** Loads the runtime now instead of waiting for the page's elements and an idle moment. */
  load(): void;
}

/** What the runtime exposes (elements/embed.ts). */
export interface FanstageLoaded extends FanstageGlobalBase {
  readonly loaded: true;
  /** The API that elements without an `api-base` attribute talk to. */
  readonly apiBase: string;
  /** Loads and defines every element, also those the loader cannot see (inside other shadow roots). */
  load(): void;
  /** Loads every element's chunk and defines them; resolves with the class behind each tag. */
  defineElements(options?: DefineElementsOptions): Promise<Record<ElementTag, CustomElementConstructor>>;
  createFanstage: typeof createFanstage;
}

/**
 * The one-line snippet a page may run before any Fanstage script, to queue calls early:
 * `window.Fanstage = window.Fanstage || function () { (Fanstage.q = Fanstage.q || []).push(arguments) }`.
 * The loader and the runtime both take over its queue.
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

declare global {
  interface Window {
    Fanstage?: FanstageGlobal;
  }
}

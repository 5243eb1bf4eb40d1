/**
 * The script-tag entry (`embed/fanstage.js`): a classic script of about a kilobyte gzipped,
 * so a partner page can load it on every view. It holds no React; it watches the page for
 * `<fanstage-*>` elements (already there or added later) and imports, from its own folder,
 * only the chunks of the elements it finds: a page with one tip button never downloads the
 * chat. Chunks are ES modules with content-hashed names (`assets/…-<hash>.js`), so the
 * platform serves them `immutable`, and a chunk two elements share is fetched once.
 */
import { queuedCommands, type FanstageCommand, type FanstageStub } from './global';
import { reservedCss } from './reserved';

const PREFIX = 'fanstage-';

/**
 * Set by the loader's build (vite.loader.config.ts) from the elements' build manifest: for
 * every tag, its chunk first, then the chunks it imports (preloaded alongside, rather than one
 * after the other); under `''` the runtime (elements/embed.ts).
 */
declare const __FANSTAGE_CHUNKS__: Record<string, string[]> | undefined;
const chunks: Record<string, string[]> = typeof __FANSTAGE_CHUNKS__ === 'object' ? __FANSTAGE_CHUNKS__ : {};

function install(): void {
  // A second copy of the tag (or a loaded runtime) must not replace the queue others wrote to;
  // a page's own snippet, though, is taken over with what it queued.
  const existing = window.Fanstage;
  if (existing && existing.loaded !== undefined) return;

  const script = ownScript();
  const base = script?.src || document.baseURI;
  // The widgets' API is where this script came from (a partner page embeds the platform's),
  // unless the tag names another (`data-api-base`: a platform whose API has an origin of its own).
  const apiBase = script?.getAttribute('data-api-base')?.replace(/\/+$/, '') || originOf(base);
  const queue: FanstageCommand[] = queuedCommands(existing);
  const requested: Record<string, true> = {};
  const pending: Promise<unknown>[] = [];
  let runtimeRequested = false;

  reserveSpace();

  const url = (file: string) => new URL(file, base).href;

  function preload(files: string[]): void {
    for (const file of files) {
      const href = url(file);
      // Once per page, whoever asked (the browser imports each address once anyway).
      if (requested[file] || document.querySelector(`link[rel="modulepreload"][href="${href}"]`)) continue;
      requested[file] = true;
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      // Module scripts of another origin are fetched with CORS; the preload must match to be used.
      link.crossOrigin = '';
      link.href = href;
      (document.head ?? document.documentElement).appendChild(link);
    }
  }

  /** Imports the chunk of one element (once) and defines it. */
  function loadTag(tag: string): void {
    const files = chunks[tag];
    if (!files || requested[tag]) return;
    requested[tag] = true;
    preload(files);
    const address = url(files[0] as string);
    pending.push(
      import(/* @vite-ignore */ address).then(
        (module: { define: (apiBase: string) => unknown }) => module.define(apiBase),
        (error: unknown) => {
          delete requested[tag];
          console.error(`Fanstage: could not load ${address}`, error);
        },
      ),
    );
  }

  /**
   * The runtime replaces this stub once the elements asked for so far are defined. It comes when
   * the page talks to Fanstage, or with the first widget a reader turns to (elements/script/lite.ts
   * calls `load`), never by itself: a reader who only reads fetches the widgets' first views alone.
   */
  function loadRuntime(): void {
    const files = chunks[''];
    if (runtimeRequested || !files) return;
    // The page loaded the runtime by itself (or another copy took over): nothing to fetch.
    if (window.Fanstage !== stub) return;
    runtimeRequested = true;
    preload(files);
    const address = url(files[0] as string);
    void Promise.all(pending).then(() =>
      import(/* @vite-ignore */ address).catch((error: unknown) => {
        runtimeRequested = false;
        console.error(`Fanstage: could not load ${address}`, error);
      }),
    );
  }

  function scan(root: Element | Document): void {
    if (root instanceof Element && isWidget(root)) loadTag(root.localName);
    // No selector matches a tag-name prefix, so walk the elements.
    const all = root.getElementsByTagName('*');
    for (let i = 0; i < all.length; i++) {
      const element = all[i] as Element;
      if (isWidget(element)) loadTag(element.localName);
    }
  }

  // Catches elements the parser has yet to reach and those a page adds later.
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof Element) scan(node);
    }
  });

  const stub = function Fanstage(...command: FanstageCommand) {
    // A page may have kept a reference to the stub; once the runtime has run, pass calls on.
    const current = window.Fanstage;
    if (current && current !== stub && current.loaded) {
      current(...command);
      return;
    }
    queue.push(command);
    // Whoever talks to Fanstage is about to use it.
    loadRuntime();
  } as FanstageStub;
  Object.assign(stub, { version: __FANSTAGE_VERSION__, scriptUrl: script?.src ?? '', apiBase: script?.getAttribute('data-api-base') ? apiBase : '', loaded: false, q: queue, load: loadRuntime });
  window.Fanstage = stub;

  scan(document);
  observer.observe(document, { childList: true, subtree: true });
  if (queue.length > 0) loadRuntime();
}

/** Puts the reserved boxes first in `<head>`, once per page. */
function reserveSpace(): void {
  if (document.getElementById('fanstage-reserved')) return;
  const style = document.createElement('style');
  style.id = 'fanstage-reserved';
  style.textContent = reservedCss;
  const head = document.head ?? document.documentElement;
  head.insertBefore(style, head.firstChild);
}

function isWidget(element: Element): boolean {
  return element.localName.startsWith(PREFIX);
}

function originOf(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return '';
  }
}

/** The loader's own tag: `currentScript` while it runs, else the last matching `<script>`. */
function ownScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.src) return current;
  const scripts = document.querySelectorAll<HTMLScriptElement>('script[src]');
  for (let i = scripts.length - 1; i >= 0; i--) {
    const script = scripts[i];
    if (script && /\/fanstage(\.min)?\.js(\?|#|$)/.test(script.src)) return script;
  }
  return null;
}

install();

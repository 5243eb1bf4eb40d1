/**
 * The script-tag entry (`embed/fanstage.js`): well under a kilobyte gzipped, so a partner
 * page can load it on every view. It holds no React; it only waits for the first `<fanstage-*>` element
 * (already in the page or added later) and then loads the full bundle, once, from its own
 * folder. A page with no widget on it never pays for React.
 */
import { bundleFileName, queuedCommands, type FanstageCommand, type FanstageStub } from './global';

const PREFIX = 'fanstage-';

/** Set by the loader's build (vite.loader.config.ts): the release and the bundle's content hash. */
declare const __FANSTAGE_BUNDLE_VERSION__: string | undefined;
/** The bundle's address changes with its content, so servers may cache each one for good. */
const bundleVersion = typeof __FANSTAGE_BUNDLE_VERSION__ === 'string' ? __FANSTAGE_BUNDLE_VERSION__ : __FANSTAGE_VERSION__;

function install(): void {
  // A second copy of the tag (or a loaded bundle) must not replace the queue others wrote to;
  // a page's own snippet, though, is taken over with what it queued.
  const existing = window.Fanstage;
  if (existing && existing.loaded !== undefined) return;

  const scriptUrl = ownUrl();
  const queue: FanstageCommand[] = queuedCommands(existing);
  let requested = false;
  // Catches elements the parser has yet to reach and those a page adds later.
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof Element && (isWidget(node) || containsWidget(node))) {
          load();
          return;
        }
      }
    }
  });

  function load(): void {
    if (requested) return;
    observer.disconnect();
    // The page loaded the full bundle by itself (or another copy took over): nothing to fetch.
    if (window.Fanstage !== stub) return;
    requested = true;
    const script = document.createElement('script');
    const url = new URL(bundleFileName, scriptUrl || document.baseURI);
    // The version in the address lets servers cache the bundle for good.
    url.searchParams.set('v', bundleVersion);
    script.src = url.href;
    script.async = true;
    script.onerror = () => {
      requested = false;
      console.error(`Fanstage: could not load ${url.href}`);
    };
    (document.head ?? document.documentElement).appendChild(script);
  }

  const stub = function Fanstage(...command: FanstageCommand) {
    // A page may have kept a reference to the stub; once the bundle has run, pass calls on.
    const current = window.Fanstage;
    if (current && current !== stub && current.loaded) {
      current(...command);
      return;
    }
    queue.push(command);
    // Whoever talks to Fanstage is about to use it.
    load();
  } as FanstageStub;
  Object.assign(stub, { version: __FANSTAGE_VERSION__, scriptUrl, loaded: false, q: queue, load });
  window.Fanstage = stub;

  if (queue.length > 0 || containsWidget(document)) load();
  else observer.observe(document, { childList: true, subtree: true });
}

function isWidget(element: Element): boolean {
  return element.localName.startsWith(PREFIX);
}

function containsWidget(root: Document | Element): boolean {
  // No selector matches a tag-name prefix, so walk the elements; this runs only until the first hit.
  const all = root.getElementsByTagName('*');
  for (let i = 0; i < all.length; i++) {
    if (isWidget(all[i] as Element)) return true;
  }
  return false;
}

/** The loader's own address: `currentScript` while it runs, else the last matching `<script>`. */
function ownUrl(): string {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.src) return current.src;
  const scripts = document.querySelectorAll<HTMLScriptElement>('script[src]');
  for (let i = scripts.length - 1; i >= 0; i--) {
    const src = scripts[i]?.src ?? '';
    if (/\/fanstage(\.min)?\.js(\?|#|$)/.test(src)) return src;
  }
  return '';
}

install();

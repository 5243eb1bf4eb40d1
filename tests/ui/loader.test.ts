import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FanstageLoaded, FanstageStub } from '../../elements';
import { reservedCss } from '../../elements/reserved';

const loaderUrl = 'https://platform.example/embed/fanstage.js';

/** What the loader's build writes from the elements' manifest (vite.loader.config.ts). */
const chunks = {
  '': ['assets/runtime-1.js', 'assets/sdk-1.js'],
  'fanstage-profile-card': ['assets/profile-card-1.js', 'assets/react-1.js', 'assets/sdk-1.js'],
  'fanstage-chat': ['assets/chat-1.js', 'assets/base-1.js'],
  'fanstage-tip-button': ['assets/tip-button-1.js', 'assets/base-1.js'],
};

/** The chunks the loader asked the browser for (it preloads every file it imports, once). */
function requested(): string[] {
  return [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => link.href.replace('https://platform.example/embed/', ''));
}

/** Runs the loader the way a page does: its own `<script>` tag is already in the document. */
async function runLoader(): Promise<void> {
  const tag = document.createElement('script');
  tag.src = loaderUrl;
  document.head.append(tag);
  await import('../../elements/loader');
}

beforeEach(() => {
  vi.resetModules();
  delete window.Fanstage;
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  (globalThis as { __FANSTAGE_CHUNKS__?: unknown }).__FANSTAGE_CHUNKS__ = chunks;
  // The chunks' addresses do not exist here: the loader reports each import it could not make.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  delete window.Fanstage;
  vi.restoreAllMocks();
});

describe('the script-tag loader', () => {
  it('exposes a queueing stub with the version, reserves the widgets’ boxes, and loads nothing on a page without widgets', async () => {
    await runLoader();
    const stub = window.Fanstage as FanstageStub | undefined;
    expect(stub?.loaded).toBe(false);
    expect(stub?.version).toBe(pkg.version);
    expect(stub?.scriptUrl).toBe(loaderUrl);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requested()).toEqual([]);
    // The reserved boxes come first in <head>, at no weight, so the page's own rules win.
    const sheet = document.head.firstElementChild;
    expect(sheet?.id).toBe('fanstage-reserved');
    expect(sheet?.textContent).toContain(':where(fanstage-chat){height:512px}');
  });

  it('leaves a page’s own reserved boxes, under the loader’s id, as they are; the embedding guide gives partners the loader’s exact rules', async () => {
    const own = document.createElement('style');
    own.id = 'fanstage-reserved';
    own.textContent = reservedCss;
    document.head.append(document.createElement('title'), own);
    await runLoader();
    expect(document.querySelectorAll('style')).toHaveLength(1);
    expect(document.head.firstElementChild?.tagName).toBe('TITLE');
    const guide = readFileSync(join(fileURLToPath(import.meta.url), '../../../docs/embedding.md'), 'utf8');
    expect(guide).toContain(`<style id="fanstage-reserved">${reservedCss}</style>`);
  });

  it('imports only the chunks of the elements in the page, each file once, from its own folder', async () => {
    document.body.innerHTML = '<fanstage-profile-card user="lucy.rivers"></fanstage-profile-card><fanstage-profile-card user="marek.novak"></fanstage-profile-card>';
    await runLoader();
    expect(requested()).toEqual(['assets/profile-card-1.js', 'assets/react-1.js', 'assets/sdk-1.js']);
    expect(document.querySelector('link[rel="modulepreload"]')?.getAttribute('crossorigin')).toBe('');
  });

  it('imports an element added later, even deep inside other markup, and shares what it shares with the others', async () => {
    document.body.innerHTML = '<fanstage-tip-button creator="lucy.rivers"></fanstage-tip-button>';
    await runLoader();
    expect(requested()).toEqual(['assets/tip-button-1.js', 'assets/base-1.js']);
    const wrapper = document.createElement('section');
    wrapper.innerHTML = '<div><p><fanstage-chat with="lucy.rivers"></fanstage-chat></p></div>';
    document.body.append(wrapper);
    await vi.waitFor(() => expect(requested()).toContain('assets/chat-1.js'));
    document.body.append(document.createElement('fanstage-chat'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requested()).toEqual(['assets/tip-button-1.js', 'assets/base-1.js', 'assets/chat-1.js']);
  });

  it('ignores ordinary elements and tags it has no chunk for', async () => {
    await runLoader();
    document.body.innerHTML = '<div class="fanstage-profile-card"><span>fanstage</span></div><fanstage-unknown></fanstage-unknown>';
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requested()).toEqual([]);
  });

  it('queues commands until the runtime runs, which then replays them and defines the elements asked for', async () => {
    await runLoader();
    const stub = window.Fanstage;
    const ready = vi.fn<(fanstage: FanstageLoaded) => void>();
    stub?.('ready', ready);
    // Talking to Fanstage is reason enough to fetch the runtime, and nothing else.
    expect(requested()).toEqual(['assets/runtime-1.js', 'assets/sdk-1.js']);
    expect(ready).not.toHaveBeenCalled();

    // What the fetched runtime does when it runs.
    await import('../../elements/embed');
    expect(ready).toHaveBeenCalledOnce();
    const loaded = ready.mock.calls[0]?.[0];
    expect(loaded).toBe(window.Fanstage);
    expect(loaded?.loaded).toBe(true);
    expect(loaded?.version).toBe(pkg.version);
    // Elements without an api-base talk to the platform the script came from.
    expect(loaded?.apiBase).toBe('https://platform.example');
    // The runtime defines no element by itself; defineElements loads and defines them all.
    expect(customElements.get('fanstage-feed')).toBeUndefined();
    const defined = await loaded!.defineElements();
    expect(customElements.get('fanstage-feed')).toBe(defined['fanstage-feed']);
    expect(Object.keys(defined).sort()).toEqual(['fanstage-call', 'fanstage-chat', 'fanstage-feed', 'fanstage-profile-card', 'fanstage-tip-button', 'fanstage-wallet']);

    // Later calls, even through a kept reference to the stub, run at once.
    const later = vi.fn();
    stub?.('ready', later);
    expect(later).toHaveBeenCalledWith(loaded);
  });

  it('takes over the calls a page queued with the snippet before the loader ran', async () => {
    // The documented one-liner, as a page would inline it in its <head>.
    const snippet = new Function(
      'window',
      'window.Fanstage = window.Fanstage || function () { (window.Fanstage.q = window.Fanstage.q || []).push(arguments) };',
    ) as (w: Window) => void;
    snippet(window);
    const ready = vi.fn();
    window.Fanstage?.('ready', ready);
    await runLoader();
    // The queued call is a reason to fetch the runtime, even with no widget in the page.
    expect(requested()).toEqual(['assets/runtime-1.js', 'assets/sdk-1.js']);
    await import('../../elements/embed');
    expect(ready).toHaveBeenCalledWith(window.Fanstage);
  });

  it('keeps the first stub when the tag is on the page twice', async () => {
    await runLoader();
    const first = window.Fanstage;
    vi.resetModules();
    await import('../../elements/loader');
    expect(window.Fanstage).toBe(first);
  });
});

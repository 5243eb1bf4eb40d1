import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import type { FanstageLoaded, FanstageStub } from '../../elements';

const loaderUrl = 'https://platform.example/embed/fanstage.js';

/** The `<script>` tags the loader added for the full bundle. */
function bundleScripts(): HTMLScriptElement[] {
  return [...document.querySelectorAll<HTMLScriptElement>('script[src*="fanstage-elements.js"]')];
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
});

afterEach(() => {
  delete window.Fanstage;
});

describe('the script-tag loader', () => {
  it('exposes a queueing stub with the version, and loads nothing on a page without widgets', async () => {
    await runLoader();
    const stub = window.Fanstage as FanstageStub | undefined;
    expect(stub?.loaded).toBe(false);
    expect(stub?.version).toBe(pkg.version);
    expect(stub?.scriptUrl).toBe(loaderUrl);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bundleScripts()).toHaveLength(0);
  });

  it('loads the full bundle once, from its own folder, when a widget is already in the page', async () => {
    document.body.innerHTML = '<fanstage-profile-card user="lucy.rivers"></fanstage-profile-card><fanstage-profile-card user="marek.novak"></fanstage-profile-card>';
    await runLoader();
    const scripts = bundleScripts();
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.src).toBe(`https://platform.example/embed/fanstage-elements.js?v=${pkg.version}`);
  });

  it('loads the full bundle when a widget is added later, even deep inside other markup', async () => {
    await runLoader();
    const wrapper = document.createElement('section');
    wrapper.innerHTML = '<div><p><fanstage-profile-card user="lucy.rivers"></fanstage-profile-card></p></div>';
    document.body.append(wrapper);
    await vi.waitFor(() => expect(bundleScripts()).toHaveLength(1));
    document.body.append(document.createElement('fanstage-profile-card'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bundleScripts()).toHaveLength(1);
  });

  it('ignores ordinary elements', async () => {
    await runLoader();
    document.body.innerHTML = '<div class="fanstage-profile-card"><span>fanstage</span></div>';
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bundleScripts()).toHaveLength(0);
  });

  it('queues commands until the bundle runs, which then defines the elements and replays them', async () => {
    await runLoader();
    const stub = window.Fanstage;
    const ready = vi.fn<(fanstage: FanstageLoaded) => void>();
    stub?.('ready', ready);
    // Talking to Fanstage is reason enough to fetch it.
    expect(bundleScripts()).toHaveLength(1);
    expect(ready).not.toHaveBeenCalled();

    // What the fetched bundle does when it runs.
    await import('../../elements/embed');
    expect(ready).toHaveBeenCalledOnce();
    const loaded = ready.mock.calls[0]?.[0];
    expect(loaded).toBe(window.Fanstage);
    expect(loaded?.loaded).toBe(true);
    expect(loaded?.version).toBe(pkg.version);
    // Elements without an api-base talk to the platform the script came from.
    expect(loaded?.apiBase).toBe('https://platform.example');
    expect(customElements.get('fanstage-profile-card')).toBeDefined();

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
    // The queued call is a reason to fetch the bundle, even with no widget in the page.
    expect(bundleScripts()).toHaveLength(1);
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

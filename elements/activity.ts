import type { ActivityDetails, ActivityType, Fanstage } from '../lib/sdk';

/**
 * What a widget did for the fan reaches the host page as a DOM event, `fanstage:<type>` with the
 * SDK's `detail` (docs/embedding.md, "Events"). The widgets of one API share one `Fanstage`, so
 * an event is dispatched on the widget the fan last used (pointer, keys, focus), else the first
 * one on the page, and bubbles out of it to the document.
 */
const hosts = new Map<string, Set<HTMLElement>>();
const lastUsed = new Map<string, HTMLElement>();

export type FanstageEventType = `fanstage:${ActivityType}`;

export function relayActivity(apiBase: string, fanstage: Fanstage): void {
  fanstage.activity.onAny((type, detail) => {
    const target = targetOf(apiBase);
    target.dispatchEvent(new CustomEvent<ActivityDetails[typeof type]>(`fanstage:${type}`, { detail, bubbles: true, composed: true }));
  });
}

function targetOf(apiBase: string): EventTarget {
  const last = lastUsed.get(apiBase);
  if (last?.isConnected) return last;
  for (const host of hosts.get(apiBase) ?? []) if (host.isConnected) return host;
  return document;
}

const noted = new WeakMap<HTMLElement, { base: string; use: () => void }>();

/** The widget `host` talks to `apiBase`; called on each render, so a changed `api-base` moves it. */
export function attachWidget(host: HTMLElement, apiBase: string): void {
  const known = noted.get(host);
  if (known?.base === apiBase) return;
  if (known) detachWidget(host);
  const use = () => void lastUsed.set(apiBase, host);
  for (const type of ['pointerdown', 'keydown', 'focusin']) host.addEventListener(type, use, { capture: true });
  noted.set(host, { base: apiBase, use });
  let set = hosts.get(apiBase);
  if (!set) hosts.set(apiBase, (set = new Set()));
  set.add(host);
}

export function detachWidget(host: HTMLElement): void {
  const known = noted.get(host);
  if (!known) return;
  for (const type of ['pointerdown', 'keydown', 'focusin']) host.removeEventListener(type, known.use, { capture: true });
  noted.delete(host);
  hosts.get(known.base)?.delete(host);
  if (lastUsed.get(known.base) === host) lastUsed.delete(known.base);
}

/**
 * The script tag's React-free first views (./tip-button.ts, ./chat.ts, ./profile-card.ts,
 * ./feed.ts, ./wallet.ts, ./call.ts): a custom element that draws a widget's first look without
 * React, a few kilobytes, from the public API, and hands its shadow root over to the React widget
 * (./takeover.ts) on a sign of intent only — the pointer over it, focus, a touch, a click, or,
 * for an element with the `eager` attribute, the element scrolled near the viewport. Never on
 * idle: a reader who only reads downloads the first views and nothing else. The React widget
 * renders out of sight and replaces the first view once it shows the same thing, so nothing
 * jumps; a click that came first is passed on to the same control (nobody clicks twice), and
 * focus stays where it was.
 */
import { refreshTokenKey, resolveApiBase, setDefaultApiBase, signedInEvent, usernameOf, widgetLanguage } from '../base';
import type { DefineElement } from './define';
import type { LiteProfile, Takeover, TakeoverModule } from './takeover';

export type { LiteProfile } from './takeover';

/**
 * The strings a first view shows, by language, picked from lib/i18n/locales at build time
 * (vite.embed.config.ts `liteWordKeys`: one set per view), plural forms under i18next's
 * suffixes (`_one`, `_few`…).
 */
export type LiteWords = Record<Language, Record<string, string>>;

type Language = 'en' | 'cs';
const plurals: Partial<Record<Language, Intl.PluralRules>> = {};

/**
 * The lookup of a view's strings: `key` in `language`, `{{…}}` filled in from `values`; with a
 * `count`, the plural form it needs, as i18next picks it.
 */
export function wordsOf(all: () => LiteWords) {
  // Read on first use: a module that merely defines an element must load where the build's
  // constants are not set (the component tests).
  return (language: Language, key: string, values: Record<string, string | number> = {}): string => {
    const words = all()[language];
    let text = words[key];
    if (typeof values.count === 'number') {
      const rules = (plurals[language] ??= new Intl.PluralRules(language));
      text = words[`${key}_${rules.select(values.count)}`] ?? words[`${key}_other`] ?? text;
    }
    return (text ?? key).replace(/\{\{(\w+)\}\}/g, (_match, name: string) => String(values[name] ?? ''));
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A GET of the public API in the SDK's envelope; null for anything but a success. */
function getBody<T>(base: string, path: string, language: string): Promise<T | null> {
  return fetch(`${base}${path}`, { headers: { Apiversion: '1.0', Language: language } })
    .then((response) => response.json() as Promise<{ statusCode?: number; body?: T }>)
    .then((envelope) => ((envelope.statusCode ?? 0) > 0 && envelope.body !== undefined ? envelope.body : null))
    // The React widget asks again through the SDK, and shows its own error states.
    .catch(() => null);
}

/** One request per address on a page: elements of one creator share it. */
const answers = new Map<string, Promise<unknown>>();

export function cachedBody<T>(base: string, path: string, language: string): Promise<T | null> {
  const key = `${base} ${path.toLowerCase()}`;
  let pending = answers.get(key) as Promise<T | null> | undefined;
  if (!pending) {
    pending = getBody<T>(base, path, language);
    answers.set(key, pending);
  }
  return pending;
}

/**
 * A creator's public profile, as the SDK's profile store asks for it (`GET /papi/users/{name}`);
 * the React widget starts from the answer instead of asking again.
 */
export function profileOf(base: string, username: string, language: string): Promise<LiteProfile | null> {
  return cachedBody<LiteProfile>(base, `/papi/users/${encodeURIComponent(username)}`, language).then((profile) => (profile && typeof profile.id === 'number' ? profile : null));
}

/** What the first views need of the platform's settings: where media live, and the price multiplier. */
export interface LiteSettings {
  mediaCDN: string;
  salt: number;
  /** The platform's mention expression (SPEC §3). */
  regExpMentions?: string;
}

export function settingsOf(base: string, language: string): Promise<LiteSettings | null> {
  return cachedBody<LiteSettings>(base, '/papi/settings', language);
}

/** Whether this tab holds a widget session for `base`: a signed-in fan gets the React widget at once. */
function hasStoredSession(base: string): boolean {
  try {
    return typeof sessionStorage !== 'undefined' && sessionStorage.getItem(refreshTokenKey(base)) !== null;
  } catch {
    return false;
  }
}

/** How near the viewport an `eager` element starts loading its React widget. */
const eagerMargin = '400px';

export abstract class LiteElement extends HTMLElement {
  static get observedAttributes(): string[] {
    return ['creator', 'with', 'user', 'follow', 'api-base', 'language', 'link'];
  }

  protected readonly shadow: ShadowRoot;
  /** What the first view learnt of the creator, handed to the React widget. */
  protected profile: LiteProfile | null = null;
  private takeover: Takeover | null = null;
  private loading = false;
  /** The selector, in the React widget, of the control a click on the first view stands for. */
  private pendingClick: string | null = null;
  private nearby: IntersectionObserver | null = null;
  /** Which drawing an answer belongs to: an attribute changed meanwhile draws again. */
  protected serial = 0;

  /** The attribute naming the creator (`creator`, `with`, `user`); null for a widget of no creator. */
  protected abstract readonly creatorAttribute: string | null;
  /** The first view's styles. */
  protected abstract readonly css: string;
  /** The React widget's module (a dynamic import, its own chunk). */
  protected abstract full(): Promise<TakeoverModule>;
  /** The first view's markup, drawn at once so the element has its final box where it can. */
  protected abstract markup(language: Language): string;
  /**
   * Fills in what the API tells (the creator's profile, her posts), once it arrives. `serial`
   * tells whether the view is still the one it was drawn for (`this.serial`).
   */
  protected abstract fill(context: LiteContext): void | Promise<void>;

  /**
   * Whether a fan's sign-in through another widget of the page brings this one's React widget
   * at once (the wallet's balance, the chat's conversation, the call button's state). The card
   * and the feed wait for intent: loading a feed while the widget she signed in from follows or
   * likes would race that change with an older answer.
   */
  protected readonly upgradesOnSignIn: boolean = false;

  /** A fan signed in through another widget of this element's API: the React widget shows what is hers. */
  private readonly signedIn = (event: Event) => {
    if (this.upgradesOnSignIn && (event as CustomEvent<string>).detail === resolveApiBase(this.getAttribute('api-base'))) this.upgrade();
  };

  constructor() {
    super();
    this.shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    const intent = () => this.upgrade();
    this.addEventListener('pointerenter', intent);
    this.addEventListener('focusin', intent);
    this.addEventListener('touchstart', intent, { passive: true });
    this.addEventListener('click', (event) => {
      if (this.takeover?.shown) return;
      // A click on one of the first view's controls: its twin in the React widget gets it once that shows.
      const control = event.composedPath().find((target): target is HTMLElement => target instanceof HTMLElement && target.hasAttribute('data-fs-click'));
      if (control) {
        event.preventDefault();
        this.pendingClick = control.getAttribute('data-fs-click');
      }
      this.upgrade();
    });
  }

  connectedCallback(): void {
    if (this.takeover) {
      this.takeover.render();
      return;
    }
    this.draw();
    document.addEventListener(signedInEvent, this.signedIn);
    const base = resolveApiBase(this.getAttribute('api-base'));
    if (hasStoredSession(base)) {
      // The React widget records the `link` visit as the signed-in fan's.
      this.upgrade();
      return;
    }
    // A visit through the page's tracking link, before anyone touches a widget (a chunk of its own, only where a widget carries one).
    const link = this.getAttribute('link');
    if (link) {
      const username = this.creatorAttribute === null ? '' : usernameOf(this.getAttribute(this.creatorAttribute));
      void import('../linkVisit').then((module) => module.visitThroughLink(base, link, username)).catch(() => undefined);
    }
    if (this.hasAttribute('eager')) this.watchNearby();
  }

  disconnectedCallback(): void {
    document.removeEventListener(signedInEvent, this.signedIn);
    this.nearby?.disconnect();
    this.nearby = null;
    this.takeover?.unmount();
  }

  attributeChangedCallback(): void {
    if (!this.isConnected) return;
    if (this.takeover) this.takeover.render();
    else this.draw();
  }

  /** `eager`: the partner wants the widget ready by the time the reader reaches it. */
  private watchNearby(): void {
    if (typeof IntersectionObserver === 'undefined' || this.nearby) return;
    this.nearby = new IntersectionObserver(
      (records) => {
        if (!records.some((record) => record.isIntersecting)) return;
        this.nearby?.disconnect();
        this.nearby = null;
        this.upgrade();
      },
      { rootMargin: eagerMargin },
    );
    this.nearby.observe(this);
  }

  /**
   * The first view at once, what the API tells once it arrives. Without a creator there is
   * nothing to draw: the React widget says what is missing.
   */
  private draw(): void {
    const serial = ++this.serial;
    const username = this.creatorAttribute === null ? '' : usernameOf(this.getAttribute(this.creatorAttribute));
    const base = resolveApiBase(this.getAttribute('api-base'));
    const language = widgetLanguage(this.getAttribute('language'));
    this.profile = null;
    if (this.creatorAttribute !== null && !username) {
      this.shadow.innerHTML = `<style>${this.css}</style>`;
      this.upgrade();
      return;
    }
    this.shadow.innerHTML = `<style>${this.css}\n.fs-lite{display:contents}</style><div class="fs-lite" data-fs-lite="">${this.markup(language)}</div>`;
    void Promise.resolve(this.fill({ serial, username, base, language })).catch((error: unknown) => console.error(error));
  }

  /** The first view's part of the shadow root. */
  protected get view(): HTMLElement | null {
    return this.shadow.querySelector<HTMLElement>('[data-fs-lite]');
  }

  /** Whether the first view drawn for `serial` is still there to fill in. */
  protected current(serial: number): boolean {
    return serial === this.serial && !this.takeover;
  }

  /** Loads the React widget (one chunk for every element of its kind) and lets it take over this shadow root. */
  protected upgrade(): void {
    if (this.loading || this.takeover) return;
    this.loading = true;
    document.removeEventListener(signedInEvent, this.signedIn);
    this.nearby?.disconnect();
    this.nearby = null;
    // The page's `window.Fanstage` comes along with the first widget the reader turns to.
    const global = window.Fanstage;
    if (global && global.loaded === false) global.load();
    this.full().then(
      (module) => {
        this.loading = false;
        if (this.takeover) return;
        this.takeover = module.takeOver(this, this.shadow, this.profile, () => this.handOver());
        if (!this.isConnected) this.takeover.unmount();
      },
      (error: unknown) => {
        this.loading = false;
        console.error(`Fanstage: could not load <${this.localName}>`, error);
      },
    );
  }

  /** The React widget shows: the first view goes, and what the reader did on it carries over. */
  private handOver(): void {
    const takeover = this.takeover;
    if (!takeover) return;
    const focused = this.shadow.activeElement instanceof HTMLElement ? this.shadow.activeElement : null;
    const focusTarget = focused ? (focused.closest('[data-fs-click]')?.getAttribute('data-fs-click') ?? null) : null;
    // The first view's own <style> goes too: the React widget brings its own.
    for (const node of [...this.shadow.childNodes]) if (node !== takeover.container) node.remove();
    takeover.show();
    const click = this.pendingClick;
    this.pendingClick = null;
    const target = click ?? focusTarget;
    if (target)
      takeover.whenControl(target, (control) => {
        control.focus();
        if (click) control.click();
      });
  }
}

/** What a first view's `fill` works from. */
export interface LiteContext {
  serial: number;
  /** The creator's username ('' for a widget of no creator). */
  username: string;
  base: string;
  language: Language;
}

/** The `define` of a first view's chunk (./define.ts). */
export function defineLite(tag: string, element: CustomElementConstructor): DefineElement {
  return (apiBase) => {
    setDefaultApiBase(apiBase);
    const existing = customElements.get(tag);
    if (existing) return existing;
    customElements.define(tag, element);
    return element;
  };
}

/**
 * The script tag's React-free first screens (./tip-button.ts, ./chat.ts): a custom element that
 * draws a widget's first look without React, a few kilobytes, and hands its shadow root over to
 * the React widget (./takeover.ts) on the first sign of interest (the pointer over it, focus, a
 * touch, a click) or when the browser is idle. A click that came first is passed on once the
 * React widget is there (nobody clicks twice), and focus stays where it was.
 */
import { refreshTokenKey, resolveApiBase, setDefaultApiBase, usernameOf, widgetLanguage } from '../base';
import { whenIdle } from '../../lib/ui/idle';
import type { DefineElement } from './define';
import type { LiteProfile, Takeover, TakeoverModule } from './takeover';

export type { LiteProfile } from './takeover';

/**
 * The strings the first screens show, by language (vite.embed.config.ts `liteWordKeys`), picked
 * from lib/i18n/locales at build time.
 */
declare const __FANSTAGE_LITE_WORDS__: Record<'en' | 'cs', Record<string, string>>;

/** The string `key` of lib/i18n/locales in `language`, `{{name}}` filled in. */
export function liteWord(language: 'en' | 'cs', key: string, name = ''): string {
  return (__FANSTAGE_LITE_WORDS__[language][key] ?? key).replace('{{name}}', name);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A creator's public profile, as the SDK's profile store asks for it (`GET /papi/users/{name}`):
 * the first screens name her. Elements of one creator share one request, and the React widget
 * starts from the answer instead of asking again.
 */
const profiles = new Map<string, Promise<LiteProfile | null>>();

export function profileOf(base: string, username: string, language: string): Promise<LiteProfile | null> {
  const key = `${base} ${username.toLowerCase()}`;
  let pending = profiles.get(key);
  if (!pending) {
    pending = fetch(`${base}/papi/users/${encodeURIComponent(username)}`, { headers: { Apiversion: '1.0', Language: language } })
      .then((response) => response.json() as Promise<{ statusCode?: number; body?: LiteProfile }>)
      .then((envelope) => ((envelope.statusCode ?? 0) > 0 && envelope.body && typeof envelope.body.id === 'number' ? envelope.body : null))
      // The React widget asks again through the SDK, and shows its own error states.
      .catch(() => null);
    profiles.set(key, pending);
  }
  return pending;
}

/** Whether this tab holds a widget session for `base`: a signed-in fan gets the React widget at once. */
function hasStoredSession(base: string): boolean {
  try {
    return typeof sessionStorage !== 'undefined' && sessionStorage.getItem(refreshTokenKey(base)) !== null;
  } catch {
    return false;
  }
}

export abstract class LiteElement extends HTMLElement {
  static get observedAttributes(): string[] {
    return ['creator', 'with', 'api-base', 'language'];
  }

  protected readonly shadow: ShadowRoot;
  /** What the first screen learnt of the creator, handed to the React widget. */
  protected profile: LiteProfile | null = null;
  private takeover: Takeover | null = null;
  private loading = false;
  private clickWhenLoaded = false;
  /** Which drawing a profile answer belongs to: an attribute changed meanwhile draws again. */
  private serial = 0;

  /** The attribute naming the creator (`creator`, `with`). */
  protected abstract readonly creatorAttribute: string;
  /** The first screen's styles. */
  protected abstract readonly css: string;
  /** The React widget's module (a dynamic import, its own chunk). */
  protected abstract full(): Promise<TakeoverModule>;
  /** The first screen's markup, drawn at once so the element has its final box. */
  protected abstract markup(language: 'en' | 'cs'): string;
  /** Fills in what the creator's profile tells, once it arrives; null for an unknown creator. */
  protected abstract named(profile: LiteProfile | null, language: 'en' | 'cs'): void;

  constructor() {
    super();
    this.shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    const interest = () => this.upgrade();
    this.addEventListener('pointerenter', interest);
    this.addEventListener('focusin', interest);
    this.addEventListener('touchstart', interest, { passive: true });
    this.addEventListener('click', (event) => {
      if (this.takeover) return;
      // A click on the first screen's button: the React widget's button gets it once it is there.
      if (event.composedPath().some((target) => target instanceof HTMLButtonElement)) this.clickWhenLoaded = true;
      this.upgrade();
    });
  }

  connectedCallback(): void {
    if (this.takeover) {
      this.takeover.render();
      return;
    }
    this.draw();
    if (hasStoredSession(resolveApiBase(this.getAttribute('api-base')))) this.upgrade();
    else whenIdle(() => this.upgrade());
  }

  disconnectedCallback(): void {
    this.takeover?.unmount();
  }

  attributeChangedCallback(): void {
    if (!this.isConnected) return;
    if (this.takeover) this.takeover.render();
    else this.draw();
  }

  /**
   * The first screen at once, the creator's name when her profile arrives. Without a creator
   * there is nothing to draw: the React widget says what is missing.
   */
  private draw(): void {
    const serial = ++this.serial;
    const username = usernameOf(this.getAttribute(this.creatorAttribute));
    const base = resolveApiBase(this.getAttribute('api-base'));
    const language = widgetLanguage(this.getAttribute('language'));
    this.profile = null;
    if (!username) {
      this.shadow.innerHTML = `<style>${this.css}</style>`;
      this.upgrade();
      return;
    }
    this.shadow.innerHTML = `<style>${this.css}</style>${this.markup(language)}`;
    void profileOf(base, username, language).then((profile) => {
      if (serial !== this.serial || this.takeover) return;
      this.profile = profile;
      this.named(profile, language);
    });
  }

  /** Loads the React widget (one chunk for every element of its kind) and lets it take over this shadow root. */
  protected upgrade(): void {
    if (this.loading || this.takeover) return;
    this.loading = true;
    this.full().then(
      (module) => {
        this.loading = false;
        if (this.takeover) return;
        const focused = this.shadow.activeElement !== null;
        this.takeover = module.takeOver(this, this.shadow, this.profile);
        if (!this.isConnected) {
          this.takeover.unmount();
          return;
        }
        const click = this.clickWhenLoaded;
        this.clickWhenLoaded = false;
        if (focused || click)
          this.takeover.whenButton((button) => {
            button.focus();
            if (click) button.click();
          });
      },
      (error: unknown) => {
        this.loading = false;
        console.error(`Fanstage: could not load <${this.localName}>`, error);
      },
    );
  }
}

/** The `define` of a first screen's chunk (./define.ts). */
export function defineLite(tag: string, element: CustomElementConstructor): DefineElement {
  return (apiBase) => {
    setDefaultApiBase(apiBase);
    const existing = customElements.get(tag);
    if (existing) return existing;
    customElements.define(tag, element);
    return element;
  };
}

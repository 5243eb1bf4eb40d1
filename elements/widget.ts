import { createElement, startTransition, useEffect, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import r2wc from '@r2wc/react-to-web-component';
import type { Fanstage } from '../lib/sdk';
import type { LanguageIso } from '../lib/i18n';
import { FanstageProvider } from '../lib/ui/FanstageProvider';
import { fanstageFor, resolveApiBase, resolveLanguage, sessionRestored } from './shared';
import { usernameOf } from './base';
import { firstLinkVisit, linkCodeOf, recordLinkVisit } from './linkVisit';
import { attachWidget, detachWidget } from './activity';

/** What every widget resolves from its `api-base` and `language` attributes. */
export interface WidgetContext {
  /** The API, from `api-base` or the default (elements/base.ts). */
  base: string;
  lang: LanguageIso;
  /** The page's one client for that API (elements/shared.ts). */
  fanstage: Fanstage;
}

/** The attributes every widget takes besides its own. */
export interface CommonWidgetProps {
  apiBase?: string;
  language?: string;
  /** A tracking link's code: the widget counts a visit through it (docs/embedding.md, "The link attribute"). */
  link?: string;
}

/**
 * One widget element: its own attributes, the events it dispatches, the styles of its shadow
 * root and what it renders inside the provider.
 */
export interface WidgetSpec<P extends CommonWidgetProps> {
  /** Its own attributes, as props (`with`, `creator`); `api-base` and `language` come with every widget. */
  attributes: readonly (keyof P & string)[];
  /**
   * Props that dispatch an event on the element: `onCallEnded(detail)` dispatches `callended`
   * (the `on` dropped, lower case), with these options.
   */
  events?: Partial<Record<keyof P & string, { bubbles?: boolean; composed?: boolean }>>;
  /** Every style the widget may show, put in a `<style>` inside its shadow root. */
  css: string;
  render: (props: P, context: WidgetContext) => ReactNode;
}

/** `apiBase` → `api-base`. */
function attributeName(prop: string): string {
  return prop.replace(/([a-z0-9])([A-Z])/g, (_match, before: string, after: string) => `${before}-${after.toLowerCase()}`);
}

const commonAttributes = ['apiBase', 'language', 'link'];

/** The props an element's attributes and events make. */
function propsOf<P extends CommonWidgetProps>(spec: WidgetSpec<P>, host: HTMLElement): P {
  const props: Record<string, unknown> = {};
  for (const prop of [...commonAttributes, ...spec.attributes]) {
    const value = host.getAttribute(attributeName(prop));
    if (value !== null) props[prop] = value;
  }
  for (const [prop, init] of Object.entries(spec.events ?? {})) {
    const type = prop.replace(/^on/, '').toLowerCase();
    props[prop] = (detail: unknown) => host.dispatchEvent(new CustomEvent(type, { detail, ...(init as object) }));
  }
  return props as P;
}

/**
 * Records, once per page, API and code, a visit through the widget's `link`: as the signed-in
 * fan's once the page's session is resumed, else as the page's visitor's (elements/base.ts).
 */
function LinkVisit({ base, fanstage, code, username }: { base: string; fanstage: Fanstage; code: string; username: string }) {
  useEffect(() => {
    if (!firstLinkVisit(base, code)) return;
    void sessionRestored(base).then(() => {
      const token = fanstage.session.accessToken.peek();
      return recordLinkVisit(base, code, username, token ? { Authorization: `Bearer ${token}` } : {});
    });
  }, [base, fanstage, code, username]);
  return null;
}

/** The creator a widget names, by whichever attribute it uses. */
function creatorOf(props: CommonWidgetProps): string {
  const named = props as { creator?: string; user?: string; with?: string };
  return usernameOf(named.creator ?? named.user ?? named.with);
}

/** The widget's tree: the provider of its API and language, its styles, and what it renders. */
function tree<P extends CommonWidgetProps>(spec: WidgetSpec<P>, props: P): ReactNode {
  const base = resolveApiBase(props.apiBase);
  const lang = resolveLanguage(props.language);
  const fanstage = fanstageFor(base, lang);
  const code = linkCodeOf(props.link);
  return createElement(
    FanstageProvider,
    { fanstage, language: lang },
    createElement('style', null, spec.css),
    code === null ? null : createElement(LinkVisit, { base, fanstage, code, username: creatorOf(props) }),
    spec.render(props, { base, lang, fanstage }),
  );
}

/** Renders a widget into a shadow root from its host element's attributes, again on every change. */
export interface WidgetRenderer {
  /** Renders (or re-renders) from the host's current attributes; `sync` commits before it returns. */
  render(options?: { sync?: boolean }): void;
  unmount(): void;
}

export function widgetRenderer<P extends CommonWidgetProps>(spec: WidgetSpec<P>, host: HTMLElement, container: ShadowRoot | HTMLElement): WidgetRenderer {
  let root: Root | null = null;
  return {
    render({ sync = false } = {}) {
      root ??= createRoot(container);
      const mounted = root;
      const props = propsOf(spec, host);
      attachWidget(host, resolveApiBase(props.apiBase));
      const update = () => mounted.render(tree(spec, props));
      if (sync) flushSync(update);
      // As a transition, React renders the widget in slices between which the partner's page
      // keeps answering input, rather than in one long task per element.
      else startTransition(update);
    },
    unmount() {
      detachWidget(host);
      root?.unmount();
      root = null;
    },
  };
}

/** Every attribute a widget observes. */
export function observedAttributesOf<P extends CommonWidgetProps>(spec: WidgetSpec<P>): string[] {
  return [...commonAttributes, ...spec.attributes].map(attributeName);
}

/**
 * The custom element class of a widget for `fanstage/elements`, made by r2wc
 * (`@r2wc/react-to-web-component`, the design's wrapper of React components): an open shadow root
 * rendered by React, re-rendered when an attribute changes, unmounted when the element leaves the
 * page (and rendered again if it comes back). Each attribute is also a property
 * (`card.user = 'lucy.rivers'` sets `user`), and each event prop dispatches its event. The
 * script tag's widgets are not made here: their elements are the React-free first views
 * (elements/script/lite.ts), which the React widget takes over through `widgetRenderer`.
 */
export function widgetElement<P extends CommonWidgetProps>(spec: WidgetSpec<P>): CustomElementConstructor {
  const props = [...commonAttributes, ...spec.attributes] as (keyof P & string)[];
  const events = Object.keys(spec.events ?? {}) as (keyof P & string)[];
  const eventInits = Object.fromEntries(events.map((name) => [name, spec.events?.[name] ?? {}]));
  function WidgetRoot(given: P & { container?: unknown }) {
    const { container: _container, ...rest } = given;
    return tree(spec, rest as unknown as P);
  }
  return r2wc(WidgetRoot, {
    shadow: 'open',
    props: Object.fromEntries(props.map((name) => [name, 'string'])) as never,
    events: eventInits as never,
  });
}

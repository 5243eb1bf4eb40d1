/**
 * What every element needs before any of its heavy parts: where its API is and which language
 * it speaks. No React, no SDK, no translations: the script tag's React-free tip button
 * (elements/script/tip-button.ts) shares this module with the React widgets, so it must stay
 * tiny.
 */

/**
 * Where elements without an `api-base` attribute send their requests. The script tag sets it
 * to the origin it was loaded from (a partner page loads the widgets from the platform, so
 * that is where the API is); an app using `fanstage/elements` may set it in
 * `defineElements({ apiBase })`. Unset, requests go to the page's own origin.
 */
let defaultApiBase = '';

export function setDefaultApiBase(apiBase: string): void {
  defaultApiBase = normaliseBase(apiBase);
}

export function resolveApiBase(attribute: string | null | undefined): string {
  const value = attribute?.trim();
  return value ? normaliseBase(value) : defaultApiBase;
}

function normaliseBase(value: string): string {
  return value.replace(/\/+$/, '');
}

/** The origin part of a script address, for `setDefaultApiBase`; '' when it cannot be read. */
export function originOf(url: string | null | undefined): string {
  if (!url) return '';
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** The languages widgets speak (lib/i18n `languages`), for code that must not load i18next. */
export type WidgetLanguage = 'en' | 'cs';

/** The `language` attribute, else the page's `<html lang>`, else English (as lib/i18n `pickLanguage`). */
export function widgetLanguage(attribute: string | null | undefined): WidgetLanguage {
  const candidate = attribute?.trim() || (typeof document !== 'undefined' ? document.documentElement.lang : '');
  const base = candidate.split(/[-_;,]/)[0]?.trim().toLowerCase();
  return base === 'cs' ? 'cs' : 'en';
}

/** A creator's username as an attribute gives it (`@lucy.rivers`, ` lucy.rivers `). */
export function usernameOf(attribute: string | null | undefined): string {
  return attribute?.trim().replace(/^@/, '') ?? '';
}

/** The key under which a page's tab keeps a widget session's refresh token (elements/shared.ts). */
export function refreshTokenKey(apiBase: string): string {
  return `fanstage.refreshToken ${apiBase || 'self'}`;
}

/**
 * Dispatched on `document` (detail: the API base) when a fan signs in through a widget: the
 * React-free first views of the same API (elements/script/lite.ts) show a visitor's look, so
 * they hand over to their React widgets, which show the fan's. An internal name, not an API.
 */
export const signedInEvent = 'fanstage:widget-signed-in';


import { createFanstage, type Fanstage } from '../lib/sdk';
import { defaultLanguage, pickLanguage, type LanguageIso } from '../lib/i18n';

/**
 * Where elements without an `api-base` attribute send their requests. The script-tag bundle
 * sets it to the origin it was loaded from (a partner page loads the widgets from the platform,
 * so that is where the API is); an app using `fanstage/elements` may set it in
 * `defineElements({ apiBase })`. Unset, requests go to the page's own origin.
 */
let defaultApiBase = '';

export function setDefaultApiBase(apiBase: string): void {
  defaultApiBase = normaliseBase(apiBase);
}

export function resolveApiBase(attribute: string | undefined): string {
  const value = attribute?.trim();
  return value ? normaliseBase(value) : defaultApiBase;
}

function normaliseBase(value: string): string {
  return value.replace(/\/+$/, '');
}

/**
 * One Fanstage object per API on a page: ten cards of the same platform make one settings
 * request and share every profile they have in common. The client's `Language` header is that
 * of the first element; each element still renders in its own language.
 */
const shared = new Map<string, Fanstage>();

export function fanstageFor(apiBase: string, language: LanguageIso): Fanstage {
  let fanstage = shared.get(apiBase);
  if (!fanstage) {
    fanstage = createFanstage({ baseUrl: apiBase, language });
    shared.set(apiBase, fanstage);
  }
  return fanstage;
}

/** The `language` attribute, else the page's `<html lang>`, else English. */
export function resolveLanguage(attribute: string | undefined): LanguageIso {
  const candidate = attribute?.trim() || (typeof document !== 'undefined' ? document.documentElement.lang : '');
  return candidate ? pickLanguage(candidate) : defaultLanguage;
}

/** The profile's page on the platform that serves the API. */
export function profileHref(apiBase: string, username: string): string {
  return `${apiBase}/${encodeURIComponent(username)}`;
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

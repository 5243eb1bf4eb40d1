import { isLanguage, pickLanguage, type LanguageIso } from '../lib/i18n';
import { cookieExpiryDays } from '../lib/sdk';

/** SPEC §9: the language choice lives in the `cookielang` cookie for two years. */
export const LANGUAGE_COOKIE = 'cookielang';
const MAX_AGE_SECONDS = cookieExpiryDays.cookielang * 24 * 60 * 60;

export function readLanguageCookie(cookie: string = document.cookie): LanguageIso | null {
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE) {
      const value = decodeURIComponent(rest.join('='));
      return isLanguage(value) ? value : null;
    }
  }
  return null;
}

export function writeLanguageCookie(language: LanguageIso): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Max-Age=${MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
}

/** A stored choice wins; a first visit follows the browser's preferred languages. */
export function initialLanguage(): LanguageIso {
  return readLanguageCookie() ?? pickLanguage(navigator.languages.length > 0 ? navigator.languages : [navigator.language]);
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { repoRoot } from '../../config';
import { pickLanguage } from '../../http/language';

type Strings = Record<string, string>;
export type Language = 'en' | 'cs';

const strings: Record<Language, Strings> = { en: loadStrings('en'), cs: loadStrings('cs') };

/** The pages' texts come from the same resource files the clients use (namespace `oauth`). */
function loadStrings(language: Language): Strings {
  const file = path.join(repoRoot, 'lib', 'i18n', 'locales', `${language}.json`);
  const resources = JSON.parse(readFileSync(file, 'utf8')) as { oauth?: Strings };
  return resources.oauth ?? {};
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `t(key, values)`: the text, HTML-escaped, with `{{name}}` replaced by the escaped value. */
export function translator(language: Language) {
  return (key: string, values: Record<string, string> = {}) =>
    escapeHtml(strings[language][key] ?? strings.en[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_match, name: string) => escapeHtml(values[name] ?? ''));
}

export function languageOf(request: FastifyRequest, explicit?: string): Language {
  for (const candidate of [explicit, request.headers.language, request.headers['accept-language']]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return pickLanguage(candidate) === 'cs' ? 'cs' : 'en';
  }
  return 'en';
}

const styles = `
:root{color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a1a1a;background:#eef1f6}
main{max-width:480px;margin:0 auto;padding:24px 16px}
.panel{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.4rem;margin:0 0 8px}
.notice{background:#fff7d6;border:1px solid #b38f00;border-radius:8px;padding:8px 12px;margin:0 0 16px}
.field{margin:14px 0}
label{display:block;font-weight:600;margin-bottom:4px}
.check label{display:inline;font-weight:400}
.hint{margin:2px 0 6px;font-size:.9rem;color:#444}
input[type=text],input[type=email]{width:100%;font:inherit;padding:10px 12px;border:1px solid #6b6b7b;border-radius:8px;background:#fff}
input[type=checkbox]{width:20px;height:20px;vertical-align:middle;margin-right:8px}
input[aria-invalid=true]{border:2px solid #b00020;outline:2px solid #b00020}
.error{color:#b00020;margin:4px 0 0}
.summary{border:2px solid #b00020;border-radius:8px;padding:8px 12px;color:#b00020}
.actions{display:flex;gap:8px;flex-wrap:wrap}
button,.button{flex:1;display:inline-block;font:inherit;font-weight:700;padding:12px;border-radius:8px;border:0;background:#3730a3;color:#fff;cursor:pointer;text-align:center;text-decoration:none;margin-top:8px}
button.secondary{background:#fff;color:#3730a3;border:2px solid #3730a3}
button:focus-visible,.button:focus-visible,input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
`;

export function page(language: Language, title: string, content: string): string {
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${styles}</style></head>
<body><main><div class="panel">${content}</div></main></body></html>`;
}

/**
 * An HTML answer nobody caches or frames. Pages whose address carries a token leak it to no one
 * (`no-referrer`); the platform's own sign-up step says `same-origin`, because with no referrer
 * at all browsers send its form with `Origin: null`, and the form must prove it is the site's.
 */
export function sendHtml(reply: FastifyReply, status: number, html: string, referrer: 'no-referrer' | 'same-origin' = 'no-referrer') {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', referrer)
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    .type('text/html; charset=utf-8')
    .send(html);
}

export function messagePage(reply: FastifyReply, status: number, language: Language, key: string, continueTo: string | null) {
  const t = translator(language);
  const link = continueTo === null ? '' : `<a class="button" href="${escapeHtml(continueTo)}">${t('backToSite')}</a>`;
  return sendHtml(reply, status, page(language, t('signupTitle'), `<h1>${t('signupTitle')}</h1><p role="status">${t(key)}</p>${link}`));
}

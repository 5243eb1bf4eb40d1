import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../context';
import { repoRoot } from '../../../config';
import { pickLanguage } from '../../../http/language';
import { MediaRejection, processImage } from '../../../media/pipeline';
import type { PartnerService } from '../service';
import { IDENTITY_SIGNATURE_HEADER, SANDBOX_IDENTITY, isDocumentNumber, newEventId, newIdentityExternalId, outcomeOf, reasonOf, type IdentityKeys } from './sandbox';
import type { IdentityEvent } from './types';

type Strings = Record<string, string>;
type Language = 'en' | 'cs';

const strings: Record<Language, Strings> = { en: loadStrings('en'), cs: loadStrings('cs') };

/** The page's texts come from the same resource files the clients use (namespace `sandboxId`). */
function loadStrings(language: Language): Strings {
  const file = path.join(repoRoot, 'lib', 'i18n', 'locales', `${language}.json`);
  const resources = JSON.parse(readFileSync(file, 'utf8')) as { sandboxId?: Strings };
  return resources.sandboxId ?? {};
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function translator(language: Language) {
  return (key: string) => escapeHtml(strings[language][key] ?? strings.en[key] ?? key);
}

function languageOf(request: FastifyRequest, explicit: string | undefined): Language {
  for (const candidate of [explicit, request.headers.language, request.headers['accept-language']]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return pickLanguage(candidate) === 'cs' ? 'cs' : 'en';
  }
  return 'en';
}

const styles = `
:root{color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a1a1a;background:#eef4f1}
main{max-width:520px;margin:0 auto;padding:24px 16px}
.panel{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.4rem;margin:0 0 8px}h2{font-size:1.1rem;margin:20px 0 8px}
.notice{background:#fff7d6;border:1px solid #b38f00;border-radius:8px;padding:8px 12px;margin:0 0 16px}
.field{margin:14px 0}
label{display:block;font-weight:600;margin-bottom:4px}
.hint{margin:2px 0 6px;font-size:.9rem;color:#444}
input{width:100%;font:inherit;padding:10px 12px;border:1px solid #6b6b7b;border-radius:8px;background:#fff}
input[aria-invalid=true]{border:2px solid #b00020}
.error{color:#b00020;margin:4px 0 0}
.summary{border:2px solid #b00020;border-radius:8px;padding:8px 12px;color:#b00020}
button,.button{display:inline-block;width:100%;font:inherit;font-weight:700;padding:12px;border-radius:8px;border:0;background:#065f46;color:#fff;cursor:pointer;text-align:center;text-decoration:none;margin-top:8px}
button:focus-visible,.button:focus-visible,input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;font-size:.95rem}dt{font-family:ui-monospace,monospace}dd{margin:0}
`;

function page(language: Language, title: string, content: string): string {
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${styles}</style></head>
<body><main><div class="panel">${content}</div></main></body></html>`;
}

const documentKinds = ['front', 'back', 'selfie'] as const;
type DocumentKind = (typeof documentKinds)[number];
type FieldName = DocumentKind | 'documentNumber';
type FieldErrors = Partial<Record<FieldName, string>>;

const CheckParams = Type.Object({ checkId: Type.String({ minLength: 1, maxLength: 64 }) });
const CheckQuery = Type.Object({ sig: Type.Optional(Type.String({ maxLength: 128 })), lang: Type.Optional(Type.String({ maxLength: 35 })) });

export interface IdentityPageDeps {
  keys: IdentityKeys;
  service: PartnerService;
}

/**
 * The sandbox identity provider's own page, served by this server as a real provider would
 * serve it on its site: the person uploads the front and back of an ID and a selfie and types
 * the document number; the pictures go through the media pipeline (decoded, turned upright,
 * re-encoded without their metadata) into storage only the owner and administrators reach, and
 * the verdict goes to the platform as a signed callback — never through the browser.
 *
 * Registered inside a scope that parses multipart forms (three files, no other parts).
 */
export function registerIdentitySandboxPage(app: App, ctx: AppContext, deps: IdentityPageDeps): void {
  const { keys, service } = deps;
  const pathOf = (checkId: string) => `/papi/identity/${SANDBOX_IDENTITY}/check/${encodeURIComponent(checkId)}`;

  function send(reply: FastifyReply, status: number, html: string) {
    return reply
      .code(status)
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
      .type('text/html; charset=utf-8')
      .send(html);
  }

  function messagePage(reply: FastifyReply, status: number, language: Language, key: string, continueTo: string | null) {
    const t = translator(language);
    const link = continueTo === null ? '' : `<a class="button" href="${escapeHtml(continueTo)}">${t('continue')}</a>`;
    return send(reply, status, page(language, t('title'), `<h1>${t('title')}</h1><p role="status">${t(key)}</p>${link}`));
  }

  const returnUrl = (checkId: string) => {
    const url = new URL('/verify-request', ctx.config.publicUrl);
    url.searchParams.set('check', checkId);
    return url.toString();
  };

  function form(reply: FastifyReply, language: Language, checkId: string, sig: string, documentNumber: string, errors: FieldErrors) {
    const t = translator(language);
    const order: FieldName[] = ['front', 'back', 'selfie', 'documentNumber'];
    const firstError = order.find((name) => errors[name] !== undefined);
    const described = (name: FieldName) => (errors[name] === undefined ? '' : ` aria-invalid="true" aria-describedby="${name}-error"`);
    const autofocus = (name: FieldName) => (firstError === name ? ' autofocus' : '');
    const error = (name: FieldName) => (errors[name] === undefined ? '' : `<p class="error" id="${name}-error">${t(errors[name]!)}</p>`);
    const fileField = (name: DocumentKind) =>
      `<div class="field"><label for="${name}">${t(name)}</label><p class="hint" id="${name}-hint">${t(`${name}Hint`)}</p><input type="file" id="${name}" name="${name}" accept="image/*" required aria-describedby="${name}-hint"${described(name)}${autofocus(name)}>${error(name)}</div>`;
    const action = `${pathOf(checkId)}?sig=${encodeURIComponent(sig)}&amp;lang=${language}`;
    const summary = firstError === undefined ? '' : `<p class="summary" role="alert">${t('errorSummary')}</p>`;
    const content = `<h1>${t('heading')}</h1>
<p class="notice">${t('notice')}</p>
<p>${t('intro')}</p>
${summary}
<form method="post" action="${action}" enctype="multipart/form-data" novalidate>
${fileField('front')}
${fileField('back')}
${fileField('selfie')}
<div class="field"><label for="documentNumber">${t('documentNumber')}</label><input id="documentNumber" name="documentNumber" value="${escapeHtml(documentNumber)}" required autocomplete="off" maxlength="12"${described('documentNumber')}${autofocus('documentNumber')}>${error('documentNumber')}</div>
<button type="submit">${t('submit')}</button>
</form>
<h2>${t('testDocuments')}</h2>
<dl>
<dt>100000001</dt><dd>${t('documentApproved')}</dd>
<dt>200000002</dt><dd>${t('documentDeclined')}</dd>
<dt>300000003</dt><dd>${t('documentReview')}</dd>
</dl>
<p class="hint">${t('otherNumbers')}</p>`;
    return send(reply, firstError === undefined ? 200 : 422, page(language, t('title'), content));
  }

  /** Tells the platform the verdict exactly as an outside provider would: a signed HTTP POST. */
  async function notifyPlatform(event: IdentityEvent): Promise<boolean> {
    const body = JSON.stringify(event);
    try {
      const response = await fetch(`${ctx.config.publicUrl}/papi/identity/${SANDBOX_IDENTITY}/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [IDENTITY_SIGNATURE_HEADER]: keys.signBody(body) },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      await response.arrayBuffer();
      return response.ok;
    } catch (error) {
      app.log.error({ err: error, checkId: event.checkId }, 'sandbox identity callback failed');
      return false;
    }
  }

  /** The running check behind a signed page address, or the page that says why there is none. */
  async function openCheck(request: FastifyRequest, reply: FastifyReply, checkId: string, query: { sig?: string; lang?: string }) {
    const language = languageOf(request, query.lang);
    if (!keys.verifyPageSig(checkId, query.sig)) return { done: messagePage(reply, 403, language, 'invalidLink', null) };
    const check = await service.check(checkId);
    if (check === undefined || check.provider !== SANDBOX_IDENTITY) return { done: messagePage(reply, 404, language, 'notFound', null) };
    if (check.status !== 'started') return { done: messagePage(reply, 409, language, 'finished', returnUrl(checkId)) };
    return { check, language, sig: query.sig! };
  }

  app.get(`/papi/identity/${SANDBOX_IDENTITY}/check/:checkId`, { schema: { tags: ['partner'], summary: 'The sandbox identity provider’s page (HTML): upload the ID’s front, back and a selfie, and the document number', params: CheckParams, querystring: CheckQuery, produces: ['text/html'] } }, async (request, reply) => {
    const opened = await openCheck(request, reply, request.params.checkId, request.query);
    if ('done' in opened) return opened.done;
    return form(reply, opened.language, opened.check.id, opened.sig, '', {});
  });

  app.post(`/papi/identity/${SANDBOX_IDENTITY}/check/:checkId`, { schema: { tags: ['partner'], summary: 'The sandbox identity page’s form (multipart: front, back, selfie, documentNumber): stores the pictures, sends the platform the signed verdict, returns to /verify-request?check=', params: CheckParams, querystring: CheckQuery, consumes: ['multipart/form-data'], produces: ['text/html'] } }, async (request, reply) => {
    const opened = await openCheck(request, reply, request.params.checkId, request.query);
    if ('done' in opened) return opened.done;
    const { check, language, sig } = opened;
    if (!request.isMultipart()) return messagePage(reply, 415, language, 'invalidForm', null);

    const files = new Map<DocumentKind, Buffer>();
    let documentNumber = '';
    const errors: FieldErrors = {};
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const data = await part.toBuffer();
          const kind = documentKinds.find((name) => name === part.fieldname);
          if (kind !== undefined && data.length > 0) files.set(kind, data);
        } else if (part.fieldname === 'documentNumber' && typeof part.value === 'string') {
          documentNumber = part.value.replace(/[\s-]/g, '').toUpperCase();
        }
      }
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') return messagePage(reply, 413, language, 'tooLarge', null);
      return messagePage(reply, 400, language, 'invalidForm', null);
    }

    const processed = new Map<DocumentKind, { data: Buffer; width: number; height: number }>();
    for (const kind of documentKinds) {
      const data = files.get(kind);
      if (data === undefined) {
        errors[kind] = 'errorMissing';
        continue;
      }
      try {
        const image = await processImage(data);
        processed.set(kind, { data: image.files[0]!.data!, width: image.width, height: image.height });
      } catch (error) {
        if (!(error instanceof MediaRejection)) throw error;
        errors[kind] = error.reason === 'lowRes' ? 'errorLowRes' : 'errorPicture';
      }
    }
    if (!isDocumentNumber(documentNumber)) errors.documentNumber = 'errorNumber';
    if (Object.keys(errors).length > 0) return form(reply, language, check.id, sig, documentNumber, errors);

    for (const [kind, image] of processed) await service.storeDocument(check.id, check.userId, kind, image.data, image);
    const outcome = outcomeOf(documentNumber);
    const delivered = await notifyPlatform({
      eventId: newEventId(),
      checkId: check.id,
      outcome,
      externalId: newIdentityExternalId(),
      reason: reasonOf(outcome),
      issuedAt: Date.now(),
    });
    if (!delivered) return messagePage(reply, 502, language, 'callbackFailed', null);
    return reply.code(303).header('Cache-Control', 'no-store').header('Location', returnUrl(check.id)).send();
  });
}

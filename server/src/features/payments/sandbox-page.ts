import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Type } from 'typebox';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context';
import { repoRoot } from '../../config';
import { paymentOrders, type PaymentOrderRow } from '../../db/schema';
import { pickLanguage } from '../../http/language';
import { isPlatformOrigin } from '../../http/origins';
import type { Viewer } from '../auth/guard';
import { originOf } from '../auth/domain';
import { formatMoney } from '../../../../lib/contract/money';
import {
  SANDBOX,
  SANDBOX_SIGNATURE_HEADER,
  behaviourOf,
  brandOf,
  checkoutUrl,
  luhnValid,
  newCardToken,
  newExternalId,
  type SandboxKeys,
} from './processors/sandbox';
import type { ProcessorCard, ProcessorEvent } from './processors/types';

type Strings = Record<string, string>;

const strings: Record<'en' | 'cs', Strings> = {
  en: loadStrings('en'),
  cs: loadStrings('cs'),
};

/** The page's texts come from the same resource files the clients use (namespace `sandboxPay`). */
function loadStrings(language: 'en' | 'cs'): Strings {
  const file = path.join(repoRoot, 'lib', 'i18n', 'locales', `${language}.json`);
  const resources = JSON.parse(readFileSync(file, 'utf8')) as { sandboxPay?: Strings };
  return resources.sandboxPay ?? {};
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function translator(language: 'en' | 'cs') {
  return (key: string, values: Record<string, string> = {}) => {
    const text = strings[language][key] ?? strings.en[key] ?? key;
    return escapeHtml(text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? ''));
  };
}

/** The sandbox's name on the top-up screen, in the viewer's language. */
export function sandboxTitle(language: string): string {
  const lang = language === 'cs' ? 'cs' : 'en';
  return strings[lang].processorTitle ?? strings.en.processorTitle ?? 'Sandbox';
}


/** `?lang` first, then the `Language` header the platform's clients send, then the browser's Accept-Language. */
function languageOf(request: FastifyRequest, explicit: string | undefined): 'en' | 'cs' {
  const candidates = [explicit, request.headers.language, request.headers['accept-language']];
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return pickLanguage(candidate);
  }
  return 'en';
}

const styles = `
:root{color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a1a1a;background:#f3f1f8}
main{max-width:460px;margin:0 auto;padding:24px 16px}
.panel{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.4rem;margin:0 0 8px}
.notice{background:#fff7d6;border:1px solid #b38f00;border-radius:8px;padding:8px 12px;margin:0 0 16px}
.amount{font-size:1.6rem;font-weight:700;margin:0}
.field{margin:14px 0}
label{display:block;font-weight:600;margin-bottom:4px}
input{width:100%;font:inherit;padding:10px 12px;border:1px solid #6b6b7b;border-radius:8px}
input[aria-invalid=true]{border:2px solid #b00020}
.row{display:flex;gap:12px}.row .field{flex:1}
.error{color:#b00020;margin:4px 0 0}
.summary{border:2px solid #b00020;border-radius:8px;padding:8px 12px;color:#b00020}
button,.button{display:inline-block;width:100%;font:inherit;font-weight:700;padding:12px;border-radius:8px;border:0;background:#4c1d95;color:#fff;cursor:pointer;text-align:center;text-decoration:none;margin-top:8px}
button.secondary{background:#fff;color:#4c1d95;border:2px solid #4c1d95}
button:focus-visible,.button:focus-visible,input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;font-size:.95rem}dt{font-family:ui-monospace,monospace}dd{margin:0}
`;

function page(language: 'en' | 'cs', title: string, content: string): string {
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${styles}</style></head>
<body><main><div class="panel">${content}</div></main></body></html>`;
}

interface FormValues {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

type FieldErrors = Partial<Record<keyof FormValues, string>>;

export interface SandboxPageDeps {
  keys: SandboxKeys;
  merchant: string;
}

const CheckoutParams = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) });
const CheckoutQuery = Type.Object({
  sig: Type.Optional(Type.String({ maxLength: 128 })),
  lang: Type.Optional(Type.String({ maxLength: 35 })),
  step: Type.Optional(Type.String({ maxLength: 2048 })),
});
const CheckoutForm = Type.Object({
  sig: Type.Optional(Type.String({ maxLength: 128 })),
  lang: Type.Optional(Type.String({ maxLength: 35 })),
  step: Type.Optional(Type.String({ maxLength: 2048 })),
  decision: Type.Optional(Type.String({ maxLength: 16 })),
  number: Type.Optional(Type.String({ maxLength: 64 })),
  expiry: Type.Optional(Type.String({ maxLength: 16 })),
  cvc: Type.Optional(Type.String({ maxLength: 8 })),
  name: Type.Optional(Type.String({ maxLength: 200 })),
});

/** Where the payer goes after the processor's page: the order's return address when the platform trusts it, else `/gopay-return`. */
export async function returnTarget(ctx: AppContext, order: PaymentOrderRow): Promise<string> {
  // The return address was checked against the paying session when the order was made.
  if (order.returnUrl !== null && originOf(order.returnUrl) !== null) {
    const url = new URL(order.returnUrl);
    if (!url.searchParams.has('id')) url.searchParams.set('id', order.id);
    return url.toString();
  }
  const url = new URL('/gopay-return', ctx.config.publicUrl);
  url.searchParams.set('id', order.id);
  return url.toString();
}

/** A return address on the platform's own origin, a CORS_ORIGINS partner, or an origin a creator allowed for widgets. */
/**
 * Where a payment may send the payer back: the platform, or the site of the widget session
 * that started it — never another address, so the return cannot become an open redirect.
 */
export function isTrustedReturnUrl(ctx: AppContext, value: string, viewer: Pick<Viewer, 'origin'>): boolean {
  const origin = originOf(value);
  if (origin === null) return false;
  return isPlatformOrigin(ctx.config, origin) || (viewer.origin !== null && origin === viewer.origin);
}

/**
 * The sandbox processor's own pages, served by this server as a real processor would serve
 * them on its site: the card form, the second step, and the signed callback to the platform
 * once the payment is decided. The page only knows the order's amount; the platform learns the
 * outcome from the callback, never from the browser.
 */
export function registerSandboxPages(app: App, ctx: AppContext, deps: SandboxPageDeps): void {
  const { keys, merchant } = deps;
  const pathOf = (orderId: string) => `/papi/payments/${SANDBOX}/checkout/${encodeURIComponent(orderId)}`;

  async function loadOrder(orderId: string): Promise<PaymentOrderRow | null> {
    const [order] = await ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    return order && order.processor === SANDBOX ? order : null;
  }

  function send(reply: FastifyReply, status: number, html: string) {
    return reply
      .code(status)
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
      .type('text/html; charset=utf-8')
      .send(html);
  }

  function messagePage(reply: FastifyReply, status: number, language: 'en' | 'cs', key: string, continueTo: string | null) {
    const t = translator(language);
    const link = continueTo === null ? '' : `<a class="button" href="${escapeHtml(continueTo)}">${t('continue')}</a>`;
    return send(reply, status, page(language, t('title'), `<h1>${t('title')}</h1><p role="status">${t(key)}</p>${link}`));
  }

  function hidden(fields: Record<string, string | undefined>): string {
    return Object.entries(fields)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
      .join('');
  }

  function cardForm(reply: FastifyReply, language: 'en' | 'cs', order: PaymentOrderRow, sig: string, values: FormValues, errors: FieldErrors) {
    const t = translator(language);
    const amount = formatMoney(order.amount);
    const messages: Record<keyof FormValues, string> = { number: 'errorNumber', expiry: 'errorExpiry', cvc: 'errorCvc', name: 'errorName' };
    const firstError = (Object.keys(messages) as (keyof FormValues)[]).find((field) => errors[field] !== undefined);
    const field = (name: keyof FormValues, label: string, attributes: string) => {
      const invalid = errors[name] !== undefined;
      const described = invalid ? ` aria-invalid="true" aria-describedby="${name}-error"` : '';
      const autofocus = firstError === name ? ' autofocus' : '';
      return `<div class="field"><label for="${name}">${t(label)}</label><input id="${name}" name="${name}" value="${escapeHtml(values[name])}" required${attributes}${described}${autofocus}>${
        invalid ? `<p class="error" id="${name}-error">${t(messages[name])}</p>` : ''
      }</div>`;
    };
    const summary = firstError === undefined ? '' : `<p class="summary" role="alert">${t('errorSummary')}</p>`;
    const content = `<h1>${t('heading')}</h1>
<p class="notice">${t('notice')}</p>
<p>${t('merchant', { merchant })}</p>
<p>${t('amount')}</p><p class="amount">${escapeHtml(amount)}</p>
${summary}
<form method="post" action="${pathOf(order.id)}" novalidate>
${hidden({ sig, lang: language })}
${field('number', 'cardNumber', ' inputmode="numeric" autocomplete="cc-number" maxlength="23"')}
<div class="row">
${field('expiry', 'expiry', ' inputmode="numeric" autocomplete="cc-exp" maxlength="7"')}
${field('cvc', 'cvc', ' inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}
</div>
${field('name', 'name', ' autocomplete="cc-name" maxlength="100"')}
<button type="submit">${t('pay', { amount })}</button>
</form>
<h2>${t('testCards')}</h2>
<dl>
<dt>4242 4242 4242 4242</dt><dd>${t('cardOk')}</dd>
<dt>4000 0000 0000 0002</dt><dd>${t('cardDecline')}</dd>
<dt>4000 0000 0000 3220</dt><dd>${t('card3ds')}</dd>
<dt>4000 0000 0000 0341</dt><dd>${t('cardLaterDecline')}</dd>
</dl>`;
    return send(reply, firstError === undefined ? 200 : 422, page(language, t('title'), content));
  }

  function challengeForm(reply: FastifyReply, language: 'en' | 'cs', order: PaymentOrderRow, sig: string, step: string) {
    const t = translator(language);
    const amount = formatMoney(order.amount);
    const content = `<h1>${t('challengeHeading')}</h1>
<p class="notice">${t('notice')}</p>
<p>${t('challengeText', { amount, merchant })}</p>
<form method="post" action="${pathOf(order.id)}">
${hidden({ sig, lang: language, step })}
<button type="submit" name="decision" value="approve" autofocus>${t('approve')}</button>
<button type="submit" name="decision" value="decline" class="secondary">${t('decline')}</button>
</form>`;
    return send(reply, 200, page(language, t('challengeTitle'), content));
  }

  /** Tells the platform the outcome exactly as an outside processor would: a signed HTTP POST. */
  async function notifyPlatform(event: ProcessorEvent): Promise<boolean> {
    const body = JSON.stringify(event);
    try {
      const response = await fetch(`${ctx.config.publicUrl}/papi/payments/${SANDBOX}/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: keys.signBody(body) },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      await response.arrayBuffer();
      return response.ok;
    } catch (error) {
      app.log.error({ err: error, orderId: event.orderId }, 'sandbox callback failed');
      return false;
    }
  }

  async function decide(reply: FastifyReply, language: 'en' | 'cs', order: PaymentOrderRow, event: ProcessorEvent) {
    const delivered = await notifyPlatform(event);
    const target = await returnTarget(ctx, order);
    if (!delivered) return messagePage(reply, 502, language, 'callbackFailed', null);
    return reply.code(303).header('Cache-Control', 'no-store').header('Location', target).send();
  }

  /** A page for an order that cannot be paid any more, or null when it can. */
  async function closedPage(reply: FastifyReply, language: 'en' | 'cs', order: PaymentOrderRow) {
    if (order.status === 'created' || order.status === 'challenge') return null;
    const key = order.status === 'expired' ? 'expired' : 'finished';
    return messagePage(reply, 409, language, key, await returnTarget(ctx, order));
  }

  app.get(
    `/papi/payments/${SANDBOX}/checkout/:orderId`,
    { schema: { hide: true, params: CheckoutParams, querystring: CheckoutQuery } },
    async (request, reply) => {
      const { orderId } = request.params;
      const language = languageOf(request, request.query.lang);
      if (!keys.verifyPageSig(orderId, request.query.sig)) return messagePage(reply, 403, language, 'invalidLink', null);
      const order = await loadOrder(orderId);
      if (!order) return messagePage(reply, 404, language, 'notFound', null);
      const closed = await closedPage(reply, language, order);
      if (closed) return closed;
      if (request.query.step !== undefined) {
        if (keys.openStep(orderId, request.query.step) === null) return messagePage(reply, 403, language, 'invalidLink', null);
        return challengeForm(reply, language, order, request.query.sig!, request.query.step);
      }
      return cardForm(reply, language, order, request.query.sig!, { number: '', expiry: '', cvc: '', name: '' }, {});
    },
  );

  app.post(
    `/papi/payments/${SANDBOX}/checkout/:orderId`,
    { schema: { hide: true, params: CheckoutParams, body: CheckoutForm } },
    async (request, reply) => {
      const { orderId } = request.params;
      const form = request.body;
      const language = languageOf(request, form.lang);
      if (!keys.verifyPageSig(orderId, form.sig)) return messagePage(reply, 403, language, 'invalidLink', null);
      const order = await loadOrder(orderId);
      if (!order) return messagePage(reply, 404, language, 'notFound', null);
      const closed = await closedPage(reply, language, order);
      if (closed) return closed;
      const externalId = newExternalId();

      if (form.step !== undefined) {
        const step = keys.openStep(orderId, form.step);
        if (step === null || (form.decision !== 'approve' && form.decision !== 'decline')) return messagePage(reply, 403, language, 'invalidLink', null);
        const approved = form.decision === 'approve';
        return decide(reply, language, order, { orderId, status: approved ? 'paid' : 'declined', externalId, card: approved ? step.card : null });
      }

      const values: FormValues = { number: form.number ?? '', expiry: form.expiry ?? '', cvc: form.cvc ?? '', name: form.name ?? '' };
      const digits = values.number.replace(/[\s-]/g, '');
      const errors: FieldErrors = {};
      if (!luhnValid(digits)) errors.number = 'invalid';
      // `12/34`, `12 / 2034`, or `1234` from a numeric keypad without a slash.
      const expiry = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(values.expiry);
      const now = ctx.clock.now();
      const expMonth = expiry ? Number(expiry[1]) : 0;
      const expYear = expiry ? (expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])) : 0;
      const expired = expYear * 12 + expMonth < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
      if (!expiry || expMonth < 1 || expMonth > 12 || expired || expYear > now.getUTCFullYear() + 30) errors.expiry = 'invalid';
      if (!/^\d{3,4}$/.test(values.cvc.trim())) errors.cvc = 'invalid';
      if (values.name.trim().length === 0) errors.name = 'invalid';
      if (Object.keys(errors).length > 0) return cardForm(reply, language, order, form.sig!, values, errors);

      const behaviour = behaviourOf(digits);
      const card: ProcessorCard | null =
        behaviour === 'decline' ? null : { token: newCardToken(behaviour), brand: brandOf(digits), last4: digits.slice(-4), expMonth, expYear };
      if (behaviour === '3ds') {
        const step = keys.sealStep(orderId, card);
        return reply.code(303).header('Cache-Control', 'no-store').header('Location', checkoutUrl(ctx.config.publicUrl, keys, orderId, language, step)).send();
      }
      return decide(reply, language, order, { orderId, status: behaviour === 'decline' ? 'declined' : 'paid', externalId, card });
    },
  );
}

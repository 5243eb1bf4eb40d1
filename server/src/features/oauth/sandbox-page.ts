import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../context';
import { isValidEmail } from '../settings/domain';
import { escapeHtml, languageOf, messagePage, page, sendHtml, translator, type Language } from './html';
import { SANDBOX_OAUTH, newSandboxIdentityId, type OAuthSandboxKeys } from './sandbox';

const ConsentQuery = Type.Object({ oauth_token: Type.Optional(Type.String({ maxLength: 200 })), lang: Type.Optional(Type.String({ maxLength: 35 })) });
const ConsentForm = Type.Object({
  oauth_token: Type.Optional(Type.String({ maxLength: 200 })),
  lang: Type.Optional(Type.String({ maxLength: 35 })),
  decision: Type.Optional(Type.String({ maxLength: 20 })),
  id: Type.Optional(Type.String({ maxLength: 200 })),
  name: Type.Optional(Type.String({ maxLength: 400 })),
  email: Type.Optional(Type.String({ maxLength: 400 })),
});

const tokenPattern = /^[A-Za-z0-9_-]{16,128}$/;
const idPattern = /^[A-Za-z0-9._-]{1,64}$/;

interface Values {
  id: string;
  name: string;
  email: string;
}
type Errors = Partial<Record<keyof Values, string>>;

/**
 * The sandbox sign-in provider's consent page, served by this server as a real provider would
 * serve it on its site: the person enters the identity the provider should vouch for and
 * approves or denies; the answer goes back to the platform's callback with `oauth_token` and a
 * signed `oauth_verifier` (or `denied`), as an OAuth 1.0a provider answers.
 *
 * Registered inside a scope that parses urlencoded forms.
 */
export function registerOAuthSandboxPage(app: App, ctx: AppContext, keys: OAuthSandboxKeys): void {
  const path = `/papi/oauth/${SANDBOX_OAUTH}/authorize`;
  const callback = (query: Record<string, string>) => {
    const url = new URL('/api/oauth/callback', ctx.config.publicUrl);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.toString();
  };

  function form(reply: FastifyReply, language: Language, token: string, values: Values, errors: Errors) {
    const t = translator(language);
    const order: (keyof Values)[] = ['id', 'name', 'email'];
    const firstError = order.find((name) => errors[name] !== undefined);
    const described = (name: keyof Values, hint: boolean) => {
      const ids = [hint ? `${name}-hint` : '', errors[name] === undefined ? '' : `${name}-error`].filter(Boolean).join(' ');
      return `${ids === '' ? '' : ` aria-describedby="${ids}"`}${errors[name] === undefined ? '' : ' aria-invalid="true"'}${firstError === name ? ' autofocus' : ''}`;
    };
    const error = (name: keyof Values) => (errors[name] === undefined ? '' : `<p class="error" id="${name}-error">${t(errors[name]!)}</p>`);
    const summary = firstError === undefined ? '' : `<p class="summary" role="alert">${t('errorSummary')}</p>`;
    const content = `<h1>${t('sandboxHeading')}</h1>
<p class="notice">${t('sandboxNotice')}</p>
<p>${t('sandboxIntro')}</p>
${summary}
<form method="post" action="${path}" novalidate>
<input type="hidden" name="oauth_token" value="${escapeHtml(token)}">
<input type="hidden" name="lang" value="${language}">
<div class="field"><label for="id">${t('identityId')}</label><p class="hint" id="id-hint">${t('identityIdHint')}</p><input type="text" id="id" name="id" value="${escapeHtml(values.id)}" required maxlength="64" autocomplete="off"${described('id', true)}>${error('id')}</div>
<div class="field"><label for="name">${t('identityName')}</label><input type="text" id="name" name="name" value="${escapeHtml(values.name)}" maxlength="100" autocomplete="name"${described('name', false)}>${error('name')}</div>
<div class="field"><label for="email">${t('identityEmail')}</label><input type="email" id="email" name="email" value="${escapeHtml(values.email)}" maxlength="254" autocomplete="email"${described('email', false)}>${error('email')}</div>
<div class="actions"><button type="submit" name="decision" value="approve">${t('approve')}</button><button type="submit" name="decision" value="deny" class="secondary" formnovalidate>${t('deny')}</button></div>
</form>`;
    return sendHtml(reply, firstError === undefined ? 200 : 422, page(language, t('sandboxTitle'), content));
  }

  app.get(
    path,
    { schema: { tags: ['auth'], summary: 'The sandbox sign-in provider’s consent page (HTML): enter a test identity, approve or deny', querystring: ConsentQuery, produces: ['text/html'] } },
    async (request, reply) => {
      const language = languageOf(request, request.query.lang);
      const token = request.query.oauth_token ?? '';
      if (!tokenPattern.test(token)) return messagePage(reply, 400, language, 'invalidLink', null);
      return form(reply, language, token, { id: newSandboxIdentityId(), name: '', email: '' }, {});
    },
  );

  app.post(
    path,
    {
      schema: {
        tags: ['auth'],
        summary: 'The sandbox consent page’s form (urlencoded: oauth_token, decision approve or deny, id, name, email): back to /api/oauth/callback',
        body: ConsentForm,
        consumes: ['application/x-www-form-urlencoded'],
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const body = request.body;
      const language = languageOf(request, body.lang);
      const token = body.oauth_token ?? '';
      if (!tokenPattern.test(token)) return messagePage(reply, 400, language, 'invalidLink', null);
      const redirect = (location: string) => reply.code(303).header('Cache-Control', 'no-store').header('Location', location).send();
      if (body.decision === 'deny') return redirect(callback({ oauth_token: token, denied: token }));
      if (body.decision !== 'approve') return messagePage(reply, 400, language, 'invalidLink', null);
      const values: Values = { id: (body.id ?? '').trim(), name: (body.name ?? '').trim(), email: (body.email ?? '').trim() };
      const errors: Errors = {};
      if (!idPattern.test(values.id)) errors.id = 'errorId';
      if (values.name.length > 100) errors.name = 'errorName';
      if (values.email !== '' && !isValidEmail(values.email)) errors.email = 'errorEmail';
      if (Object.keys(errors).length > 0) return form(reply, language, token, values, errors);
      const verifier = keys.seal(
        token,
        // Anyone can type any address here, so the sandbox never vouches for it: the new account
        // verifies it by mail like any other.
        { id: values.id, name: values.name === '' ? null : values.name, email: values.email === '' ? null : values.email, emailVerified: false },
        Date.now(),
      );
      return redirect(callback({ oauth_token: token, oauth_verifier: verifier }));
    },
  );
}

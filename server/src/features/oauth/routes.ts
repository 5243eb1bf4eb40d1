import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { usernameProblem } from '../../../../lib/contract/usernames';
import type { App } from '../../context';
import { AppError } from '../../errors';
import { platformOnly } from '../../http/origins';
import { randomToken, refreshCookie, refreshTokenMs, sessionMarker, tokenHash } from '../auth/domain';
import { startSession } from '../auth/service';
import { requestLifetimeMs, safeReturnPath, signupLifetimeMs, stateCookie, suggestedUsername, withOutcome } from './domain';
import { escapeHtml, languageOf, messagePage, page, sendHtml, translator, type Language } from './html';
import { registerOAuthSandboxPage } from './sandbox-page';
import { createOAuthService, type OAuthRequestRow } from './service';
import type { FeatureOptions } from '../feature';

const tags = ['auth'];

const AuthorizeQuery = Type.Object({
  /** A provider of GET /papi/settings `oauthProviders`; the first one when left out. */
  provider: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,32}$' })),
  /** The page of this site to come back to, e.g. `/lucy.rivers?tab=posts`; `/` when left out. */
  returnTo: Type.Optional(Type.String({ maxLength: 1000 })),
  lang: Type.Optional(Type.String({ maxLength: 35 })),
});
const CallbackQuery = Type.Object({
  oauth_token: Type.Optional(Type.String({ maxLength: 200 })),
  oauth_verifier: Type.Optional(Type.String({ maxLength: 5000 })),
  /** Set instead of `oauth_verifier` when the person denied the sign-in. */
  denied: Type.Optional(Type.String({ maxLength: 200 })),
});
const SignupForm = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 200 })),
  agree: Type.Optional(Type.String({ maxLength: 20 })),
});

/**
 * Sign-in with an external account (SPEC §7 `GET /api/oauth/authorize`, `GET /api/oauth/callback`,
 * docs/oauth.md). These are navigations of the browser, not calls: they answer redirects and
 * pages. They run before there is a session, so they take no access token; what guards them
 * is the state cookie (`fs_oauth`, HttpOnly) binding a sign-in to the browser that started it,
 * single-use request tokens that live ten minutes, and return paths of this site only.
 */
export async function oauthFeature(app: App, { ctx, jobs, services }: FeatureOptions): Promise<void> {
  const providers = services.oauthProviders;
  const service = createOAuthService(ctx);
  const secure = (request: FastifyRequest) => request.protocol === 'https' || ctx.config.publicUrl.startsWith('https://');
  const cookieOptions = (request: FastifyRequest) => ({ httpOnly: true, sameSite: 'lax' as const, secure: secure(request), path: stateCookie.path });

  const redirect = (reply: FastifyReply, location: string) => reply.code(303).header('Cache-Control', 'no-store').header('Location', location).send();

  /** Signs the browser in as /papi/login does: the refresh cookie and its readable marker. */
  async function signIn(request: FastifyRequest, reply: FastifyReply, userId: number, returnTo: string) {
    const session = await startSession(ctx, userId, request.headers['user-agent']);
    const maxAge = Math.floor(refreshTokenMs / 1000);
    reply.setCookie(refreshCookie.name, session.refreshToken, { httpOnly: true, sameSite: 'lax', secure: secure(request), path: refreshCookie.path, maxAge });
    reply.setCookie(sessionMarker.name, sessionMarker.signedIn, { httpOnly: false, sameSite: 'lax', secure: secure(request), path: sessionMarker.path, maxAge });
    reply.clearCookie(stateCookie.name, cookieOptions(request));
    return redirect(reply, returnTo);
  }

  app.get(
    '/api/oauth/authorize',
    {
      schema: {
        tags,
        summary:
          'Start signing in with an external account (a navigation, no token): sets the fs_oauth state cookie and redirects to the provider’s consent page; -1 not-found for a provider not offered, -1 invalid-request for a return path outside this site',
        querystring: AuthorizeQuery,
      },
    },
    async (request, reply) => {
      const provider = providers.get(request.query.provider);
      const returnTo = safeReturnPath(request.query.returnTo, ctx.config.publicUrl);
      if (returnTo === null) throw new AppError('invalid-request', { body: { location: 'querystring', field: 'returnTo', reason: 'not a path of this site' } });
      const language = languageOf(request, request.query.lang);
      const browserNonce = randomToken();
      const started = await provider.start({ callbackUrl: new URL('/api/oauth/callback', ctx.config.publicUrl).toString(), language });
      await service.begin({ provider: provider.name, token: started.token, browserNonce, returnTo, language });
      reply.setCookie(stateCookie.name, browserNonce, { ...cookieOptions(request), maxAge: Math.floor((requestLifetimeMs + signupLifetimeMs) / 1000) });
      return redirect(reply, started.url);
    },
  );

  app.get(
    '/api/oauth/callback',
    {
      schema: {
        tags,
        summary:
          'Where the provider returns the person (oauth_token and oauth_verifier, or denied): signs in the linked account and returns to the page the sign-in started from, or asks a new person for a username (/api/oauth/signup). Failures return there with ?oauth=denied, expired, failed, banned or state-mismatch',
        querystring: CallbackQuery,
      },
    },
    async (request, reply) => {
      const { oauth_token: token, oauth_verifier: verifier, denied } = request.query;
      const row = token === undefined || token === '' ? null : await service.find(token);
      if (row === null) return redirect(reply, withOutcome('/', 'expired'));
      // The state: the sign-in must come back to the browser that started it. A callback
      // planted in someone else's browser (to sign them in as the attacker) stops here,
      // without spending the attacker's token.
      const nonce = request.cookies[stateCookie.name];
      if (nonce === undefined || nonce === '' || tokenHash(nonce) !== row.browserHash) return redirect(reply, withOutcome('/', 'state-mismatch'));
      const claimed = await service.claim(row.id);
      if (claimed === null) return redirect(reply, withOutcome(row.returnTo, 'expired'));
      if (denied !== undefined) {
        reply.clearCookie(stateCookie.name, cookieOptions(request));
        return redirect(reply, withOutcome(row.returnTo, 'denied'));
      }
      let identity;
      try {
        if (verifier === undefined || verifier === '') throw new AppError('invalid-code');
        identity = await providers.get(row.provider).exchange(token!, verifier);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        reply.clearCookie(stateCookie.name, cookieOptions(request));
        return redirect(reply, withOutcome(row.returnTo, 'failed'));
      }
      const linked = await service.linkedAccount(row.provider, identity.id);
      if (linked !== null) {
        if (linked.banned) {
          reply.clearCookie(stateCookie.name, cookieOptions(request));
          return redirect(reply, withOutcome(row.returnTo, 'banned'));
        }
        return signIn(request, reply, linked.userId, row.returnTo);
      }
      await service.holdSignup(row.id, identity);
      return redirect(reply, '/api/oauth/signup');
    },
  );

  function signupForm(reply: FastifyReply, language: Language, row: OAuthRequestRow, username: string, errors: { username?: string; agree?: string }) {
    const t = translator(language);
    const providerTitle = (() => {
      try {
        return providers.get(row.provider).title;
      } catch {
        return row.provider;
      }
    })();
    const first = errors.username !== undefined ? 'username' : errors.agree !== undefined ? 'agree' : null;
    const invalid = (name: 'username' | 'agree', hint: string) =>
      `${errors[name] === undefined ? (hint === '' ? '' : ` aria-describedby="${hint}"`) : ` aria-invalid="true" aria-describedby="${[hint, `${name}-error`].filter(Boolean).join(' ')}"`}${first === name ? ' autofocus' : ''}`;
    const error = (name: 'username' | 'agree') => (errors[name] === undefined ? '' : `<p class="error" id="${name}-error">${t(errors[name]!)}</p>`);
    const content = `<h1>${t('signupTitle')}</h1>
<p>${t('signupIntro', { provider: providerTitle })}</p>
${first === null ? '' : `<p class="summary" role="alert">${t('errorSummary')}</p>`}
<form method="post" action="/api/oauth/signup" novalidate>
<div class="field"><label for="username">${t('username')}</label><p class="hint" id="username-hint">${t('usernameHint')}</p><input type="text" id="username" name="username" value="${escapeHtml(username)}" required maxlength="30" autocomplete="username"${invalid('username', 'username-hint')}>${error('username')}</div>
<div class="field check"><input type="checkbox" id="agree" name="agree" value="yes" required${invalid('agree', '')}><label for="agree">${t('agree')}</label>${error('agree')}</div>
<div class="actions"><button type="submit">${t('signupSubmit')}</button></div>
</form>`;
    return sendHtml(reply, first === null ? 200 : 422, page(language, t('signupTitle'), content), 'same-origin');
  }

  app.get(
    '/api/oauth/signup',
    {
      schema: {
        tags,
        summary: 'A new person’s last step after the callback (HTML, this browser’s fs_oauth cookie): choose a username and agree to the terms (18+)',
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const nonce = request.cookies[stateCookie.name];
      const row = nonce === undefined || nonce === '' ? null : await service.pendingSignup(nonce);
      const language = row === null ? languageOf(request) : (row.language as Language);
      if (row === null) return messagePage(reply, 410, language, 'signupExpired', '/');
      return signupForm(reply, language, row, suggestedUsername(row.identity!), {});
    },
  );

  void app.register(async (plain) => {
    const scope = plain as unknown as App;
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(String(body))) fields[name] = value;
      done(null, fields);
    });

    scope.post(
      '/api/oauth/signup',
      {
        // The form of this site only: a page elsewhere cannot create the account (the state
        // cookie is SameSite=Lax too, so a cross-site post does not carry it).
        preHandler: platformOnly,
        schema: {
          tags,
          summary: 'The sign-up form (urlencoded: username, agree): creates the account linked to the external one, signs in and returns to the page the sign-in started from',
          body: SignupForm,
          consumes: ['application/x-www-form-urlencoded'],
          produces: ['text/html'],
        },
      },
      async (request, reply) => {
        const nonce = request.cookies[stateCookie.name];
        const row = nonce === undefined || nonce === '' ? null : await service.pendingSignup(nonce);
        const language = row === null ? languageOf(request) : (row.language as Language);
        if (row === null) return messagePage(reply, 410, language, 'signupExpired', '/');
        const username = (request.body.username ?? '').trim();
        const errors: { username?: string; agree?: string } = {};
        if (usernameProblem(username) !== null) errors.username = 'errorUsername';
        if (request.body.agree !== 'yes') errors.agree = 'errorAgree';
        if (errors.username !== undefined || errors.agree !== undefined) return signupForm(reply, language, row, username, errors);
        let userId: number;
        try {
          ({ userId } = await service.completeSignup(row, username));
        } catch (error) {
          if (error instanceof AppError && error.key === 'username-taken') return signupForm(reply, language, row, username, { username: 'errorUsernameTaken' });
          if (error instanceof AppError && error.key === 'link-expired') return messagePage(reply, 410, language, 'signupExpired', '/');
          throw error;
        }
        return signIn(request, reply, userId, row.returnTo);
      },
    );

    if (providers.sandbox !== null) registerOAuthSandboxPage(scope, ctx, providers.sandbox.keys);
  });

  jobs.add({ name: 'oauth-requests-prune', everyMs: 60 * 60_000, run: () => service.prune() });
}

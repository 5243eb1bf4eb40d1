import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import {
  AccessTokenBody,
  AccountIdParams,
  ActionBody,
  ActionResult,
  EmbedCode,
  EmbedCodeBody,
  EmbedConsent,
  EmbedConsentState,
  EmbedExchangeBody,
  EmbedOriginQuery,
  LoginBody,
  RefreshBody,
  ResetBody,
  SignupBody,
} from '../../../../lib/contract/auth';
import { developmentToolsExist } from '../../config';
import type { App, AppContext } from '../../context';
import { AppError } from '../../errors';
import { ok, withBody } from '../../http/envelope';
import { createDetached } from '../../http/detached';
import { hit } from '../../http/throttle';
import { creatorsListing, platformOnly, sourceOf } from '../../http/origins';
import { createMailer, MAIL_OUTBOX_JOB, setMailer } from '../../mail';
import type { FeatureOptions } from '../feature';
import { viewerScope } from './access';
import { passwordHashing } from './hashing';
import { registerDevMailRoutes } from '../devmail/routes';
import { actionTokenMs, deviceCookie, deviceCookieAfterSignIn, normalizeEmail, refreshCookie, refreshTokenMs, sessionMarker } from './domain';
import { requireLevel, viewerOf } from './guard';
import { joinLinkVisits, joinWidgetVisits } from '../links/visits';
import {
  banUser,
  confirmAction,
  deviceKeyOf,
  embedConsentState,
  exchangeEmbedCode,
  issueEmbedCode,
  listEmbedConsents,
  listedEmbedOrigins,
  removeEmbedOrigin,
  revokeEmbedConsent,
  login,
  logout,
  pruneExpired,
  refreshSession,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  signup,
  type Session,
} from './service';

/**
 * Accounts and sessions: the mailer, and the signup, login, refresh, logout, reset, action,
 * admin-block and embed sign-in routes. The cookie parser and the `viewer` of every request come
 * before it, from `viewers` (./access.ts).
 */
export async function authFeature(app: App, { ctx, jobs }: FeatureOptions): Promise<void> {
  passwordHashing.configure(ctx.config.passwordHashing);
  const { api } = await viewerScope(app);
  const mailer = createMailer(ctx, app.log);
  setMailer(ctx, mailer);
  // Mails whose first attempt failed (the SMTP server away) are tried again from the outbox.
  jobs.add({ name: MAIL_OUTBOX_JOB, everyMs: 15_000, run: () => mailer.deliverDue() });
  registerAuthRoutes(app, api, ctx);
  // Every node prunes; the deletes are idempotent, so overlapping runs do no harm.
  const prune = setInterval(() => {
    pruneExpired(ctx).catch((error: unknown) => app.log.warn({ err: error }, 'could not prune expired sessions'));
  }, pruneIntervalMs);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));
  if (developmentToolsExist(ctx.config)) registerDevMailRoutes(app, ctx);
}

const pruneIntervalMs = 60 * 60_000;
const okResponse = { 200: OkEnvelope } as const;
const tokenResponse = { 200: BodyEnvelope(AccessTokenBody) } as const;

function registerAuthRoutes(app: App, api: App, ctx: AppContext): void {
  // Closing hooks run last-registered first: the mails in flight finish before the database closes.
  const detached = createDetached(app.log);
  app.addHook('onClose', async () => detached.drain());
  const secureCookies = (request: FastifyRequest) => request.protocol === 'https' || ctx.config.publicUrl.startsWith('https://');

  // The marker is written beside the refresh cookie every time, so it also reaches a browser
  // that signed in before there was one as soon as its session is next refreshed.
  const setMarker = (request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) =>
    reply.setCookie(sessionMarker.name, value, { httpOnly: false, sameSite: 'lax', secure: secureCookies(request), path: sessionMarker.path, maxAge });
  const setRefreshCookie = (request: FastifyRequest, reply: FastifyReply, token: string) => {
    reply.setCookie(refreshCookie.name, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies(request),
      path: refreshCookie.path,
      maxAge: Math.floor(refreshTokenMs / 1000),
    });
    setMarker(request, reply, sessionMarker.signedIn, Math.floor(refreshTokenMs / 1000));
  };
  const clearRefreshCookie = (request: FastifyRequest, reply: FastifyReply) => {
    reply.clearCookie(refreshCookie.name, { httpOnly: true, sameSite: 'lax', secure: secureCookies(request), path: refreshCookie.path });
    setMarker(request, reply, sessionMarker.signedOut, sessionMarker.signedOutSeconds);
  };

  /** Cookie clients get the refresh token in the cookie, body clients in the body. */
  const answerSession = (request: FastifyRequest, reply: FastifyReply, session: Session, inBody: boolean) => {
    if (inBody) return withBody({ accessToken: session.accessToken, refreshToken: session.refreshToken });
    setRefreshCookie(request, reply, session.refreshToken);
    return withBody({ accessToken: session.accessToken });
  };

  app.post(
    '/papi/signup',
    {
      preHandler: platformOnly,
      schema: {
        tags: ['auth'],
        summary: 'Create an account; 1 created (log in next), -2 email-taken, -5 username-taken, -1 other keys',
        body: SignupBody,
        response: okResponse,
      },
    },
    async (request) => {
      // An invite link's code waits in the affcode cookie (31 days) until the visitor signs up.
      const { id } = await signup(ctx, { ...request.body, affCode: request.body.affCode ?? request.cookies.affcode });
      await joinLinkVisits(ctx, request, id, true);
      return ok;
    },
  );

  app.post(
    '/papi/login',
    {
      // The platform's own pages only: a widget signs in through the popup and a code.
      preHandler: platformOnly,
      schema: {
        tags: ['auth'],
        summary:
          'Log in: an access token, and a refresh token in the fs_refresh cookie (or the body with tokenInBody), and the fs_device cookie (cookie mode only); -1 invalid-credentials, banned, or too-many-requests (429, Retry-After and body.retryAfter in seconds) while the throttle holds the requester',
        body: LoginBody,
        response: tokenResponse,
      },
    },
    async (request, reply) => {
      const presented = request.cookies[deviceCookie.name];
      const { session, userId } = await login(ctx, {
        email: request.body.email,
        password: request.body.password,
        address: request.ip,
        userAgent: request.headers['user-agent'],
        deviceCookie: presented,
      });
      await joinLinkVisits(ctx, request, userId, false);
      const inBody = request.body.tokenInBody === true;
      const answer = answerSession(request, reply, session, inBody);
      // The browser that got in knows the password: it is not held for others' failures again.
      // A body-token client relies on no cookie, so it gets none.
      if (!inBody) {
        reply.setCookie(deviceCookie.name, deviceCookieAfterSignIn(deviceKeyOf(ctx), presented, userId, new Date()), {
          httpOnly: true,
          sameSite: 'lax',
          secure: secureCookies(request),
          path: deviceCookie.path,
          maxAge: Math.floor(deviceCookie.lifetimeMs / 1000),
        });
      }
      return answer;
    },
  );

  const refreshFailed = () => new AppError('refresh-token-failed');

  app.get(
    '/papi/login/refresh',
    { preHandler: platformOnly, schema: { tags: ['auth'], summary: 'Rotate the refresh token of the fs_refresh cookie', response: tokenResponse } },
    async (request, reply) => {
      const token = request.cookies[refreshCookie.name];
      if (token === undefined || token === '') {
        // Nothing to resume here: the marker says so, and the site stops asking.
        clearRefreshCookie(request, reply);
        throw refreshFailed();
      }
      try {
        return answerSession(request, reply, await refreshSession(ctx, token, request.headers['user-agent']), false);
      } catch (error) {
        clearRefreshCookie(request, reply);
        throw error;
      }
    },
  );

  app.post(
    '/papi/login/refresh',
    {
      schema: { tags: ['auth'], summary: 'Rotate a refresh token sent in the body (embedded widgets)', body: RefreshBody, response: tokenResponse },
    },
    async (request, reply) => {
      // A widget session is refreshed from its own site (or by a client that sends no Origin);
      // the platform's own sessions only from the platform.
      const source = sourceOf(request);
      const accepts = (origin: string | null) => (origin === null ? source.platform : source.origin === null || source.origin === origin);
      return answerSession(request, reply, await refreshSession(ctx, request.body.refreshToken, request.headers['user-agent'], { accepts }), true);
    },
  );

  app.get(
    '/papi/login/logout',
    // Another site cannot log the fan out of the platform with the cookie.
    { preHandler: platformOnly, schema: { tags: ['auth'], summary: 'Log out: revoke the session of the fs_refresh cookie and clear it', response: okResponse } },
    async (request, reply) => {
      const token = request.cookies[refreshCookie.name];
      if (token !== undefined && token !== '') await logout(ctx, token);
      clearRefreshCookie(request, reply);
      return ok;
    },
  );

  app.post(
    '/papi/login/logout',
    { schema: { tags: ['auth'], summary: 'Log out a body-token session', body: RefreshBody, response: okResponse } },
    async (request) => {
      await logout(ctx, request.body.refreshToken);
      return ok;
    },
  );

  app.post(
    '/papi/login/reset',
    {
      preHandler: platformOnly,
      schema: {
        tags: ['auth'],
        summary: '{email}: mail a reset link if the account exists (always 1); {hash, password}: set the password and end every session',
        body: ResetBody,
        response: okResponse,
      },
    },
    async (request) => {
      const body = request.body;
      if ('hash' in body) {
        await resetPassword(ctx, body.hash, body.password);
        return ok;
      }
      // Counted for unknown addresses too, so neither the limit nor the answer tells whether
      // the address has an account; the lookup and the mail run after the answer, so its
      // timing tells nothing either.
      await hit(ctx, 'reset-mail-requester', request.ip);
      await hit(ctx, 'reset-mail-address', normalizeEmail(body.email));
      detached.run(() => requestPasswordReset(ctx, body.email), 'could not send a password-reset mail');
      return ok;
    },
  );

  app.post(
    '/papi/action/jwt',
    {
      schema: {
        tags: ['auth'],
        summary: 'Confirm the action of a mailed /action/{hash} link; -1 link-expired when used or expired',
        body: ActionBody,
        response: { 200: BodyEnvelope(ActionResult) },
      },
    },
    async (request) => withBody(await confirmAction(ctx, request.body.hash)),
  );

  api.post(
    '/api/users/resend-verification',
    {
      schema: {
        tags: ['auth'],
        summary: 'Send the verification mail again (once a day); -1 already-verified or too-many-requests',
        response: okResponse,
      },
    },
    async (request) => {
      await resendVerification(ctx, viewerOf(request).id);
      return ok;
    },
  );

  api.post(
    '/api/admin/users/:id/block',
    {
      schema: { tags: ['admin'], summary: 'Block an account (level 500): it cannot log in and every session ends', params: AccountIdParams, response: okResponse },
    },
    async (request) => {
      requireLevel(request, 500);
      await banUser(ctx, request.params.id);
      return ok;
    },
  );

  api.get(
    '/api/admin/embed-origins',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every site creators listed for their widgets, with who listed it (level 500)',
        response: { 200: BodyEnvelope(Type.Array(Type.Object({ origin: Type.String(), userId: Type.Integer(), username: Type.String() }))) },
      },
    },
    async (request) => {
      requireLevel(request, 500);
      return withBody(await listedEmbedOrigins(ctx));
    },
  );

  api.delete(
    '/api/admin/embed-origins',
    {
      schema: {
        tags: ['admin'],
        summary: "Take a listed site off every creator's list, or one creator's with userId (level 500)",
        querystring: Type.Object({ origin: Type.String({ minLength: 1, maxLength: 300 }), userId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })) }),
        response: okResponse,
      },
    },
    async (request) => {
      requireLevel(request, 500);
      await removeEmbedOrigin(ctx, request.query.origin, request.query.userId);
      return ok;
    },
  );

  api.get(
    '/api/embed/consent',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether the fan allowed a site to use their account through widgets (the sign-in popup asks when not), and which creators list it',
        querystring: EmbedOriginQuery,
        response: { 200: BodyEnvelope(EmbedConsentState) },
      },
    },
    async (request) => {
      const state = await embedConsentState(ctx, viewerOf(request).id, request.query.origin);
      return withBody({ ...state, listedBy: state.platform ? [] : await creatorsListing(ctx, state.origin) });
    },
  );

  api.post(
    '/api/embed/code',
    {
      schema: {
        tags: ['auth'],
        summary:
          'A one-time sign-in code for a widget on a site the fan allowed (`allow: true` records the consent); -1 consent-required otherwise. Called by the /embed/login popup',
        body: EmbedCodeBody,
        response: { 200: BodyEnvelope(EmbedCode) },
      },
    },
    async (request) =>
      withBody({
        code: await issueEmbedCode(ctx, viewerOf(request).id, request.body.origin, request.body.allow === true, request.body.allowance ?? 0),
        expiresIn: actionTokenMs['embed-login'] / 1000,
      }),
  );

  api.get(
    '/api/embed/consents',
    {
      schema: { tags: ['auth'], summary: 'The sites the fan allowed to use their account through widgets', response: { 200: BodyEnvelope(Type.Array(EmbedConsent)) } },
    },
    async (request) => withBody(await listEmbedConsents(ctx, viewerOf(request).id)),
  );

  api.delete(
    '/api/embed/consents',
    {
      schema: {
        tags: ['auth'],
        summary: "Take a site's permission back: its widget sessions end at once; -1 not-found when it had none",
        querystring: EmbedOriginQuery,
        response: okResponse,
      },
    },
    async (request) => {
      await revokeEmbedConsent(ctx, viewerOf(request).id, request.query.origin);
      return ok;
    },
  );

  app.post(
    '/papi/embed/exchange',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a sign-in code for body tokens (and give the page’s link visits, `visitor`, to the fan); -1 invalid-code when used, expired or for another origin',
        body: EmbedExchangeBody,
        response: tokenResponse,
      },
    },
    async (request, reply) => {
      const { userId, ...session } = await exchangeEmbedCode(ctx, request.body.code, request.body.origin, request.headers['user-agent']);
      // The visits a widget's `link` attribute recorded for this page's signed-out visitor become the fan's.
      if (request.body.visitor !== undefined) await joinWidgetVisits(ctx, request.body.visitor, userId);
      return answerSession(request, reply, session, true);
    },
  );
}

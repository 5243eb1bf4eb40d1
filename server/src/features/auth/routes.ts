import type { FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import {
  AccessTokenBody,
  AccountIdParams,
  ActionBody,
  ActionResult,
  EmbedCode,
  EmbedCodeBody,
  EmbedExchangeBody,
  LoginBody,
  RefreshBody,
  ResetBody,
  SignupBody,
} from '../../../../lib/contract/auth';
import type { App, AppContext } from '../../context';
import { AppError } from '../../errors';
import { ok, withBody } from '../../http/envelope';
import { createDetached } from '../../http/detached';
import { hit } from '../../http/throttle';
import { createMailer, setMailer } from '../../mail';
import { registerDevMailRoutes } from '../devmail/routes';
import { actionTokenMs, normalizeEmail, refreshCookie, refreshTokenMs } from './domain';
import { authenticate, requireLevel, viewerOf } from './guard';
import {
  banUser,
  confirmAction,
  exchangeEmbedCode,
  issueEmbedCode,
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
 * Accounts and sessions: the cookie parser, the `viewer` of every request, the mailer, and the
 * signup, login, refresh, logout, reset, action, admin-block and embed sign-in routes.
 * Called once from buildApp, before any route that uses the guard.
 */
export async function registerAuth(app: App, ctx: AppContext): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('viewer', null);
  setMailer(ctx, createMailer(ctx, app.log));
  registerAuthRoutes(app, ctx);
  // Every node prunes; the deletes are idempotent, so overlapping runs do no harm.
  const prune = setInterval(() => {
    pruneExpired(ctx).catch((error: unknown) => app.log.warn({ err: error }, 'could not prune expired sessions'));
  }, pruneIntervalMs);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));
  if (ctx.config.nodeEnv !== 'production') registerDevMailRoutes(app, ctx);
}

const pruneIntervalMs = 60 * 60_000;
const okResponse = { 200: OkEnvelope } as const;
const tokenResponse = { 200: BodyEnvelope(AccessTokenBody) } as const;

function registerAuthRoutes(app: App, ctx: AppContext): void {
  // Closing hooks run last-registered first: the mails in flight finish before the database closes.
  const detached = createDetached(app.log);
  app.addHook('onClose', async () => detached.drain());
  const secureCookies = (request: FastifyRequest) => request.protocol === 'https' || ctx.config.publicUrl.startsWith('https://');

  const setRefreshCookie = (request: FastifyRequest, reply: FastifyReply, token: string) =>
    reply.setCookie(refreshCookie.name, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies(request),
      path: refreshCookie.path,
      maxAge: Math.floor(refreshTokenMs / 1000),
    });
  const clearRefreshCookie = (request: FastifyRequest, reply: FastifyReply) =>
    reply.clearCookie(refreshCookie.name, { httpOnly: true, sameSite: 'lax', secure: secureCookies(request), path: refreshCookie.path });

  /** Cookie clients get the refresh token in the cookie, body clients in the body. */
  const answerSession = (request: FastifyRequest, reply: FastifyReply, session: Session, inBody: boolean) => {
    if (inBody) return withBody({ accessToken: session.accessToken, refreshToken: session.refreshToken });
    setRefreshCookie(request, reply, session.refreshToken);
    return withBody({ accessToken: session.accessToken });
  };

  app.post(
    '/papi/signup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account; 1 created (log in next), -2 email-taken, -5 username-taken, -1 other keys',
        body: SignupBody,
        response: okResponse,
      },
    },
    async (request) => {
      await signup(ctx, request.body);
      return ok;
    },
  );

  app.post(
    '/papi/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in: an access token, and a refresh token in the fs_refresh cookie (or the body with tokenInBody)',
        body: LoginBody,
        response: tokenResponse,
      },
    },
    async (request, reply) => {
      const session = await login(ctx, {
        email: request.body.email,
        password: request.body.password,
        address: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return answerSession(request, reply, session, request.body.tokenInBody === true);
    },
  );

  const refreshFailed = () => new AppError('refresh-token-failed');

  app.get(
    '/papi/login/refresh',
    { schema: { tags: ['auth'], summary: 'Rotate the refresh token of the fs_refresh cookie', response: tokenResponse } },
    async (request, reply) => {
      const token = request.cookies[refreshCookie.name];
      if (token === undefined || token === '') throw refreshFailed();
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
    async (request, reply) => answerSession(request, reply, await refreshSession(ctx, request.body.refreshToken, request.headers['user-agent']), true),
  );

  app.get(
    '/papi/login/logout',
    { schema: { tags: ['auth'], summary: 'Log out: revoke the session of the fs_refresh cookie and clear it', response: okResponse } },
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

  app.post(
    '/api/users/resend-verification',
    {
      preHandler: authenticate,
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

  app.post(
    '/api/admin/users/:id/block',
    {
      preHandler: authenticate,
      schema: { tags: ['admin'], summary: 'Block an account (level 500): it cannot log in and every session ends', params: AccountIdParams, response: okResponse },
    },
    async (request) => {
      requireLevel(request, 500);
      await banUser(ctx, request.params.id);
      return ok;
    },
  );

  app.post(
    '/api/embed/code',
    {
      preHandler: authenticate,
      schema: {
        tags: ['auth'],
        summary: 'A one-time sign-in code for a widget on an allowed origin (called by the /embed/login popup)',
        body: EmbedCodeBody,
        response: { 200: BodyEnvelope(EmbedCode) },
      },
    },
    async (request) =>
      withBody({
        code: await issueEmbedCode(ctx, viewerOf(request).id, request.body.origin),
        expiresIn: actionTokenMs['embed-login'] / 1000,
      }),
  );

  app.post(
    '/papi/embed/exchange',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a sign-in code for body tokens; -1 invalid-code when used, expired or for another origin',
        body: EmbedExchangeBody,
        response: tokenResponse,
      },
    },
    async (request, reply) => answerSession(request, reply, await exchangeEmbedCode(ctx, request.body.code, request.body.origin, request.headers['user-agent']), true),
  );
}

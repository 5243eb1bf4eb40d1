import { CookieBody } from '../../../../lib/contract/account';
import { OkEnvelope } from '../../../../lib/contract/envelope';
import type { App } from '../../context';
import { errors } from '../../errors';
import { ok } from '../../http/envelope';
import { cookieToSet, isCookieName, setCookieHeader } from './domain';

export function registerCookieRoutes(app: App): void {
  app.post(
    '/papi/users/cookie',
    {
      schema: {
        tags: ['users'],
        summary: 'Set one of the site’s cookies (SPEC §7 names, SPEC §9 lifetimes); `accept` stores the terms consent as accept_18',
        body: CookieBody,
        response: { 200: OkEnvelope },
      },
    },
    async (request, reply) => {
      const { name, value, expires } = request.body;
      const cookie = isCookieName(name) ? cookieToSet(name, value, expires) : null;
      if (cookie === null) throw errors.invalidRequest({ location: 'body', field: 'value', reason: 'not allowed for this cookie' });
      // The same rule as the session cookie (auth/routes.ts): behind a TLS-terminating proxy
      // request.protocol follows X-Forwarded-Proto (trustProxy in production), and an https
      // PUBLIC_URL marks every cookie Secure even where the proxy does not say so.
      const secure = request.protocol === 'https' || app.fanstage.config.publicUrl.startsWith('https://');
      reply.header('Set-Cookie', setCookieHeader(cookie, secure));
      return ok;
    },
  );
}

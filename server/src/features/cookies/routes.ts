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
      reply.header('Set-Cookie', setCookieHeader(cookie, request.protocol === 'https'));
      return ok;
    },
  );
}

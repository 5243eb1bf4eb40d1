import { CookieBody } from '../../../../lib/contract/account';
import { OkEnvelope } from '../../../../lib/contract/envelope';
import type { App } from '../../context';
import { errors } from '../../errors';
import { ok } from '../../http/envelope';
import { sessionMarker } from '../auth/domain';
import { consentCookie, cookieToSet, isCookieName, setCookieHeader } from './domain';
import type { FeatureOptions } from '../feature';

export async function cookiesFeature(app: App, _options: FeatureOptions): Promise<void> {
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
      // request.protocol follows X-Forwarded-Proto (from a proxy TRUST_PROXY trusts), and an https
      // PUBLIC_URL marks every cookie Secure even where the proxy does not say so.
      const secure = request.protocol === 'https' || app.fanstage.config.publicUrl.startsWith('https://');
      const headers = [setCookieHeader(cookie, secure)];
      // A browser's first consent, with no session marker yet, cannot hold a refresh cookie of
      // the site (signing in comes after the gate): it is marked signed out, so the site never
      // asks for a refresh it cannot get. A browser that agreed before may have signed in before
      // markers were written; it keeps its one try (docs/auth.md).
      const firstVisit = request.cookies[consentCookie.name] === undefined && request.cookies[sessionMarker.name] === undefined;
      if (name === 'accept' && firstVisit) {
        headers.push(setCookieHeader({ name: sessionMarker.name, value: sessionMarker.signedOut, maxAgeSeconds: sessionMarker.signedOutSeconds }, secure));
      }
      reply.header('Set-Cookie', headers.length === 1 ? headers[0] : headers);
      return ok;
    },
  );
}

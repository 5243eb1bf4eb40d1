import type { RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import type { App } from '../../context';
import { authenticate, optionalViewer } from './guard';

type Guard = typeof authenticate;

/** Which guard a route of a viewer scope gets: by the part of the API it belongs to. */
function guardOf(url: string): Guard | null {
  if (url.startsWith('/api/')) return authenticate;
  if (url.startsWith('/papi/')) return optionalViewer;
  return null;
}

/**
 * The scope of a feature's routes that know who calls: under `/api` the caller must be signed in
 * (`authenticate`), under `/papi` a token is optional (`optionalViewer`: visitors too, but a
 * token that is there must be good). The guard runs as the route's last preHandler, after what
 * the route checks of the request itself (`platformOnly`), and after validation, as before.
 *
 * The rest of a feature's routes — signing in and up, the providers' callbacks, the sandboxes,
 * the public reads that take no token — are declared on the feature's own instance, which has
 * no guard. A route under this scope outside `/api` and `/papi` is a mistake and throws.
 */
export async function viewerScope(app: App): Promise<{ api: App }> {
  let scope: App | undefined;
  await app.register(async (child) => {
    child.addHook('onRoute', (route: RouteOptions) => {
      const guard = guardOf(route.url);
      if (guard === null) throw new Error(`a route of a viewer scope outside /api and /papi: ${route.url}`);
      route.preHandler = [...[route.preHandler ?? []].flat(), guard];
    });
    scope = child;
  });
  if (scope === undefined) throw new Error('the viewer scope did not load');
  // In an object: a Fastify instance is a thenable, which an async function's return would await.
  return { api: scope };
}

/**
 * The cookie parser and every request's `viewer` (null until a guard sets it), for the whole
 * server: wrapped with fastify-plugin, as the decorator must reach the parent scope.
 */
export const viewers = fp(async (app: App) => {
  await app.register(cookie);
  app.decorateRequest('viewer', null);
}, { name: 'viewers' });

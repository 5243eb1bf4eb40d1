/**
 * CORS by trust (server/src/http/origins.ts): the platform's pages get credentialed CORS, every
 * other page the public tier — `*` without credentials. A widget on such a page calls with a
 * bearer token bound to its origin, which the guard checks; cookies never cross. Only `/papi`
 * and `/api` answer other origins at all.
 */
import cors from '@fastify/cors';
import type { Config } from '../config';
import type { App } from '../context';
import { sourceOfHeaders } from './origins';

const apiCors = {
  methods: ['GET', 'POST', 'PUT', 'DELETE'],
  allowedHeaders: ['Content-Type', 'Authorization', 'Apiversion', 'Language', 'Fanstage-Confirmation'],
  exposedHeaders: ['Apiversion', 'Language', 'X-Request-Id'],
  maxAge: 600,
};

export async function registerCors(app: App, config: Config): Promise<void> {
  await app.register(cors, {
    hideOptionsRoute: true,
    delegator: (request, callback) => {
      const url = request.url ?? '';
      const origin = request.headers.origin;
      const api = url.startsWith('/papi/') || url.startsWith('/api/');
      if (!api || origin === undefined) {
        callback(null, { origin: false });
        return;
      }
      const source = sourceOfHeaders(config, request.headers, request.protocol);
      callback(null, source.platform ? { ...apiCors, origin, credentials: true } : { ...apiCors, origin: '*', credentials: false });
    },
  });
}

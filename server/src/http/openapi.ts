/**
 * The OpenAPI document: swagger is registered before any route so that it sees them all, and
 * `GET /papi/openapi.json` serves the document, made once on the first read after every route
 * was registered (tests/server/openapi-spec.test.ts diffs it against SPEC §7).
 */
import swagger from '@fastify/swagger';
import type { Config } from '../config';
import type { App } from '../context';
import { API_VERSION } from './hooks';

/** Registers swagger; call it before the routes it should describe. */
export async function registerApiDocument(app: App, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fanstage API',
        version: API_VERSION,
        description:
          'Every answer is an envelope `{statusCode, statusText?, body?}`: 1 ok, 2 ok with body, -1 failure with a message key in statusText, -2 verification needed. See docs/api.md.',
      },
      servers: [{ url: config.publicUrl }],
    },
  });
}

/** `GET /papi/openapi.json`, left out of the document itself. */
export function registerApiDocumentRoute(app: App): void {
  let openapi: string | undefined;
  app.get('/papi/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    openapi ??= JSON.stringify(app.swagger());
    return reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-cache').send(openapi);
  });
}

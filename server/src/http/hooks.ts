import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, retryAfterSeconds } from '../db/availability';
import { AppError, keyForHttpStatus, httpStatusOf } from '../errors';
import { storageFailureOf } from '../media/storage-failures';
import { failure } from './envelope';
import { pickLanguage, type ApiLanguage } from './language';
import { registerInputBounds } from './input-bounds';
import { registerCompression } from './compression';

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer's language, from the request's `Language` header. */
    language: ApiLanguage;
  }
}

export const API_VERSION = '1.0';

/**
 * The SPEC §7 conventions every answer follows: the `Apiversion` and `Language` headers, and
 * the envelope for every failure — including the ones Fastify raises itself (bad JSON,
 * validation, body limits) — so a client never sees a bare error page or a stack trace.
 */
export function registerHttpConventions(app: FastifyInstance, notFound: (request: FastifyRequest, reply: FastifyReply) => boolean): void {
  app.decorateRequest('language', 'en');
  app.addHook('onRequest', (request, reply, done) => {
    const language = pickLanguage(request.headers.language);
    request.language = language;
    reply.header('Apiversion', API_VERSION);
    reply.header('Language', language);
    // The id its log lines carry, for a report about this answer (request-id.ts).
    reply.header('X-Request-Id', request.id);
    // Nothing this server sends is meant to be content-sniffed into something else.
    reply.header('X-Content-Type-Options', 'nosniff');
    done();
  });
  registerInputBounds(app);

  // An error is about this moment, not the resource: no browser or CDN may keep one, even where
  // the route had said its answer may be cached (the gift catalogue, settings) before it failed.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode >= 400) reply.header('Cache-Control', 'no-store');
    done(null, payload);
  });
  // Brotli or gzip for the answers the server writes itself (JSON above a kilobyte).
  registerCompression(app);

  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      // One line per refused request while the database is away, without the driver's whole client.
      request.log.warn({ code: (error as { code?: unknown }).code, reason: error.message }, 'database unavailable');
      return reply.code(503).header('Retry-After', String(retryAfterSeconds)).send(failure('service-unavailable'));
    }
    if (error instanceof AppError) {
      if (error.retryAfter !== undefined) reply.header('Retry-After', String(error.retryAfter));
      return reply.code(error.httpStatus).send(failure(error.key, error.body, error.statusCode));
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      const first = fastifyError.validation[0];
      const params = (first?.params ?? {}) as { missingProperty?: unknown; requiredProperties?: unknown };
      // Ajv names one missing property, TypeBox lists them; either way the first one is named.
      const missing = params.missingProperty ?? (Array.isArray(params.requiredProperties) ? params.requiredProperties[0] : undefined);
      const path = first?.instancePath ? first.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
      const field = [path, missing === undefined ? '' : String(missing)].filter(Boolean).join('.') || null;
      return reply.code(400).send(
        failure('invalid-request', {
          location: fastifyError.validationContext ?? 'body',
          field,
          reason: first?.message ?? 'invalid',
        }),
      );
    }
    switch (fastifyError.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.code(400).send(failure('invalid-json'));
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(413).send(failure('payload-too-large'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send(failure('unsupported-media-type'));
    }
    const status = fastifyError.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const key = keyForHttpStatus(status);
      return reply.code(status === httpStatusOf[key] ? status : 400).send(failure(key));
    }
    // The scratch disk full under a write of ours (an upload streamed to a temporary file).
    if (storageFailureOf(error) === 'full') {
      request.log.error({ code: (error as { code?: unknown }).code, reason: error.message }, 'disk full');
      return reply.code(httpStatusOf['storage-full']).send(failure('storage-full'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(failure('internal-error'));
  });

  app.setNotFoundHandler((request, reply) => {
    if (notFound(request, reply)) return;
    reply.code(404).send(failure('route-not-found'));
  });
}

/**
 * Fastify refuses some URLs before routing and before any hook runs: an escape that does not
 * decode (`%ED%A0%80`, `%C0%AE`) and a path parameter longer than `maxParamLength`. Its own
 * answer for them is a bare JSON error naming Fastify's internal code; this gives them the
 * envelope and the headers every other answer has (the `frameworkErrors` option of Fastify).
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const language = pickLanguage(request.headers.language);
  reply.header('Apiversion', API_VERSION).header('Language', language).header('X-Content-Type-Options', 'nosniff');
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const reason = error.code === 'FST_ERR_BAD_URL' ? 'not a valid url component' : 'too long';
    void reply.code(400).send(failure('invalid-request', { location: 'params', field: null, reason }));
    return;
  }
  request.log.error({ err: error }, 'unexpected framework error');
  void reply.code(500).send(failure('internal-error'));
}

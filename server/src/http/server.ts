/**
 * The Fastify instance itself, before anything is registered on it: the server's options (the
 * logger with its redaction, the body limit, the proxies trusted, request ids, the router's and
 * the validator's settings, framework errors in the envelope), the route table the OpenAPI check
 * and tests walk, and the public address learned once the server listens on a port of its own.
 */
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config';
import type { App } from '../context';
import { answerFrameworkError } from './hooks';
import { withRedactedRequests } from './log-redaction';
import { requestIds } from './request-id';

export interface RouteEntry {
  method: string;
  url: string;
  /** Left out of the OpenAPI document (static files and the document itself). */
  hidden: boolean;
}

/** Makes the instance with the server's options; `logger` is Fastify's option (default pino at `config.logLevel`). */
export function createServer(config: Config, logger: FastifyServerOptions['logger']): { app: App; routes: RouteEntry[] } {
  const app: App = Fastify({
    // No secret of a query string reaches a log line (http/log-redaction.ts).
    logger: withRedactedRequests(typeof logger === 'object' && logger !== null ? logger : { level: config.logLevel, ...(logger === false ? { enabled: false } : {}) }),
    // Fastify's default; written down because the error handler maps the limit to 413.
    bodyLimit: 1_048_576,
    // Load balancers and the CDN in front of the server terminate TLS and name the client
    // (TRUST_PROXY: how many of them, or which; one in production).
    trustProxy: config.trustProxy,
    // Each request's id, in its log lines and its answer's X-Request-Id (http/request-id.ts).
    genReqId: requestIds(config.trustProxy),
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    ajv: { customOptions: { removeAdditional: false } },
    // Bad URLs Fastify refuses before routing get the envelope too.
    frameworkErrors: answerFrameworkError,
    // A request that arrives while the server shuts down gets the envelope (features/health/routes.ts).
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // TypeBox checks bodies strictly (a number is not a string) and converts query strings
  // and path parameters, which always arrive as text.
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    const hidden = Boolean((route.schema as { hide?: boolean } | undefined)?.hide);
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, hidden });
  });

  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (config.publicUrlFromEnv || address === null || typeof address === 'string') return;
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    config.publicUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  });
  return { app, routes };
}

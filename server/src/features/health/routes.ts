import { BodyEnvelope, ErrorEnvelope } from '../../../../lib/contract/envelope';
import { Health } from '../../../../lib/contract/health';
import type { App } from '../../context';
import { retryAfterSeconds } from '../../db/availability';
import { failure, withBody } from '../../http/envelope';
import fp from 'fastify-plugin';
import type { FeatureOptions } from '../feature';

/** A readiness check that waits longer than this for the database calls it unreachable. */
const readinessTimeoutMs = 1_000;

/**
 * Liveness and readiness for a load balancer or process supervisor (docs/server.md "Health
 * checks"), and the answer to every request that arrives while the server shuts down:
 * `service-unavailable` with `Connection: close`, so a keep-alive client goes to another node.
 */
async function health(app: App, { database }: FeatureOptions): Promise<void> {
  const started = Date.now();
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('Connection', 'close');
    reply.header('Retry-After', String(retryAfterSeconds));
    return reply.code(503).send(failure('service-unavailable'));
  });

  const uptime = () => Math.floor((Date.now() - started) / 1000);
  const noStore = { 'Cache-Control': 'no-store' };

  app.get(
    '/papi/health/live',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process runs and answers (it never asks the database)',
        response: { 200: BodyEnvelope(Health) },
      },
    },
    async (_request, reply) => {
      reply.headers(noStore);
      return withBody<Health>({ status: 'live', uptime: uptime() });
    },
  );

  app.get(
    '/papi/health/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers within a second and the server is not shutting down',
        response: { 200: BodyEnvelope(Health), 503: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('readiness check timed out')), readinessTimeoutMs);
      });
      try {
        await Promise.race([database.ping(), timeout]);
      } catch (error) {
        request.log.warn({ err: error }, 'not ready: the database does not answer');
        return reply.code(503).header('Retry-After', String(retryAfterSeconds)).send(failure('service-unavailable'));
      } finally {
        clearTimeout(timer);
      }
      return withBody<Health>({ status: 'ready', uptime: uptime() });
    },
  );
}

/**
 * Wrapped with fastify-plugin: its answer to requests that arrive while the server shuts down is
 * a hook of every route, and its closing flag goes up before any other feature's shutdown.
 */
export const healthFeature = fp(health, { name: 'health' });


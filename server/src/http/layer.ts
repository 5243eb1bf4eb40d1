/**
 * The HTTP layer every answer passes through, registered before the features and in this
 * order: the OpenAPI document's swagger (so it sees every route after it), CORS, the static
 * site (the built pages and the not-found answer), the SPEC §7 conventions (envelopes, headers,
 * compression, input bounds; http/hooks.ts), and `/metrics` when METRICS_TOKEN is set.
 */
import type { App } from '../context';
import type { Infrastructure } from '../infrastructure';
import { registerMetrics } from '../metrics';
import { registerStaticRoutes } from '../features/static/routes';
import { registerHttpConventions } from './hooks';
import { registerCors } from './cors';
import { registerApiDocument } from './openapi';

export async function registerHttpLayer(app: App, { ctx, database, realtime, jobs }: Infrastructure): Promise<void> {
  const { config } = ctx;
  await registerApiDocument(app, config);
  await registerCors(app, config);
  const site = await registerStaticRoutes(app, ctx);
  registerHttpConventions(app, site.notFound);
  if (config.metricsToken !== undefined) registerMetrics(app, ctx, { token: config.metricsToken, jobs, realtime, poolStats: database.poolStats });
}

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createClock, type Clock } from './clock';
import { createJobs, type Jobs } from './jobs';
import { registerMetrics } from './metrics';
import type { Config } from './config';
import type { App, AppContext } from './context';
import { openDatabase, type DatabaseHandle } from './db';
import { guardStorage } from './media/storage-failures';
import { DiskStorage, type MediaStorage } from './media/storage';
import { openS3Storage } from './media/open-s3';
import { createUnlockKeys } from './media/unlock-keys';
import { API_VERSION, answerFrameworkError, registerHttpConventions } from './http/hooks';
import { sourceOfHeaders } from './http/origins';
import { withRedactedRequests } from './http/log-redaction';
import { requestIds } from './http/request-id';
import { trackWrites } from './http/writes';
import { createRealtime, type RealtimeOptions } from './realtime';
import { watchCommits } from './realtime/after-commit';
import { serving } from './serving';
import type { FeatureOptions, SharedServices } from './features/feature';
import { registerStaticRoutes } from './features/static/routes';
import { seedDemoContent } from './features/demo/service';
import { ensureGiftCatalogue } from './features/gifts/service';
import { ensureCreditPackages } from './features/payments/service';
import { publishBalances } from './features/payments/live';
import { publishCounts } from './features/notifications/live';
import { pushNotifications, vapidKeys } from './features/push/service';
import { createUserService } from './features/users/service';
import { createOAuthProviders } from './features/oauth/providers';
import { healthFeature } from './features/health/routes';
import { releaseFeature } from './features/release/routes';
import { viewers } from './features/auth/access';
import { authFeature } from './features/auth/routes';
import { oauthFeature } from './features/oauth/routes';
import { settingsFeature } from './features/settings/routes';
import { giftsFeature } from './features/gifts/routes';
import { translationsFeature } from './features/translations/routes';
import { usersFeature } from './features/users/routes';
import { socialFeature } from './features/social/routes';
import { partnerFeature } from './features/partner/routes';
import { cookiesFeature } from './features/cookies/routes';
import { mediaFeature } from './features/media/routes';
import { timelineFeature } from './features/timeline/routes';
import { searchFeature } from './features/search/routes';
import { postsFeature } from './features/posts/routes';
import { notificationsFeature } from './features/notifications/routes';
import { ledgerFeature } from './ledger/jobs';
import { paymentsFeature } from './features/payments/routes';
import { spendingFeature } from './features/spending/routes';
import { invitesFeature } from './features/invites/routes';
import { subscriptionsFeature } from './features/subscriptions/routes';
import { chatFeature } from './features/chat/routes';
import { callsFeature } from './features/calls/routes';
import { contactFeature } from './features/contact/routes';
import { abuseFeature } from './features/abuse/routes';
import { pushFeature } from './features/push/routes';
import { phoneFeature } from './features/phone/routes';
import { accountFeature } from './features/account/routes';
import { badgeFeature } from './features/badge/routes';
import { originProofsFeature } from './features/origins/routes';
import { linksFeature } from './features/links/routes';

export interface RouteEntry {
  method: string;
  url: string;
  /** Left out of the OpenAPI document (static files and the document itself). */
  hidden: boolean;
}

export interface BuildAppOptions {
  config: Config;
  /** Seed the demo people into an empty database (default true). */
  seed?: boolean;
  /** Fastify's logger option; defaults to pino at `config.logLevel`. */
  logger?: FastifyServerOptions['logger'];
  /** The websocket's heartbeat and limits (tests shorten the heartbeat). */
  realtime?: RealtimeOptions;
  /** The server's notion of now (default: the wall clock; tests may give one that stands still). */
  clock?: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    fanstage: AppContext & {
      database: DatabaseHandle;
      /** Every route registered, for the OpenAPI check and tests that walk the route table. */
      routes: readonly RouteEntry[];
      /** Timed work (renewals, lapsed holds); tests run a job at once with `jobs.runNow(name)`. */
      jobs: Jobs;
    };
  }
}

/**
 * Builds the whole server — database, media storage, every route — without listening, so
 * tests drive it with `inject()` or on a port of their choosing. Closing the app closes the
 * database.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app: App = Fastify({
    // No secret of a query string reaches a log line (http/log-redaction.ts).
    logger: withRedactedRequests(typeof options.logger === 'object' && options.logger !== null ? options.logger : { level: config.logLevel, ...(options.logger === false ? { enabled: false } : {}) }),
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

  await mkdir(config.dataDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    namedStatements: config.databaseNamedStatements,
    ...(config.databaseDirectUrl === undefined ? {} : { directUrl: config.databaseDirectUrl }),
    onConnectionError: (error) => app.log.warn({ code: (error as { code?: unknown }).code, reason: error.message }, 'database connection lost; the pool replaces it'),
  });
  app.addHook('onClose', async () => {
    await database.close();
  });
  // A full disk or an unreachable store answers 507 or 503, not 500 (media/storage-failures.ts).
  const storage: MediaStorage = guardStorage(config.s3 ? await openS3Storage(config.s3) : new DiskStorage(path.join(config.dataDir, 'media')), app.log);
  // The websocket server and the cross-node bus (Redis when REDIS_URL is set).
  const realtime = createRealtime(config, app.log, options.realtime);
  app.addHook('onClose', async () => realtime.close());
  const ctx: AppContext = { config, db: database.db, storage, unlockKeys: createUnlockKeys(config.jwtSecret), clock: options.clock ?? createClock(), realtime, log: app.log };
  // What the node holds for a moment (held pages, the accounts behind tokens) ends with any write.
  trackWrites(app, ctx);
  // Badge counts and balances reach the sockets once the transaction that changed them committed.
  watchCommits(database.db, {
    notified: (userIds) => void publishCounts(ctx, userIds),
    balances: (userIds) => void publishBalances(ctx, userIds),
    pushed: (items) => pushNotifications(ctx, items),
  });
  const jobs = createJobs(ctx, app.log, database.driver);
  app.decorate('fanstage', { ...ctx, database, routes, jobs });

  try {
    await ensureGiftCatalogue(ctx);
    await ensureCreditPackages(ctx);
    // Made on the first start and kept: browsers subscribe with the public key (features/push).
    await vapidKeys(ctx);
    if (options.seed ?? true) {
      const created = await seedDemoContent(ctx);
      if (created > 0) app.log.info({ users: created }, 'seeded demo content');
    }
  } catch (error) {
    await realtime.close();
    await database.close();
    throw error;
  }

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

  // Trust by origin (server/src/http/origins.ts): the platform's pages get credentialed CORS,
  // every other page the public tier — `*` without credentials. A widget on such a page calls
  // with a bearer token bound to its origin, which the guard checks; cookies never cross.
  const apiCors = {
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'Apiversion', 'Language', 'Fanstage-Confirmation'],
    exposedHeaders: ['Apiversion', 'Language', 'X-Request-Id'],
    maxAge: 600,
  };
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

  const site = await registerStaticRoutes(app, ctx);
  registerHttpConventions(app, site.notFound);
  if (config.metricsToken !== undefined) registerMetrics(app, ctx, { token: config.metricsToken, jobs, realtime, poolStats: database.poolStats });

  // The features, each an encapsulated plugin with its routes, socket messages and jobs. The
  // services several of them share are built once, here.
  const services: SharedServices = { users: createUserService(ctx), oauthProviders: createOAuthProviders(ctx) };
  const features: FeatureOptions = { ctx, jobs, database, realtime, services };
  await app.register(healthFeature, features);
  await app.register(releaseFeature, features);
  await app.register(viewers);
  await app.register(authFeature, features);
  await app.register(oauthFeature, features);
  await app.register(settingsFeature, features);
  await app.register(giftsFeature, features);
  await app.register(translationsFeature, features);
  await app.register(usersFeature, features);
  await app.register(socialFeature, features);
  await app.register(partnerFeature, features);
  await app.register(cookiesFeature, features);
  await app.register(mediaFeature, features);
  await app.register(timelineFeature, features);
  await app.register(searchFeature, features);
  await app.register(postsFeature, features);
  await app.register(notificationsFeature, features);
  await app.register(ledgerFeature, features);
  await app.register(paymentsFeature, features);
  await app.register(spendingFeature, features);
  await app.register(invitesFeature, features);
  await app.register(subscriptionsFeature, features);
  await app.register(chatFeature, features);
  await app.register(callsFeature, features);
  await app.register(contactFeature, features);
  await app.register(abuseFeature, features);
  await app.register(pushFeature, features);
  await app.register(phoneFeature, features);
  await app.register(accountFeature, features);
  await app.register(badgeFeature, features);
  await app.register(originProofsFeature, features);
  await app.register(linksFeature, features);
  // Last: its start hook runs after the features' own, its shutdown hook after theirs (a call
  // ended by the shutdown still tells both people before their sockets close with 1001).
  await app.register(serving, features);

  let openapi: string | undefined;
  app.get('/papi/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    openapi ??= JSON.stringify(app.swagger());
    return reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-cache').send(openapi);
  });

  return app;
}

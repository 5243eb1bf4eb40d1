import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Clock } from './clock';
import type { Config } from './config';
import { createServer } from './http/server';
import { registerHttpLayer } from './http/layer';
import { registerApiDocumentRoute } from './http/openapi';
import type { RealtimeOptions } from './realtime';
import { openInfrastructure } from './infrastructure';
import { serving } from './serving';
import type { FeatureOptions, SharedServices } from './features/feature';
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

export type { RouteEntry } from './http/server';

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

/**
 * Builds the whole server — database, media storage, every route — without listening, so
 * tests drive it with `inject()` or on a port of their choosing. Closing the app closes the
 * database.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  // The instance with its options and route table (http/server.ts).
  const { app, routes } = createServer(config, options.logger);
  // The database, media store, websocket, context and jobs; their shutdown hooks come first (infrastructure.ts).
  const infrastructure = await openInfrastructure(app, { config, seed: options.seed ?? true, realtime: options.realtime, clock: options.clock, routes });
  const { ctx, database, realtime, jobs } = infrastructure;
  // Swagger, CORS, the static site, the HTTP conventions and the metrics, before any feature (http/layer.ts).
  await registerHttpLayer(app, infrastructure);

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

  // The document's own route, left out of the document (http/openapi.ts).
  registerApiDocumentRoute(app);

  return app;
}

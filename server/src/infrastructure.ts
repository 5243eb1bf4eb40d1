/**
 * What every feature stands on, opened once per server: the database (closed with the app), the
 * media store, the websocket and its cross-node bus, the context the features get, the tracking
 * of writes, the publishing of counts and balances after a commit, the job timers, and the data
 * every start makes sure of (the gift catalogue, the credit packages, the push keys, the demo
 * people). It decorates the app with `fanstage`; the shutdown hooks it adds run in the order
 * they are added here (the database's, then the websocket's).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createClock, type Clock } from './clock';
import { createJobs, type Jobs } from './jobs';
import type { Config } from './config';
import type { App, AppContext } from './context';
import { openDatabase, type DatabaseHandle } from './db';
import { guardStorage } from './media/storage-failures';
import { DiskStorage, type MediaStorage } from './media/storage';
import { openS3Storage } from './media/open-s3';
import { createUnlockKeys } from './media/unlock-keys';
import type { RouteEntry } from './http/server';
import { trackWrites } from './http/writes';
import { createRealtime, type Realtime, type RealtimeOptions } from './realtime';
import { watchCommits } from './realtime/after-commit';
import { seedDemoContent } from './features/demo/service';
import { ensureGiftCatalogue } from './features/gifts/service';
import { ensureCreditPackages } from './features/payments/service';
import { publishBalances } from './features/payments/live';
import { publishCounts } from './features/notifications/live';
import { pushNotifications, vapidKeys } from './features/push/service';

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

export interface Infrastructure {
  ctx: AppContext;
  database: DatabaseHandle;
  realtime: Realtime;
  jobs: Jobs;
}

export interface InfrastructureOptions {
  config: Config;
  /** Seed the demo people into an empty database. */
  seed: boolean;
  realtime: RealtimeOptions | undefined;
  clock: Clock | undefined;
  /** The route table the app keeps (http/server.ts). */
  routes: readonly RouteEntry[];
}

/** Opens the database, the media store and the websocket, builds the context, and prepares the data every start needs. */
export async function openInfrastructure(app: App, options: InfrastructureOptions): Promise<Infrastructure> {
  const { config } = options;
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
  app.decorate('fanstage', { ...ctx, database, routes: options.routes, jobs });

  try {
    await ensureGiftCatalogue(ctx);
    await ensureCreditPackages(ctx);
    // Made on the first start and kept: browsers subscribe with the public key (features/push).
    await vapidKeys(ctx);
    if (options.seed) {
      const created = await seedDemoContent(ctx);
      if (created > 0) app.log.info({ users: created }, 'seeded demo content');
    }
  } catch (error) {
    await realtime.close();
    await database.close();
    throw error;
  }
  return { ctx, database, realtime, jobs };
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import type { Clock } from '../../server/src/clock';
import { databaseAt } from './pg-template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL database with every migration applied, which test databases are copied from (pg-template.ts). */
    pgTemplate: string;
  }
}

export interface TestServer {
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  baseUrl: string;
  /** The database it runs on (`memory://` for PGlite); another server may share it via `databaseUrl`. */
  databaseUrl: string;
  /** Its DATA_DIR (media under `media/`), removed on close. */
  dataDir: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Seed the demo people (default true). */
  seed?: boolean;
  /** Where the built front ends are looked for (default: the repository's dist). */
  webRoot?: string;
  /**
   * Run on this existing PostgreSQL database instead of a fresh one (it is not dropped on
   * close): a second node next to another test server, which owns the database.
   */
  databaseUrl?: string;
  /** JWT_SECRET, so nodes of one test accept each other's access tokens (default: a random one). */
  jwtSecret?: string;
  /** REDIS_URL of the server: nodes sharing one Redis deliver each other's realtime events. */
  redisUrl?: string;
  /** The websocket's heartbeat and limits. */
  realtime?: BuildAppOptions['realtime'];
  /** More configuration, as environment variables (e.g. TURN_URLS and TURN_SECRET). */
  env?: Record<string, string>;
  /** The server's clock (default: the wall clock, which tests may still advance). */
  clock?: Clock;
}

/**
 * A real server on a fresh database, listening on 127.0.0.1 on a free port: in-memory PGlite,
 * or — when DATABASE_URL is set — a new PostgreSQL database `fanstage_test_<random>` on that
 * server (a copy of the suite's migrated template), dropped again on close. Media go to a
 * temporary folder removed on close.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-test-'));
  const adminUrl = process.env.DATABASE_URL?.trim() || undefined;
  let databaseUrl = 'memory://';
  let dropDatabase: (() => Promise<void>) | undefined;

  if (options.databaseUrl !== undefined) {
    databaseUrl = options.databaseUrl;
  } else if (adminUrl !== undefined && adminUrl !== 'memory://') {
    const name = `fanstage_test_${randomBytes(6).toString('hex')}`;
    // A copy of the suite's migrated template where there is one (tests/support/pg-template.ts).
    const template = inject('pgTemplate');
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
    } finally {
      await admin.end();
    }
    databaseUrl = databaseAt(adminUrl, name);
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    };
  }

  let app: FastifyInstance | undefined;
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      ...(options.webRoot ? { WEB_ROOT: options.webRoot } : {}),
      ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
      ...(options.jwtSecret ? { JWT_SECRET: options.jwtSecret } : {}),
      ...options.env,
    });
    app = await buildApp({
      config,
      seed: options.seed ?? true,
      ...(options.realtime ? { realtime: options.realtime } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const started = app;
    let closed = false;
    return {
      app: started,
      baseUrl: `http://127.0.0.1:${port}`,
      databaseUrl,
      dataDir,
      async close() {
        if (closed) return;
        closed = true;
        try {
          await started.close();
        } finally {
          await dropDatabase?.();
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await app?.close().catch(() => {});
    await dropDatabase?.().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

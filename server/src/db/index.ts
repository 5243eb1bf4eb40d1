import { mkdirSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import * as schema from './schema';
import { isDatabaseUnavailable } from './availability';

export { schema };
/** The condition builders, re-exported so code outside the server workspace (tests) uses the server's own copy. */
export { and, eq, sql } from 'drizzle-orm';

/** The one database type services use, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The rows of a raw `db.execute`: node-postgres answers an object with `rows`, PGlite the same, some drivers an array. */
export const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []));

export interface DatabaseHandle {
  db: Database;
  /** `pglite` for the embedded database, `postgres` for a PostgreSQL server. */
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** Runs `select 1`: resolves when the database answers, rejects when it cannot be reached (readiness). */
  ping(): Promise<void>;
  /** The PostgreSQL pool's connections and the queries waiting for one (absent for PGlite). */
  poolStats?: () => { total: number; idle: number; waiting: number };
}

/** The database could not be opened at start, for a reason the operator can act on; `message` says which. */
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError';
}

/** Host, port and database of a connection string, without its password. */
function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** Below this much free space an embedded database that fails to open is taken to have run out of disk. */
const lowDiskBytes = 64 * 1024 * 1024;

async function explainEmbeddedFailure(dir: string | undefined, error: unknown): Promise<string> {
  const reason = error instanceof Error ? error.message : String(error);
  if (dir === undefined) return `The in-memory database could not start (${reason}).`;
  const code = (error as { code?: unknown }).code;
  let free: number | undefined;
  try {
    const stats = await statfs(dir);
    free = stats.bavail * stats.bsize;
  } catch {
    // The folder itself may be what is wrong; the message below covers it.
  }
  if (code === 'ENOSPC' || (free !== undefined && free < lowDiskBytes)) {
    return `The embedded database in ${dir} could not be opened: the disk is full (${free === undefined ? 'no' : Math.floor(free / 1024 / 1024)} MB free). Free some space and start again.`;
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return `The embedded database in ${dir} could not be opened: the server may not write there (${reason}). Give it write access or set DATA_DIR to a folder it may write.`;
  }
  return (
    `The embedded database in ${dir} could not be opened (${reason}). Its files are damaged or were written by another version of the database. ` +
    'Restore the folder from a backup, or move it aside to start with an empty database (docs/server.md, "The embedded database").'
  );
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Any fixed number works as long as every node uses the same one: it serialises migrations
 * when several nodes start against one PostgreSQL server at the same time.
 */
export const startupLockKey = 722_061_001;

/**
 * Brings a PostgreSQL database up to date in one transaction that holds a transaction-scoped
 * advisory lock: the second of two nodes starting together waits, then finds nothing to do.
 * A session lock would not hold behind a transaction pooler (the lock and the unlock can reach
 * different server connections, or the lock outlive the node on one the pooler keeps). The
 * bookkeeping is Drizzle's own (`drizzle.__drizzle_migrations`, each file's SHA-256 and its
 * journal time), so databases migrated by `drizzle-kit migrate` or an earlier server go on.
 */
async function migratePostgres(client: pg.ClientBase): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder });
  await client.query('begin');
  try {
    await client.query('select pg_advisory_xact_lock($1)', [startupLockKey]);
    await client.query('create schema if not exists drizzle');
    await client.query('create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
    const last = await client.query<{ created_at: string }>('select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1');
    const appliedUntil = last.rows[0] === undefined ? -Infinity : Number(last.rows[0].created_at);
    for (const migration of migrations) {
      if (migration.folderMillis <= appliedUntil) continue;
      for (const statement of migration.sql) await client.query(statement);
      await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [migration.hash, migration.folderMillis]);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  }
}

/**
 * A connection that sends every statement unnamed, for a transaction pooler: PostgreSQL keeps a
 * named statement on the server connection that parsed it, and behind the pooler the next
 * query may run on another one, which has it not (`prepared statement … does not exist`) or
 * has another of that name (`… already exists`). Unnamed, each is parsed where it runs.
 */
class UnnamedStatementClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config] = args;
    if (config !== null && typeof config === 'object' && 'name' in config && typeof (config as { submit?: unknown }).submit !== 'function') {
      const { name: _name, ...unnamed } = config as { name?: string };
      args[0] = unnamed;
    }
    return (super.query as (...values: unknown[]) => never)(...args);
  }
}

/**
 * The contrib extensions the migrations create (search: accents and typos). PostgreSQL ships
 * them with its server; PGlite has each as a bundle of its own, loaded when the database opens.
 */
export const pgliteExtensions = { unaccent, pg_trgm };

let migratedMemoryImage: Promise<File | Blob> | undefined;

/**
 * The files of an in-memory database with every migration applied, made once per process.
 * PGlite's own start (initdb) takes most of a second and a half; a database loaded from these
 * files is ready in a third of a second, which counts where one process opens many (the
 * tests). The migrations still run on each copy, and find nothing left to do.
 */
function memoryImage(): Promise<File | Blob> {
  migratedMemoryImage ??= (async () => {
    const client = new PGlite({ extensions: pgliteExtensions });
    try {
      await client.waitReady;
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
      return await client.dumpDataDir('none');
    } finally {
      await client.close();
    }
  })();
  // A failure is not kept: the next database opened tries again, and reports its own error.
  migratedMemoryImage.catch(() => {
    migratedMemoryImage = undefined;
  });
  return migratedMemoryImage;
}

/**
 * Opens the database and brings its schema up to date with the committed migrations.
 * `databaseUrl` undefined → PGlite files under `${dataDir}/db`; `memory://` → in-memory PGlite;
 * otherwise a PostgreSQL server.
 */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  /** Told of every connection that broke; the process goes on (the default ignores them). */
  onConnectionError?: (error: Error) => void;
  /** Statements prepared under names (default true); false behind a transaction pooler (Config.databaseNamedStatements). */
  namedStatements?: boolean;
  /** Where migrations run, when `databaseUrl` is a pooler (Config.databaseDirectUrl). */
  directUrl?: string;
}): Promise<DatabaseHandle> {
  const { databaseUrl, dataDir } = options;
  if (databaseUrl === undefined || databaseUrl === 'memory://') {
    let dir: string | undefined;
    if (databaseUrl === undefined) {
      dir = path.join(dataDir, 'db');
      mkdirSync(dir, { recursive: true });
    }
    let client: PGlite;
    try {
      client = dir === undefined ? new PGlite({ loadDataDir: await memoryImage(), extensions: pgliteExtensions }) : new PGlite(dir, { extensions: pgliteExtensions });
      await client.waitReady;
    } catch (error) {
      throw new DatabaseStartError(await explainEmbeddedFailure(dir, error), { cause: error });
    }
    const db = drizzlePglite({ client, schema });
    try {
      await migratePglite(db, { migrationsFolder });
    } catch (error) {
      await client.close();
      throw error;
    }
    return { db: db as unknown as Database, driver: 'pglite', close: () => client.close(), ping: async () => void (await client.query('select 1')) };
  }

  const pool = new pg.Pool({
    connectionString: databaseUrl,
    ...(options.namedStatements === false ? { Client: UnnamedStatementClient } : {}),
    max: 10,
    // While the server cannot be reached a request waits this long for a connection, then answers 503.
    connectionTimeoutMillis: 3_000,
    // A network cut with no reset (a failover, a dead host) is noticed by TCP keepalive.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // A connection that breaks — idle in the pool, or checked out for a transaction between two
  // queries (pg_ctl restart, pg_terminate_backend, a failover) — emits 'error' on its client. Without
  // a listener Node ends the process; with one, the query in flight fails, the transaction is
  // rolled back by PostgreSQL, the request is answered 503 and the pool replaces the client.
  const report = options.onConnectionError ?? (() => {});
  pool.on('error', (error) => report(error));
  pool.on('connect', (client) => client.on('error', (error) => report(error)));
  const migrationUrl = options.directUrl ?? databaseUrl;
  try {
    if (options.directUrl === undefined) {
      const client = await pool.connect();
      try {
        await migratePostgres(client);
      } finally {
        client.release();
      }
    } else {
      const client = new pg.Client({ connectionString: options.directUrl, connectionTimeoutMillis: 3_000 });
      client.on('error', () => {});
      await client.connect();
      try {
        await migratePostgres(client);
      } finally {
        await client.end();
      }
    }
  } catch (error) {
    await pool.end();
    if (!isDatabaseUnavailable(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    const variable = options.directUrl === undefined ? 'DATABASE_URL' : 'DATABASE_DIRECT_URL';
    throw new DatabaseStartError(
      `PostgreSQL at ${describeUrl(migrationUrl)} cannot be reached (${reason}). Start it, or point ${variable} at a server that runs; ` +
        'under a process supervisor the server is simply started again (docs/server.md).',
      { cause: error },
    );
  }
  const db = drizzlePg({ client: pool, schema });
  return {
    db: db as unknown as Database,
    driver: 'postgres',
    close: () => pool.end(),
    ping: async () => void (await pool.query('select 1')),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export { schema };
/** The condition builders, re-exported so code outside the server workspace (tests) uses the server's own copy. */
export { and, eq, sql } from 'drizzle-orm';

/** The one database type services use, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  /** `pglite` for the embedded database, `postgres` for a PostgreSQL server. */
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Any fixed number works as long as every node uses the same one: it serialises migrations
 * and seeding when several nodes start against one PostgreSQL server at the same time.
 */
export const startupLockKey = 722_061_001;

/**
 * Opens the database and brings its schema up to date with the committed migrations.
 * `databaseUrl` undefined → PGlite files under `${dataDir}/db`; `memory://` → in-memory PGlite;
 * otherwise a PostgreSQL server.
 */
export async function openDatabase(options: { databaseUrl: string | undefined; dataDir: string }): Promise<DatabaseHandle> {
  const { databaseUrl, dataDir } = options;
  if (databaseUrl === undefined || databaseUrl === 'memory://') {
    let dir: string | undefined;
    if (databaseUrl === undefined) {
      dir = path.join(dataDir, 'db');
      mkdirSync(dir, { recursive: true });
    }
    const client = dir === undefined ? new PGlite() : new PGlite(dir);
    await client.waitReady;
    const db = drizzlePglite({ client, schema });
    try {
      await migratePglite(db, { migrationsFolder });
    } catch (error) {
      await client.close();
      throw error;
    }
    return { db: db as unknown as Database, driver: 'pglite', close: () => client.close() };
  }

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [startupLockKey]);
      try {
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [startupLockKey]);
      }
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = drizzlePg({ client: pool, schema });
  return { db: db as unknown as Database, driver: 'postgres', close: () => pool.end() };
}

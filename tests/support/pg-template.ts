import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/src/db';

/** `adminUrl` with its database replaced by `name`. */
export function databaseAt(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The server suite's global set-up on PostgreSQL: the migrations run once, into a template, and
 * each test's fresh database is a copy of it (`create database … template`), which PostgreSQL
 * makes from the files in a fraction of the time the 20-odd migrations take. The server still runs
 * its migrations on the copy at start and finds nothing left to do. On PGlite the same is done
 * in-process (server/src/db: the migrated memory image).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const adminUrl = process.env.DATABASE_URL?.trim() || '';
  if (adminUrl === '' || adminUrl === 'memory://') return undefined;
  const name = `fanstage_template_${randomBytes(6).toString('hex')}`;
  await onAdmin(adminUrl, (client) => client.query(`create database ${name}`));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-template-'));
  try {
    const database = await openDatabase({ databaseUrl: databaseAt(adminUrl, name), dataDir });
    await database.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  project.provide('pgTemplate', name);
  return async () => {
    await onAdmin(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
  };
}

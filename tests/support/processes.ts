import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';

/**
 * The server as an operator runs it: `node --import tsx server/src/main.ts`, a process of its
 * own that can be killed, restarted on the same data and stopped by a signal. Tests arrange
 * the database first with an app of their own (`openArrangingApp`), closed before the process
 * starts: a PGlite folder may be opened by one process at a time.
 */

const root = path.join(import.meta.dirname, '..', '..');
/** Starting a process compiles the server with tsx; generous, so a slow machine does not fail a test. */
const startPatience = 60_000;

import { freePort } from './ports';

export { freePort };

/**
 * The database a test's processes share: when DATABASE_URL names a PostgreSQL server, a new
 * database `fanstage_test_<random>` on it (dropped by `drop`); otherwise `undefined`, which
 * makes the server keep PGlite files under its DATA_DIR.
 */
export interface ProcessDatabase {
  databaseUrl: string | undefined;
  driver: 'pglite' | 'postgres';
  drop(): Promise<void>;
}

export async function freshProcessDatabase(): Promise<ProcessDatabase> {
  const adminUrl = process.env.DATABASE_URL?.trim() || undefined;
  if (adminUrl === undefined || adminUrl === 'memory://') return { databaseUrl: undefined, driver: 'pglite', drop: async () => {} };
  const name = `fanstage_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    driver: 'postgres',
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface ProcessSettings {
  dataDir: string;
  /** undefined: PGlite files under `dataDir`. */
  databaseUrl: string | undefined;
  /** Shared with the arranging app, so the access tokens it issued are accepted. */
  jwtSecret: string;
}

/** The environment a server process (or `npm run reconcile`) of these settings runs with. */
function environment(settings: ProcessSettings, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATA_DIR: settings.dataDir, JWT_SECRET: settings.jwtSecret, ...extra };
  // The test runner's DATABASE_URL is the server to make databases on, not this test's database;
  // its REDIS_URL would join this process to other tests' realtime traffic.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  if (settings.databaseUrl !== undefined) env.DATABASE_URL = settings.databaseUrl;
  return env;
}

/**
 * An app on the test's database (no demo people, not listening) to arrange accounts, money and
 * media with the server's own code; close it before a process opens a PGlite folder.
 */
export async function openArrangingApp(settings: ProcessSettings): Promise<FastifyInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: settings.dataDir,
    ...(settings.databaseUrl === undefined ? {} : { DATABASE_URL: settings.databaseUrl }),
    JWT_SECRET: settings.jwtSecret,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  return buildApp({ config, seed: false });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** How the process ended: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it wrote (its log at LOG_LEVEL warn, and any crash), for a failing test's message. */
  output(): string;
}

/** Starts `server/src/main.ts` and resolves once it answers `GET /papi/settings`. */
export async function startServerProcess(settings: ProcessSettings, options: { port?: number; env?: Record<string, string>; patience?: number } = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: environment(settings, { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, ...options.env }),
  });
  const chunks: string[] = [];
  child.stdout!.on('data', (data: Buffer) => chunks.push(data.toString()));
  child.stderr!.on('data', (data: Buffer) => chunks.push(data.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const server: ServerProcess = { child, port, baseUrl, exited, output: () => chunks.join('') };

  const deadline = Date.now() + (options.patience ?? startPatience);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server process exited while starting:\n${server.output()}`);
    try {
      if ((await fetch(`${baseUrl}/papi/settings`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server process did not answer on ${baseUrl}:\n${server.output()}`);
}

/** Sends `signal` (SIGTERM: the supervisor's stop) and waits for the process to end. */
export async function stopServerProcess(server: ServerProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (server === undefined) return { code: null, signal: null };
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/** Runs `server/scripts/reconcile.ts` — what `npm run reconcile` runs — on the test's database. */
export function runReconcileScript(settings: ProcessSettings): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/scripts/reconcile.ts')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: environment(settings, {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

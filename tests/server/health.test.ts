import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../server/src/db/availability';
import { DatabaseStartError, openDatabase } from '../../server/src/db';
import { startTestServer, type TestServer } from '../support/server';

const root = path.join(import.meta.dirname, '..', '..');

describe('health checks', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers liveness and readiness, never cached', async () => {
    for (const [url, status] of [
      ['/papi/health/live', 'live'],
      ['/papi/health/ready', 'ready'],
    ] as const) {
      const response = await fetch(`${server.baseUrl}${url}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const envelope = (await response.json()) as { statusCode: number; body: Record<string, unknown> };
      expect(envelope.statusCode).toBe(2);
      expect(envelope.body.status).toBe(status);
      expect(envelope.body.uptime).toBeGreaterThanOrEqual(0);
      // Which database runs is nobody's business outside the server.
      expect(Object.keys(envelope.body).sort()).toEqual(['status', 'uptime']);
    }
  });

  it('an error answer is never cached, even on a route whose answers may be', async () => {
    const missing = await fetch(`${server.baseUrl}/papi/users/nobody-is-called-this`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const cached = await fetch(`${server.baseUrl}/papi/gifts`);
    expect(cached.headers.get('cache-control')).toBe('public, max-age=300');
  });
});

describe('what counts as the database being away', () => {
  const error = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it('connection failures, terminations and restarts, however wrapped', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08003', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT']) expect(isDatabaseUnavailable(error(code)), code).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    // drizzle wraps the driver's error as its cause; Node reports a refused dual-stack connect as an AggregateError.
    expect(isDatabaseUnavailable(new Error('Failed query: insert …', { cause: error('57P01') }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([error('ECONNREFUSED'), error('ECONNREFUSED')], ''))).toBe(true);
  });

  it('not a request\'s fault or a bug: constraint violations, conflicts, syntax, plain errors', () => {
    for (const code of ['23505', '23503', '40001', '40P01', '42601', '22P02']) expect(isDatabaseUnavailable(error(code)), code).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(isDatabaseUnavailable(loop)).toBe(false);
  });
});

describe('an embedded database that cannot be opened', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-broken-'));
    // A database folder whose files are not a database's: what a damaged disk or a half copy leaves.
    mkdirSync(path.join(dataDir, 'db', 'global'), { recursive: true });
    await writeFile(path.join(dataDir, 'db', 'PG_VERSION'), 'not a version\n');
    await writeFile(path.join(dataDir, 'db', 'global', 'pg_control'), 'not a control file');
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says which folder, what is likely wrong and what to do', async () => {
    const opened = openDatabase({ databaseUrl: undefined, dataDir });
    await expect(opened).rejects.toBeInstanceOf(DatabaseStartError);
    await expect(opened).rejects.toThrow(/embedded database in .*fanstage-broken-.*\/db could not be opened.*damaged.*backup/s);
  });

  it('the server process exits with that message and no stack trace', { timeout: 60_000 }, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Fanstage failed to start: The embedded database in .* could not be opened/m);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});

describe('a PostgreSQL server that cannot be reached at start', () => {
  // Nothing listens on 127.0.0.2 here (the machine's PostgreSQL binds 127.0.0.1): refused at once.
  it('says where it looked, without the password, and what to do', async () => {
    const opened = openDatabase({ databaseUrl: 'postgres://fanstage:s3cret-word@127.0.0.2/fanstage', dataDir: tmpdir() });
    await expect(opened).rejects.toBeInstanceOf(DatabaseStartError);
    const error = (await opened.catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^PostgreSQL at 127\.0\.0\.2:5432\/fanstage cannot be reached \(.+\)\. Start it, or point DATABASE_URL at a server that runs/);
    expect(error.message).not.toContain('s3cret-word');
    expect(isDatabaseUnavailable(error.cause)).toBe(true);
  });
});

// What every part of `npm run bench` shares (bench/run.ts): the server processes it starts and
// stops (a free port, a readiness poll, a fresh PostgreSQL database for the real server), the
// load generator with its warm-up, the bare Fastify yardstick every throughput ratio divides by,
// the lines it prints, and the budget checks whose failures the run reports at its end.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const root = join(import.meta.dirname, '..');
export const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process, from /proc (Linux). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}

export async function startProcess(entry: string, env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    try {
      const res = await fetch(readyUrl);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${entry} did not answer ${readyUrl} within 60 s`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export async function load(url: string, headers: Record<string, string> = {}): Promise<{ rps: number; p99: number; non2xx: number; errors: number }> {
  return loadWith(url, headers);
}

/** `load`, each request rewritten by `setup` first when given (a distinct query per request). */
export async function loadWith(url: string, headers: Record<string, string>, setup?: (request: { path: string }) => { path: string }): Promise<{ rps: number; p99: number; non2xx: number; errors: number }> {
  const requests = setup ? [{ setupRequest: setup as never }] : undefined;
  // A short warm-up so the JIT and connection pools are in their steady state.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2, requests });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION, requests });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** What went over budget in this run; bench/run.ts prints them at the end and exits non-zero. */
export const failures: string[] = [];
export function check(name: string, value: number, budget: number, higherIsBetter = false) {
  const ok = higherIsBetter ? value >= budget : value <= budget;
  if (!ok) failures.push(`${name}: ${value} (budget ${budget})`);
  return ok ? 'ok' : 'OVER BUDGET';
}

export type LoadResult = Awaited<ReturnType<typeof load>>;
export const line = (name: string, r: LoadResult) =>
  `  ${name.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(3)} ms  non-2xx ${r.non2xx}  errors ${r.errors}`;
export const ratioLine = (name: string, ratio: number, budget: number | null, label: string) =>
  `  ${`ratio ${name}`.padEnd(44)} ${ratio.toFixed(2).padStart(7)}        ${budget === null ? '(recorded)' : `budget ≥ ${budget}  ${check(label, Number(ratio.toFixed(2)), budget, true)}`}`;

/** The bare Fastify hello-world's throughput: the yardstick the ratios divide by. */
export async function measureHello(): Promise<LoadResult> {
  console.log(`\nThroughput (autocannon, ${CONNECTIONS} connections, ${DURATION} s after a 2 s warm-up)`);
  const helloPort = await freePort();
  const hello = await startProcess('bench/hello.ts', { PORT: String(helloPort) }, `http://127.0.0.1:${helloPort}/`);
  let helloResult: LoadResult;
  try {
    helloResult = await load(`http://127.0.0.1:${helloPort}/`);
  } finally {
    await stop(hello);
  }
  console.log(line('bare Fastify hello-world', helloResult));
  return helloResult;
}

/** Runs `work` with the real server (its own process, `NODE_ENV=production`) on a fresh PostgreSQL database `name`. */
export async function withServerOnPostgres<T>(
  name: string,
  work: (server: { base: string; port: number; child: ChildProcess; dbUrl: string; secret: string }) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const adminUrl = process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'fanstage-bench-'));
  // Production refuses to start without a key; a throw-away one serves a benchmark.
  const secret = randomBytes(32).toString('base64url');
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = await startProcess(
      'server/src/main.ts',
      { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', FANSTAGE_STAGING: '1', DATABASE_URL: dbUrl.toString(), JWT_SECRET: secret, ...env },
      `${base}/papi/settings`,
    );
    try {
      return await work({ base, port, child, dbUrl: dbUrl.toString(), secret });
    } finally {
      await stop(child);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    // BENCH_KEEP_DB=1 leaves the database behind, to look at query plans.
    if (!process.env.BENCH_KEEP_DB) {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    }
  }
}

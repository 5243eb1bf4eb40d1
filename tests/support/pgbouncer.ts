import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes';

const run = promisify(execFile);

/** Debian's PgBouncer (`apt-get install pgbouncer`), where CI installs it. */
export const pgbouncerBin = '/usr/sbin/pgbouncer';
export const hasPgBouncer = (): boolean => existsSync(pgbouncerBin);

/**
 * A PgBouncer of the test's own in transaction pooling — what Neon, Supabase's pooler and most
 * managed PostgreSQL set-ups put in front of the database: each transaction (and each statement
 * outside one) may run on another server connection, so nothing a session keeps (named prepared
 * statements, session advisory locks, `SET`) survives from one to the next.
 */
export interface PgBouncer {
  /** `url` with its host and port replaced by the pooler's. */
  pooled(url: string): string;
  stop(): Promise<void>;
  /** What PgBouncer logged, for a failing test's message. */
  output(): string;
}

/** Starts PgBouncer in front of the PostgreSQL server of `upstreamUrl` (trust auth, as on this machine). */
export async function startPgBouncer(upstreamUrl: string, options: { poolSize?: number } = {}): Promise<PgBouncer> {
  const upstream = new URL(upstreamUrl);
  const dir = await mkdtemp(path.join(tmpdir(), 'fanstage-pgbouncer-'));
  const port = await freePort();
  const user = decodeURIComponent(upstream.username || 'postgres');
  const ini = [
    '[databases]',
    `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    'max_client_conn = 2000',
    `default_pool_size = ${options.poolSize ?? 20}`,
    'ignore_startup_parameters = extra_float_digits',
    'server_reset_query =',
    '',
  ].join('\n');
  await writeFile(path.join(dir, 'pgbouncer.ini'), ini);
  await writeFile(path.join(dir, 'users.txt'), `"${user}" ""\n`);
  // PgBouncer refuses to run as root; as root it runs as the `postgres` user.
  const root = process.getuid?.() === 0;
  if (root) {
    const { stdout: uid } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    for (const file of ['', 'pgbouncer.ini', 'users.txt']) await chown(path.join(dir, file), Number(uid.trim()), Number(gid.trim()));
  }
  const args = [path.join(dir, 'pgbouncer.ini')];
  // A process group of its own, so stopping it reaches PgBouncer under runuser too.
  const child: ChildProcess = root
    ? spawn('runuser', ['-u', 'postgres', '--', pgbouncerBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(pgbouncerBin, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const chunks: string[] = [];
  child.stdout!.on('data', (data: Buffer) => chunks.push(data.toString()));
  child.stderr!.on('data', (data: Buffer) => chunks.push(data.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PgBouncer exited while starting:\n${chunks.join('')}`);
    const listening = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (listening) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`PgBouncer did not listen on ${port}:\n${chunks.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    pooled(url) {
      const pooled = new URL(url);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // Nothing of the test's lives in the pooler: it is stopped at once.
        process.kill(-child.pid!, 'SIGKILL');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
    output: () => chunks.join(''),
  };
}

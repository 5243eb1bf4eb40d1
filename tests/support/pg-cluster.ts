import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes';

const run = promisify(execFile);

/**
 * A PostgreSQL server of the test's own — initdb, pg_ctl start and stop — so a test can take the
 * database away from a running Fanstage server and bring it back, as a restart or failover does,
 * without touching the machine's shared server.
 */
export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  /** Starts it and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it the way `pg_ctl restart -m fast` begins: open transactions are aborted, backends terminated (57P01). */
  stop(): Promise<void>;
  /** Stops it at once and removes its files. */
  destroy(): Promise<void>;
}

/** The directory of initdb and pg_ctl: Debian's /usr/lib/postgresql/<version>/bin, the newest there. */
export function findPgBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

/** PostgreSQL refuses to run as root; as root the cluster belongs to the `postgres` user. */
async function asPostgres(command: string, args: string[]): Promise<void> {
  const root = process.getuid?.() === 0;
  await run(root ? 'runuser' : command, root ? ['-u', 'postgres', '--', command, ...args] : args, { timeout: 60_000 });
}

export async function createPgCluster(bin: string): Promise<PgCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fanstage-pg-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, 'data');
  const port = await freePort();
  await asPostgres(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c synchronous_commit=off`;
  const pgCtl = path.join(bin, 'pg_ctl');
  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => asPostgres(pgCtl, ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']),
    stop: () => asPostgres(pgCtl, ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']),
    async destroy() {
      await asPostgres(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

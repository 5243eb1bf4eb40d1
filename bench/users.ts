// The `users` part of `npm run bench` (bench/run.ts): a profile read, `GET /papi/users/lucy.rivers`,
// from the real server in production on PGlite (its own process, a throw-away data folder),
// against the bare Fastify yardstick (bench/harness.ts `measureHello`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { budgets } from './budgets';
import { failures, freePort, line, load, ratioLine, startProcess, stop, type LoadResult } from './harness';

/** `GET /papi/users/lucy.rivers` from the real server (its own process, PGlite, production) against the bare Fastify yardstick. */
export async function benchUsers(helloResult: LoadResult): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fanstage-bench-'));
  try {
    const apiPort = await freePort();
    const api = await startProcess(
      'server/src/main.ts',
      {
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        // The sandboxes are its only processor and identity provider, which production runs on a
        // staging server alone (docs/server.md, "Going to production").
        FANSTAGE_STAGING: '1',
        DATABASE_URL: '',
        // Production refuses to start without a key; a throw-away one serves a benchmark.
        JWT_SECRET: randomBytes(32).toString('base64url'),
      },
      `http://127.0.0.1:${apiPort}/papi/settings`,
    );
    let apiResult;
    try {
      apiResult = await load(`http://127.0.0.1:${apiPort}/papi/users/lucy.rivers`);
    } finally {
      await stop(api);
    }
    console.log(line('GET /papi/users/lucy.rivers (PGlite)', apiResult));
    console.log(ratioLine('profile / hello', apiResult.rps / helloResult.rps, budgets.throughputRatio, 'throughput ratio'));
    if (apiResult.non2xx > 0 || apiResult.errors > 0) failures.push('the API answered errors under load');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

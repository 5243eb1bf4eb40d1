// `npm run bench`: sizes of what a browser downloads, and the API's throughput measured against
// a bare Fastify server with the same load generator, so the ratio means something on any machine.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';

const root = join(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

/** Budgets: a run over one of them exits non-zero. */
const budgets = {
  loaderGzip: 4 * 1024,
  elementsGzip: 125 * 1024,
  webFirstLoadGzip: 135 * 1024,
  throughputRatio: 0.25,
};

function gzipSize(path: string): number {
  return gzipSync(readFileSync(path), { level: 9 }).length;
}

/** The JavaScript a first visit to the site downloads: the entry script and its modulepreloads. */
function webFirstLoad(): { files: string[]; bytes: number } {
  const html = readFileSync(join(root, 'dist/web/index.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)]
    .map((m) => m[1]!)
    .filter((f, i, all) => all.indexOf(f) === i);
  const bytes = files.reduce((sum, f) => sum + gzipSize(join(root, 'dist/web', f.replace(/^\//, ''))), 0);
  return { files, bytes };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function startProcess(entry: string, env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
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

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function load(url: string): Promise<{ rps: number; p99: number; non2xx: number; errors: number }> {
  // A short warm-up so the JIT and connection pools are in their steady state.
  await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const failures: string[] = [];
function check(name: string, value: number, budget: number, higherIsBetter = false) {
  const ok = higherIsBetter ? value >= budget : value <= budget;
  if (!ok) failures.push(`${name}: ${value} (budget ${budget})`);
  return ok ? 'ok' : 'OVER BUDGET';
}

for (const f of ['dist/embed/fanstage.js', 'dist/embed/fanstage-elements.js', 'dist/web/index.html']) {
  if (!existsSync(join(root, f))) throw new Error(`${f} is missing: run npm run build first`);
}

console.log('Sizes (gzip -9)');
const loader = gzipSize(join(root, 'dist/embed/fanstage.js'));
const elements = gzipSize(join(root, 'dist/embed/fanstage-elements.js'));
const web = webFirstLoad();
console.log(`  script-tag loader   dist/embed/fanstage.js           ${kb(loader).padStart(9)}  budget ${kb(budgets.loaderGzip)}  ${check('loader', loader, budgets.loaderGzip)}`);
console.log(`  elements bundle     dist/embed/fanstage-elements.js  ${kb(elements).padStart(9)}  budget ${kb(budgets.elementsGzip)}  ${check('elements', elements, budgets.elementsGzip)}`);
console.log(`  site first load     ${web.files.length} file(s) of dist/web           ${kb(web.bytes).padStart(9)}  budget ${kb(budgets.webFirstLoadGzip)}  ${check('web first load', web.bytes, budgets.webFirstLoadGzip)}`);

console.log(`\nThroughput (autocannon, ${CONNECTIONS} connections, ${DURATION} s after a 2 s warm-up)`);
const dataDir = mkdtempSync(join(tmpdir(), 'fanstage-bench-'));
try {
  const apiPort = await freePort();
  const api = await startProcess(
    'server/src/main.ts',
    {
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
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

  const helloPort = await freePort();
  const hello = await startProcess('bench/hello.ts', { PORT: String(helloPort) }, `http://127.0.0.1:${helloPort}/`);
  let helloResult;
  try {
    helloResult = await load(`http://127.0.0.1:${helloPort}/`);
  } finally {
    await stop(hello);
  }

  const ratio = apiResult.rps / helloResult.rps;
  const line = (name: string, r: typeof apiResult) =>
    `  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(3)} ms  non-2xx ${r.non2xx}  errors ${r.errors}`;
  console.log(line('GET /papi/users/lucy.rivers', apiResult));
  console.log(line('bare Fastify hello-world', helloResult));
  console.log(`  ratio                              ${ratio.toFixed(2).padStart(7)}        budget ≥ ${budgets.throughputRatio}  ${check('throughput ratio', Number(ratio.toFixed(2)), budgets.throughputRatio, true)}`);
  if (apiResult.non2xx > 0 || apiResult.errors > 0) failures.push('the API answered errors under load');
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

if (failures.length) {
  console.error(`\nOver budget:\n  ${failures.join('\n  ')}`);
  process.exitCode = 1;
}

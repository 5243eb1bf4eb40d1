// What a load balancer sees of a node during a burst of sign-ins: `/papi/health/live`'s latency
// while 200 sign-ins hash their passwords at once (issue 30: p99 within 100 ms, so a probe with
// a 1 s timeout never takes a busy node for a dead one). Password hashing runs in a bounded
// pool (server/src/features/auth/hashing.ts); without the bound the hashes held both cores.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

const SIGN_INS = 200;

/** One GET on a connection of its own, so the probe never queues behind a sign-in. */
function probe(url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`health answered ${response.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * Runs `work` while `url` is probed every 10 ms from a process of its own (health-probe.ts), as
 * a load balancer probes: in the process making the load, the probe would wait on that
 * process's own work. The probe's latencies, in ms, from a little before `work` to its end.
 */
export async function whileProbingHealth<T>(url: string, work: () => Promise<T>): Promise<{ result: T; latencies: number[] }> {
  const prober = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'health-probe.ts'), url], { stdio: ['pipe', 'pipe', 'pipe'] });
  let probed = '';
  prober.stdout.on('data', (chunk: Buffer) => (probed += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => prober.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    prober.stderr.once('data', () => resolve());
    prober.once('error', reject);
  });
  // A few probes first, so the work starts inside the probe's steady rhythm.
  await new Promise((resolve) => setTimeout(resolve, 200));
  let result: T;
  try {
    result = await work();
  } finally {
    prober.stdin.end();
  }
  if ((await exited) !== 0) throw new Error('the health probe failed');
  return { result, latencies: JSON.parse(probed) as number[] };
}

export async function benchSignIns(
  baseUrl: string,
  options: { budgetMs: number; check: (name: string, value: number, budget: number) => string },
): Promise<void> {
  // Two hundred people on two hundred networks (the server trusts the loopback proxy's
  // X-Forwarded-For), so the sign-in throttle, which counts per person and per network, holds none.
  const run = randomBytes(4).toString('hex');
  const people = Array.from({ length: SIGN_INS }, (_, i) => ({
    email: `bench.${run}.${i}@example.com`,
    password: `bench-${run}-${i}-password`,
    address: `10.${run.charCodeAt(0) % 200}.${Math.floor(i / 250)}.${(i % 250) + 1}`,
  }));
  for (let i = 0; i < people.length; i += 8) {
    await Promise.all(
      people.slice(i, i + 8).map(async ({ email, password, address }) => {
        const signup = await fetch(`${baseUrl}/papi/signup`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address }, body: JSON.stringify({ email, password }) });
        if (!signup.ok) throw new Error(`sign-up for the sign-in burst answered ${signup.status}`);
      }),
    );
  }

  const idle: number[] = [];
  for (let i = 0; i < 20; i++) idle.push(await probe(`${baseUrl}/papi/health/live`));

  const started = performance.now();
  const { result: statuses, latencies } = await whileProbingHealth(`${baseUrl}/papi/health/live`, () =>
    Promise.all(
      people.map(({ email, password, address }) =>
        fetch(`${baseUrl}/papi/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address }, body: JSON.stringify({ email, password }) }).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        }),
      ),
    ),
  );
  const seconds = (performance.now() - started) / 1000;

  const count = (status: number) => statuses.filter((s) => s === status).length;
  const others = statuses.filter((s) => s !== 200 && s !== 503).length;
  const p99 = Math.round(percentile(latencies, 99));
  console.log(`\nHealth during ${SIGN_INS} concurrent sign-ins (PostgreSQL, production mode)`);
  console.log(`  ${'sign-ins signed in / refused 503 / other'.padEnd(44)} ${count(200)} / ${count(503)} / ${others} in ${seconds.toFixed(1)} s`);
  console.log(`  ${'/papi/health/live idle p99'.padEnd(44)} ${Math.round(percentile(idle, 99)).toString().padStart(7)} ms     (recorded)`);
  console.log(
    `  ${'/papi/health/live p99 during the burst'.padEnd(44)} ${p99.toString().padStart(7)} ms     ${latencies.length} probes, max ${Math.round(Math.max(...latencies))} ms  budget ≤ ${options.budgetMs} ms  ${options.check('health p99 during sign-ins', p99, options.budgetMs)}`,
  );
  if (others > 0) throw new Error(`${others} sign-ins of the burst answered neither 200 nor 503`);
}

// `npm run bench`: sizes of what a browser downloads, and the API's throughput measured against
// a bare Fastify server with the same load generator, so the ratio means something on any machine.
// Each part is a module of its own (bench/sizes.ts, users.ts, feeds.ts, scale.ts, writes.ts,
// realtime.ts, signins.ts, lighthouse.ts, calls.ts); this file picks the parts BENCH_PARTS names,
// runs them in this order, and exits non-zero when one went over its budget (bench/budgets.ts).
import { benchCalls } from './calls';
import { benchLighthouse } from './lighthouse';
import { benchScale } from './scale';
import { benchWrites } from './writes';
import { benchSignIns } from './signins';
import { budgets } from './budgets';
import { benchSizes } from './sizes';
import { benchFeeds } from './feeds';
import { benchRealtime } from './realtime';
import { benchUsers } from './users';
import { check, failures, freePort, line, load, loadWith, measureHello, startProcess, stop, withServerOnPostgres, type LoadResult } from './harness';

/**
 * Which parts run: `BENCH_PARTS=feeds` measures only the feeds on PostgreSQL (no build needed);
 * the default runs everything.
 */
const parts = new Set((process.env.BENCH_PARTS ?? 'sizes,lighthouse,users,signins,feeds,scale,writes,realtime,calls').split(',').map((p) => p.trim()));

if (parts.has('sizes')) {
  await benchSizes();
}

// The yardstick, measured once in this run: every throughput ratio below divides by it. Only
// the parts that compare with it wait for it (BENCH_PARTS=sizes runs in seconds).
let helloResult: LoadResult = { rps: 0, p99: 0, non2xx: 0, errors: 0 };
if (parts.has('users') || parts.has('feeds') || parts.has('scale')) {
  helloResult = await measureHello();
}

if (parts.has('users')) {
  await benchUsers(helloResult);
}

if (parts.has('feeds')) {
  await benchFeeds(helloResult);
}

if (parts.has('scale')) {
  await benchScale({ hello: helloResult, load, loadWith, line, check, failures, withServerOnPostgres });
}

if (parts.has('writes')) {
  await benchWrites({ check, failures, withServerOnPostgres });
}

if (parts.has('realtime')) {
  await benchRealtime();
}

if (parts.has('signins')) {
  // On PostgreSQL, as production runs: the burst comes from many networks through a proxy on loopback.
  await withServerOnPostgres('fanstage_bench_signins', ({ base }) => benchSignIns(base, { budgetMs: budgets.healthDuringSignInsP99Ms, check }), { TRUST_PROXY: 'loopback' });
}

if (parts.has('lighthouse')) {
  await benchLighthouse({ budgets, check, freePort, startProcess, stop });
}

if (parts.has('calls')) {
  await benchCalls({ budgets, check, freePort, startProcess, stop, withServerOnPostgres });
}

if (failures.length) {
  console.error(`\nOver budget:\n  ${failures.join('\n  ')}`);
  process.exitCode = 1;
}

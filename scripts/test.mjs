#!/usr/bin/env node
// `npm test`: every test, each suite once, on one build.
//
//   node scripts/test.mjs                  all steps, in this order
//   node scripts/test.mjs unit e2e         only those steps (names below)
//
// Steps: build (what is missing or older than its sources, once for every suite that needs
// dist/), unit (unit and component tests), server, package, e2e. The server suite runs in full
// on PostgreSQL when DATABASE_URL names one (with Redis between nodes when REDIS_URL is set),
// and its embedded part on PGlite beside it, at the same time; without DATABASE_URL it runs in
// full on PGlite.
// docs/development.md explains the layout. Each step's time and each file's goes to
// .tmp/reports/, and scripts/test-report.mjs prints where the time went.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, staleParts } from './built.mjs';
import { warmScratchCache } from './scratch-apps.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const reports = join(root, '.tmp/reports');
const databaseUrl = process.env.DATABASE_URL?.trim() || '';
const onPostgres = databaseUrl !== '' && databaseUrl !== 'memory://';

/** The environment of a step on the embedded database, whatever the shell says. */
const embedded = { DATABASE_URL: '', REDIS_URL: '' };

function vitest(label, projects, env) {
  return {
    command: npx,
    args: ['vitest', 'run', ...projects.flatMap((project) => ['--project', project]), '--reporter=default', '--reporter=./tests/support/timings-reporter.ts'],
    env: { ...env, FANSTAGE_TIMINGS: join(reports, `${label}.vitest.json`) },
  };
}

const steps = {
  build: () => {
    const stale = staleParts();
    if (stale.length === 0) return [];
    return stale.map((part) => ({ command: npm, args: ['run', '--silent', part.script], env: {} }));
  },
  unit: () => [vitest('unit', ['unit', 'ui', 'ui-window'], embedded)],
  // On PostgreSQL the embedded part runs beside the full run: most of its files start server
  // processes and wait for them (start-up, crash, shutdown), time the full run fills. Its output
  // is kept in .tmp/reports/embedded.log and printed once it ends.
  server: () =>
    onPostgres
      ? [[vitest('server-pg', ['server'], { DATABASE_URL: databaseUrl }), { ...vitest('embedded', ['embedded'], embedded), log: join(reports, 'embedded.log') }]]
      : [vitest('server', ['server'], embedded)],
  package: () => [vitest('package', ['package'], embedded)],
  e2e: () => [{ command: npx, args: ['playwright', 'test'], env: { ...embedded, FANSTAGE_E2E_REPORT: join(reports, 'e2e.playwright.json') } }],
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in steps));
if (unknown.length > 0) {
  console.error(`Unknown step ${unknown.join(', ')}; the steps are ${Object.keys(steps).join(', ')}.`);
  process.exit(2);
}
const chosen = asked.length > 0 ? asked : Object.keys(steps);

const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (running.size === 0) process.exit(1);
    for (const child of running) child.kill(signal);
  });
}

/** Runs a command; with `log`, its output goes to that file and is printed when it ends. */
function run({ command, args, env, log }) {
  return new Promise((resolve) => {
    const output = log ? openSync(log, 'w') : undefined;
    const child = spawn(command, args, { cwd: root, stdio: output === undefined ? 'inherit' : ['ignore', output, output], env: { ...process.env, ...env } });
    running.add(child);
    child.on('exit', (code, signal) => {
      running.delete(child);
      if (output !== undefined) {
        closeSync(output);
        process.stdout.write(`\n--- ${args.join(' ')} (${log}):\n${readFileSync(log, 'utf8')}`);
      }
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** A step's commands run in order; a list among them runs side by side. Answers the first failing code. */
async function runAll(command) {
  if (!Array.isArray(command)) return run(command);
  const codes = await Promise.all(command.map(run));
  return codes.find((code) => code !== 0) ?? 0;
}

mkdirSync(reports, { recursive: true });
// A whole run starts its reports afresh (what .ci/run wrote beside them stays).
if (asked.length === 0) {
  for (const file of readdirSync(reports)) if (/\.(vitest|playwright)\.json$|^test-steps\.json$/.test(file)) rmSync(join(reports, file));
}
/** The machine's CPU time so far, busy and in all (Linux's /proc/stat), or null elsewhere. */
function cpuTicks() {
  try {
    const values = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = values.reduce((sum, value) => sum + value, 0);
    return { busy: total - values[3] - (values[4] ?? 0), total };
  } catch {
    return null;
  }
}

/** How busy the cores were between two readings, in per cent. */
function busyPercent(before, after) {
  if (!before || !after || after.total === before.total) return undefined;
  return Math.round((100 * (after.busy - before.busy)) / (after.total - before.total));
}

const times = [];
let failed;
// The package suite's downloads come in while the suites before it run (scripts/scratch-apps.mjs).
const warming = chosen.includes('package') && chosen[0] !== 'package' ? warmScratchCache() : Promise.resolve(false);
for (const name of chosen) {
  if (name === 'package') await warming;
  const started = Date.now();
  const ticks = cpuTicks();
  const label = name === 'server' ? (onPostgres ? 'server (PostgreSQL in full, PGlite the embedded part)' : 'server (PGlite)') : name;
  console.log(`\n=== npm test: ${label}`);
  for (const command of steps[name]()) {
    const code = await runAll(command);
    if (code !== 0) {
      failed = `${name} (exit ${code})`;
      break;
    }
  }
  times.push({ step: `test: ${name}`, seconds: Math.round((Date.now() - started) / 1000), cpu: busyPercent(ticks, cpuTicks()) });
  if (failed) break;
}
writeFileSync(join(reports, 'test-steps.json'), JSON.stringify(times));

await run({ command: process.execPath, args: [join(root, 'scripts/test-report.mjs')], env: {} });
if (failed) {
  console.error(`\nnpm test failed at ${failed}.`);
  process.exit(1);
}

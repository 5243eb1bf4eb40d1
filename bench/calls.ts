// The `calls` part of `npm run bench` (bench/run.ts): accept → first remote frame of our paid
// call, two Chromiums on fake camera and microphone against the built site on the real server,
// and of a bare simple-peer pair (bench/calls/) measured the same way in the same run; and what
// a page with only <fanstage-call> downloads. docs/performance.md says what is in the numbers.
// The people it signs in are in bench/calls/accounts.ts, what it reads from the pages in
// bench/calls/samples.ts.
import { chromium, type Browser, type Page } from '@playwright/test';
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { creatorName, demoPassword, prepareAccounts, signedIn, watchRefreshes, type ServerOnPostgres } from './calls/accounts';
import { median, notesOf, sampleOf, steps, type Sample } from './calls/samples';

export type { ServerOnPostgres } from './calls/accounts';

const root = join(import.meta.dirname, '..');

/** Calls of each kind measured, after one of each to warm up (`BENCH_CALL_RUNS`). */
const RUNS = Number(process.env.BENCH_CALL_RUNS ?? 7);

/** The flags of playwright.config.ts, the fake devices, and loopback WebRTC as in tests/e2e/calls.spec.ts. */
const launchArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--autoplay-policy=no-user-gesture-required',
];

/** What bench/run.ts lends this part. */
export interface CallsBenchDeps {
  budgets: { callAcceptRatio: number; callElementGzip: number };
  check(name: string, value: number, budget: number, higherIsBetter?: boolean): string;
  freePort(): Promise<number>;
  startProcess(entry: string, env: Record<string, string>, readyUrl: string): Promise<ChildProcess>;
  stop(child: ChildProcess): Promise<void>;
  withServerOnPostgres<T>(name: string, work: (server: ServerOnPostgres) => Promise<T>, env?: Record<string, string>): Promise<T>;
}

/** One browser-side script, built as a classic script by Vite (the bundler of the SDK and the elements). */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root,
    build: {
      write: false,
      minify: true,
      target: 'es2020',
      lib: { entry: join(root, entry), formats: ['iife'], name: 'BenchCalls', fileName: () => 'out.js' },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!('output' in output)) continue;
    for (const file of output.output) if (file.type === 'chunk' && file.isEntry) return file.code;
  }
  throw new Error(`no bundle for ${entry}`);
}

/**
 * Our call: she is on her timeline, the fan rings from her profile, she accepts on the
 * incoming-call screen; from that click to each page's first remote frame. The fan then hangs
 * up and both wait for the totals (the server closed the call) before the next run.
 */
async function ourCall(fan: Page, creator: Page, base: string): Promise<Sample> {
  await creator.goto(`${base}/timeline`);
  await creator.getByRole('heading', { level: 1 }).first().waitFor();
  await signedIn(creator);
  await fan.goto(`${base}/${creatorName}`);
  const button = fan.getByTestId('call-button');
  // The button shows before the session is restored from its cookie; a visitor's click asks to log in.
  await signedIn(fan);
  await button.and(fan.locator(':not([aria-disabled])')).waitFor({ timeout: 20_000 });
  await button.click();
  try {
    await fan.waitForURL(/\/videocall\//, { timeout: 20_000 });
  } catch (error) {
    await fan.screenshot({ path: '/tmp/bench-calls-fail.png' }).catch(() => undefined);
    const said = await fan.locator('body').innerText().catch(() => '');
    throw new Error(`the fan's call did not start (screenshot: /tmp/bench-calls-fail.png): ${said.replace(/\s+/g, ' ').slice(0, 400)}`, { cause: error });
  }
  const incoming = creator.getByRole('alertdialog', { name: /is calling$/ });
  await incoming.waitFor({ timeout: 20_000 });
  await incoming.getByRole('button', { name: 'Accept' }).click();
  const sample = await sampleOf(fan, creator);
  await fan.getByTestId('call-hang-up').click();
  await fan.getByTestId('call-totals').waitFor({ timeout: 20_000 });
  await creator.getByTestId('call-totals').waitFor({ timeout: 20_000 });
  await Promise.all([fan.goto('about:blank'), creator.goto('about:blank')]);
  return sample;
}

/** The bare pair: the callee's page opens, the caller's rings it, the callee accepts. */
async function bareCall(caller: Page, callee: Page, bareBase: string): Promise<Sample> {
  const room = randomBytes(8).toString('hex');
  await callee.goto(`${bareBase}/?role=callee&room=${room}`);
  await caller.goto(`${bareBase}/?role=caller&room=${room}`);
  const accept = callee.getByRole('button', { name: 'Accept' });
  await accept.waitFor({ timeout: 20_000 });
  await accept.click();
  const sample = await sampleOf(caller, callee);
  await Promise.all([caller.goto('about:blank'), callee.goto('about:blank')]);
  return sample;
}

/**
 * What a page holding only the script tag and one <fanstage-call> downloads from the platform's
 * /embed/ before its call button shows: each script measured as bench/run.ts measures the
 * bundles (gzip -9 of the built file).
 */
async function callElementFirstLoad(browser: Browser, platform: string, bareBase: string): Promise<{ files: string[]; bytes: number; otherRequests: number; ready: boolean }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const scripts: string[] = [];
    let otherRequests = 0;
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.resourceType() === 'script' && url.origin === platform && url.pathname.startsWith('/embed/')) scripts.push(url.pathname.slice('/embed/'.length));
      else if (url.origin === platform) otherRequests += 1;
    });
    await page.goto(`${bareBase}/element.html?platform=${encodeURIComponent(platform)}`);
    let ready = true;
    try {
      await page.getByTestId('call-button').waitFor({ timeout: 20_000 });
    } catch {
      ready = false;
    }
    await page.waitForLoadState('networkidle');
    const files = scripts.filter((file, i) => scripts.indexOf(file) === i);
    const bytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(join(root, 'dist/embed', file)), { level: 9 }).length, 0);
    return { files, bytes, otherRequests, ready };
  } finally {
    await context.close();
  }
}

const ms = (n: number) => `${n.toFixed(0).padStart(5)} ms`;

export async function benchCalls(deps: CallsBenchDeps): Promise<void> {
  console.log(`\nCalls: accept → first remote frame (${RUNS} calls of each after one to warm up, alternating; two Chromiums, fake devices, loopback)`);
  const loadBefore = loadavg()[0]!;
  const built = mkdtempSync(join(tmpdir(), 'fanstage-bench-calls-'));
  const browsers: Browser[] = [];
  let bare: ChildProcess | null = null;
  try {
    const probe = await bundle('bench/calls/probe.ts');
    writeFileSync(join(built, 'bare-page.js'), await bundle('bench/calls/bare-page.ts'));
    const barePort = await deps.freePort();
    const bareBase = `http://127.0.0.1:${barePort}`;
    bare = await deps.startProcess('bench/calls/bare-server.ts', { PORT: String(barePort), BENCH_CALLS_DIR: built }, `${bareBase}/`);
    // Two people on two machines: a browser each. The fan's also holds the bare caller, the creator's the bare callee.
    const fanBrowser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: launchArgs });
    browsers.push(fanBrowser);
    const creatorBrowser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: launchArgs });
    browsers.push(creatorBrowser);

    await deps.withServerOnPostgres(
      'fanstage_bench_calls',
      async (server) => {
        const person = async (browser: Browser) => {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
          await context.addInitScript({ content: probe });
          return { context, page: await context.newPage() };
        };
        const fan = await person(fanBrowser);
        const creator = await person(creatorBrowser);
        watchRefreshes(fan.context);
        watchRefreshes(creator.context);
        const bareCaller = await person(fanBrowser);
        const bareCallee = await person(creatorBrowser);
        await prepareAccounts(server, fan.context, creator.context, RUNS + 1);

        const ours: Sample[] = [];
        const bares: Sample[] = [];
        for (let run = 0; run <= RUNS; run++) {
          // Run 0 warms both up (caches, the JIT, the server's pools) and is not counted.
          const our = await ourCall(fan.page, creator.page, server.base);
          const theirs = await bareCall(bareCaller.page, bareCallee.page, bareBase);
          if (run === 0) continue;
          ours.push(our);
          bares.push(theirs);
          console.log(`  run ${run}: ours ${ms(our.callee)} (creator) ${ms(our.caller)} (fan)   bare ${ms(theirs.callee)} (callee) ${ms(theirs.caller)} (caller)`);
        }
        const via = (await notesOf(creator.page))?.via ?? 'requestVideoFrameCallback';
        const summary = (samples: Sample[]) => ({
          callee: median(samples.map((s) => s.callee)),
          caller: median(samples.map((s) => s.caller)),
          both: median(samples.map((s) => Math.max(s.callee, s.caller))),
        });
        const our = summary(ours);
        const theirs = summary(bares);
        console.log(`  (first frame by ${via}; medians; "both" = until each page shows the other, the later of the two per call)`);
        console.log(`  ${'our call (site, real server, PostgreSQL)'.padEnd(44)} creator ${ms(our.callee)}  fan    ${ms(our.caller)}  both ${ms(our.both)}`);
        console.log(`  ${'bare simple-peer pair (ws relay)'.padEnd(44)} callee  ${ms(theirs.callee)}  caller ${ms(theirs.caller)}  both ${ms(theirs.both)}`);
        console.log('  where the time goes (medians, ms after the accept click)          ours     bare');
        for (const [name] of steps) {
          const at = (samples: Sample[]) => median(samples.map((s) => s.steps[name]!).filter((v) => !Number.isNaN(v)));
          console.log(`    ${name.padEnd(62)} ${ms(at(ours))} ${ms(at(bares))}`);
        }
        console.log(`    ${'first remote frame, callee / caller'.padEnd(62)} ${ms(our.callee)} ${ms(theirs.callee)}  /  ${ms(our.caller)} ${ms(theirs.caller)}`);
        console.log(`  ${'ratio creator / callee, fan / caller'.padEnd(44)} ${(our.callee / theirs.callee).toFixed(2).padStart(7)}, ${(our.caller / theirs.caller).toFixed(2)}  (recorded)`);
        const ratio = our.both / theirs.both;
        console.log(
          `  ${'ratio ours / bare (both)'.padEnd(44)} ${ratio.toFixed(2).padStart(7)}        budget ≤ ${deps.budgets.callAcceptRatio}  ${deps.check('call accept → first frame ratio', Number(ratio.toFixed(2)), deps.budgets.callAcceptRatio)}`,
        );

        console.log(`  (load average ${loadBefore.toFixed(1)} before the calls, ${loadavg()[0]!.toFixed(1)} after, on ${cpus().length} cores)`);
        const element = await callElementFirstLoad(fanBrowser, server.base, bareBase);
        console.log(
          `  ${'<fanstage-call> alone, first load'.padEnd(44)} ${`${(element.bytes / 1024).toFixed(1)} KB`.padStart(9)}  budget ${(deps.budgets.callElementGzip / 1024).toFixed(1)} KB  ${deps.check('call element first load', element.bytes, deps.budgets.callElementGzip)}`,
        );
        console.log(`    scripts: ${element.files.join(', ') || '(none)'}; ${element.otherRequests} other request(s) to the platform; call button ${element.ready ? 'shown' : 'NOT shown'}`);
        if (!element.ready) deps.check('call element shows its button', 0, 1, true);
      },
      { DEMO_PASSWORD: demoPassword },
    );
  } finally {
    for (const browser of browsers) await browser.close();
    if (bare) await deps.stop(bare);
    rmSync(built, { recursive: true, force: true });
  }
}

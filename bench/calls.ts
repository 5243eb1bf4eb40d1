// The `calls` part of `npm run bench` (bench/run.ts): accept → first remote frame of our paid
// call, two Chromiums on fake camera and microphone against the built site on the real server,
// and of a bare simple-peer pair (bench/calls/) measured the same way in the same run; and what
// a page with only <fanstage-call> downloads. docs/performance.md says what is in the numbers.
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { TERMS_VERSION } from '../lib/contract/constants';
import { fanPriceCents } from '../lib/contract/rules/price';
import { openDatabase } from '../server/src/db';
import { account, inTransaction, transfer } from '../server/src/ledger';
import type { BenchNotes } from './calls/probe';

const root = join(import.meta.dirname, '..');

/** Calls of each kind measured, after one of each to warm up (`BENCH_CALL_RUNS`). */
const RUNS = Number(process.env.BENCH_CALL_RUNS ?? 7);
/** The creator and the fan: seeded demo accounts. */
const creatorName = 'lucy.rivers';
const fanName = 'tom.baker';
/** The demo accounts' password, given to the benchmark's server (production seeds none by default). */
const demoPassword = 'fanstage-demo';
/** Her price a minute: the 128-credit call step of SPEC §9, as in tests/e2e/calls.spec.ts. */
const callPrice = 128;

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

export interface ServerOnPostgres {
  base: string;
  port: number;
  child: ChildProcess;
  dbUrl: string;
  secret: string;
}

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

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const notesOf = (page: Page) => page.evaluate('window.__benchCalls ?? null') as Promise<BenchNotes | null>;

/** When the page's remote video presented its first decoded frame (wall-clock ms). */
async function firstFrame(page: Page): Promise<number> {
  // Polled from here (the site's CSP forbids a string predicate in the page); the probe keeps the time.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const at = (await notesOf(page))?.firstFrameAt ?? null;
    if (at !== null) return at;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no remote frame on ${page.url()} within 30 s`);
}

interface Sample {
  /** Accept → first remote frame on the callee's page (the creator, the one who accepted). */
  callee: number;
  /** Accept → first remote frame on the caller's page (the fan). */
  caller: number;
  /** Where the time went: milliseconds after the accept click of each step (see `steps`). */
  steps: Record<string, number>;
}

/**
 * The steps of the breakdown, in the order they happen: [name, whose page, the probe's events
 * that mark it — ours, then the bare pair's names where they differ].
 */
const steps: [string, 'callee' | 'caller', string[]][] = [
  ['callee has the camera', 'callee', ['camera']],
  ['callee says accept', 'callee', ['ws> preAnswer', 'ws> accept']],
  ['caller may start (callStart / accept)', 'caller', ['ws< callStart', 'ws< accept']],
  ['caller makes its peer', 'caller', ['peer']],
  ['caller sends the offer', 'caller', ['ws> rtcOffer', 'ws> signal offer']],
  ['callee gets the offer', 'callee', ['ws< rtcOffer', 'ws< signal offer']],
  ['callee makes its peer', 'callee', ['peer']],
  ['callee sends the answer', 'callee', ['ws> rtcOffer', 'ws> signal answer']],
  ['caller gets the answer', 'caller', ['ws< rtcOffer', 'ws< signal answer']],
  ['callee ICE connected', 'callee', ['ice:connected']],
  ['caller ICE connected', 'caller', ['ice:connected']],
  ['callee has the remote track', 'callee', ['track']],
  ['caller has the remote track', 'caller', ['track']],
  ['callee video gets the stream', 'callee', ['remote video attached']],
  ['caller video gets the stream', 'caller', ['remote video attached']],
];

/** Reads both pages' notes once both have their first frame. */
async function sampleOf(caller: Page, callee: Page): Promise<Sample> {
  await Promise.all([firstFrame(callee), firstFrame(caller)]);
  const [calleeNotes, callerNotes] = (await Promise.all([notesOf(callee), notesOf(caller)])) as [BenchNotes, BenchNotes];
  const accepted = calleeNotes.clickAt;
  if (accepted === null) throw new Error('the accept click was not seen');
  if (process.env.BENCH_CALL_TRACE) {
    // Every noted event of both pages after the accept click, in order (BENCH_CALL_TRACE=1).
    const all = [
      ...calleeNotes.events.map(([what, at]) => [at - accepted, `callee ${what}`] as const),
      ...callerNotes.events.map(([what, at]) => [at - accepted, `caller ${what}`] as const),
      [calleeNotes.firstFrameAt! - accepted, 'callee first frame'] as const,
      [callerNotes.firstFrameAt! - accepted, 'caller first frame'] as const,
    ]
      .filter(([at]) => at >= 0)
      .sort((a, b) => a[0] - b[0]);
    console.log(all.map(([at, what]) => `    ${at.toFixed(0).padStart(6)} ms  ${what}`).join('\n'));
  }
  const stepTimes: Record<string, number> = {};
  for (const [name, whose, event] of steps) {
    const found = (whose === 'callee' ? calleeNotes : callerNotes).events.find(([what, at]) => at >= accepted && event.includes(what));
    stepTimes[name] = found ? found[1] - accepted : Number.NaN;
  }
  return { callee: calleeNotes.firstFrameAt! - accepted, caller: callerNotes.firstFrameAt! - accepted, steps: stepTimes };
}

interface Envelope<T> {
  statusCode: number;
  statusText?: string;
  body: T;
}

async function api<T>(context: BrowserContext, method: 'get' | 'post' | 'put', url: string, data?: unknown, token?: string): Promise<T> {
  const response = await context.request[method](url, { data, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const envelope = (await response.json()) as Envelope<T>;
  if (!(envelope.statusCode > 0)) throw new Error(`${method.toUpperCase()} ${url}: ${JSON.stringify(envelope)}`);
  return envelope.body;
}

/** Signs `username` in within `context` as the site's login does (the refresh cookie), after agreeing to the terms as the site's banner does; answers an access token. */
async function signIn(context: BrowserContext, base: string, username: string): Promise<string> {
  const email = `${username}@example.com`;
  await api(context, 'post', `${base}/papi/users/cookie`, { name: 'accept', value: TERMS_VERSION });
  await api(context, 'post', `${base}/papi/login`, { email, password: demoPassword });
  const { accessToken } = await api<{ accessToken: string }>(context, 'post', `${base}/papi/login`, { email, password: demoPassword, tokenInBody: true });
  return accessToken;
}

/**
 * The creator's call price through the API (her token), and credits for the fan's calls given
 * the way the platform grants promotional credits: a ledger transfer by the server's own code.
 */
async function prepareAccounts(server: ServerOnPostgres, fan: BrowserContext, creator: BrowserContext, calls: number): Promise<void> {
  const creatorToken = await signIn(creator, server.base, creatorName);
  await api(creator, 'put', `${server.base}/api/users/me`, { callPrice }, creatorToken);
  const fanToken = await signIn(fan, server.base, fanName);
  const me = await api<{ id: number }>(fan, 'get', `${server.base}/api/users/me`, undefined, fanToken);
  const { salt } = await api<{ salt: number }>(fan, 'get', `${server.base}/papi/settings`);
  // Each call is hung up within its first minute; twice as much as needed, for safety.
  const credits = fanPriceCents(callPrice, salt) * calls * 2;
  const dataDir = mkdtempSync(join(tmpdir(), 'fanstage-bench-calls-db-'));
  const handle = await openDatabase({ databaseUrl: server.dbUrl, dataDir });
  try {
    await inTransaction(handle.db, (tx) =>
      transfer(tx, {
        key: `promotion:bench-calls:${me.id}:${randomBytes(6).toString('hex')}`,
        kind: 'promotion',
        counterpartyId: me.id,
        legs: [
          { account: account.promotions, amount: -credits },
          { account: account.wallet(me.id), amount: credits },
        ],
      }),
    );
  } finally {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What became of each session refresh of a context, for the message when a page is not signed in. */
const refreshes = new WeakMap<BrowserContext, string[]>();
function watchRefreshes(context: BrowserContext): void {
  const seen: string[] = [];
  refreshes.set(context, seen);
  const at = () => new Date().toISOString().slice(11, 23);
  context.on('response', (response) => {
    if (response.url().includes('/papi/login/refresh')) seen.push(`${at()} ${response.status()}`);
  });
  context.on('requestfailed', (request) => {
    if (request.url().includes('/papi/')) seen.push(`${at()} ${new URL(request.url()).pathname} failed: ${request.failure()?.errorText}`);
  });
}

/** The site has restored the session from its cookie (the side navigation offers to log out). */
async function signedIn(page: Page): Promise<void> {
  try {
    await page.getByTestId('side-nav').getByRole('button', { name: 'Log out' }).waitFor({ timeout: 20_000 });
  } catch (error) {
    const log = refreshes.get(page.context())?.slice(-8).join('; ') ?? '';
    throw new Error(`${page.url()} is not signed in; session refreshes: ${log}`, { cause: error });
  }
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

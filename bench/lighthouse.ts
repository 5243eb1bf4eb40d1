// The `lighthouse` part of `npm run bench` (bench/run.ts): Lighthouse's mobile preset (the
// default config: a phone's screen, simulated throttling) in the system Chromium, against the
// built site on the real server (its own process, NODE_ENV=production, demo content) for `/` and
// `/lucy.rivers`, and against the partner demo page with and without its widgets, both served by
// a small server of the bench's own on another origin than the platform, as a partner's are.
// docs/performance.md says what is in the numbers.
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = join(import.meta.dirname, '..');

/** Lighthouse runs per page; the median run by performance score is reported (`BENCH_LIGHTHOUSE_RUNS`). */
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

/** What bench/run.ts lends this part. */
export interface LighthouseBenchDeps {
  budgets: { lighthouseScore: number; lighthouseCls: number; partnerScoreRatio: number; partnerClsAdded: number; partnerTbtAddedMs: number };
  check(name: string, value: number, budget: number, higherIsBetter?: boolean): string;
  freePort(): Promise<number>;
  startProcess(entry: string, env: Record<string, string>, readyUrl: string): Promise<ChildProcess>;
  stop(child: ChildProcess): Promise<void>;
}

interface Figures {
  score: number;
  lcp: number;
  cls: number;
  tbt: number;
  fcp: number;
  /** Lighthouse's reading of this machine's CPU speed (environment.benchmarkIndex): runs on a slower machine score lower. */
  benchmarkIndex: number;
  /** The scripts that kept the main thread busiest (bootup-time), when BENCH_LIGHTHOUSE_DETAIL is set. */
  busiest: string[];
}

/** The partner demo page as built (dist/demo/index.html), its loader pointed at the platform. */
function partnerPages(platform: string): { withWidgets: string; withoutWidgets: string } {
  const html = readFileSync(join(root, 'dist/demo/index.html'), 'utf8');
  const withWidgets = html.replace("var src = '/embed/fanstage.js';", `var src = '${platform}/embed/fanstage.js';`);
  if (withWidgets === html) throw new Error('dist/demo/index.html: the loader address was not found');
  // The same page without Fanstage: no loader script, no <fanstage-*> elements (their own styles
  // stay, unused; comments go, one of them shows the script tag).
  const withoutWidgets = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<script>\s*\(function \(\) \{\s*var src = '\/embed\/fanstage\.js';[\s\S]*?<\/script>/, '')
    .replace(/<fanstage-([a-z-]+)\b[^>]*>\s*<\/fanstage-\1>/g, '');
  if (/<fanstage-[a-z]|\/embed\/fanstage\.js'/.test(withoutWidgets)) throw new Error('the partner page still holds a widget');
  return { withWidgets, withoutWidgets };
}

export async function benchLighthouse({ budgets, check, freePort, startProcess, stop }: LighthouseBenchDeps): Promise<void> {
  console.log(`\nLighthouse ${lighthouseVersion()} (mobile preset, simulated throttling, /usr/bin/chromium; median of ${RUNS})`);
  const port = await freePort();
  // The platform on 127.0.0.1, the partner on localhost: two sites, as in production.
  const platform = `http://127.0.0.1:${port}`;
  const pages = partnerPages(platform);
  const dataDir = mkdtempSync(join(tmpdir(), 'fanstage-bench-'));
  const server = await startProcess(
    'server/src/main.ts',
    { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: platform, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', FANSTAGE_STAGING: '1', DATABASE_URL: '', JWT_SECRET: randomBytes(32).toString('base64url') },
    `${platform}/papi/settings`,
  );
  const partner = createServer((req, res) => {
    const body = req.url?.startsWith('/without-widgets') ? pages.withoutWidgets : pages.withWidgets;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(body);
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    const partnerPort = await freePort();
    await new Promise<void>((resolve) => partner.listen(partnerPort, '127.0.0.1', resolve));
    const partnerBase = `http://localhost:${partnerPort}`;
    chrome = await chromeLauncher.launch({
      chromePath: '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const chromePort = chrome.port;
    const measure = async (url: string): Promise<Figures> => {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        const result = await lighthouse(url, { port: chromePort, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
        if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
        const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
        runs.push({
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcp: audit('largest-contentful-paint'),
          cls: audit('cumulative-layout-shift'),
          tbt: audit('total-blocking-time'),
          fcp: audit('first-contentful-paint'),
          benchmarkIndex: lhr.environment.benchmarkIndex,
          busiest: ((lhr.audits['bootup-time']?.details as { items?: { url: string; total: number; scripting: number }[] } | undefined)?.items ?? [])
            .slice(0, 6)
            .map((item) => `${item.url.replace(/^https?:\/\/[^/]+/, '')} ${Math.round(item.total)} ms (script ${Math.round(item.scripting)})`)
            .concat(
              ((lhr.audits['long-tasks']?.details as { items?: { url: string; duration: number; startTime: number }[] } | undefined)?.items ?? [])
                .slice(0, 8)
                .map((task) => `long task at ${Math.round(task.startTime)} ms: ${Math.round(task.duration)} ms ${task.url.replace(/^https?:\/\/[^/]+/, '')}`),
            ),
        });
      }
      runs.sort((a, b) => a.score - b.score);
      return runs[Math.floor(runs.length / 2)]!;
    };
    const row = (name: string, f: Figures, verdict = '') =>
      `  ${name.padEnd(34)} score ${String(f.score).padStart(3)}  LCP ${(f.lcp / 1000).toFixed(2).padStart(5)} s  CLS ${f.cls.toFixed(3)}  TBT ${String(Math.round(f.tbt)).padStart(4)} ms  FCP ${(f.fcp / 1000).toFixed(2)} s  CPU ${Math.round(f.benchmarkIndex)}${verdict ? `  ${verdict}` : ''}${
        process.env.BENCH_LIGHTHOUSE_DETAIL ? f.busiest.map((line) => `\n      ${line}`).join('') : ''
      }`;

    for (const path of ['/', '/lucy.rivers']) {
      const f = await measure(`${platform}${path}`);
      const verdict = `budget ≥ ${budgets.lighthouseScore}, CLS ≤ ${budgets.lighthouseCls}  ${check(`lighthouse score ${path}`, f.score, budgets.lighthouseScore, true)} / ${check(`lighthouse CLS ${path}`, Number(f.cls.toFixed(3)), budgets.lighthouseCls)}`;
      console.log(row(`site ${path}`, f, verdict));
    }
    const without = await measure(`${partnerBase}/without-widgets`);
    const withWidgets = await measure(`${partnerBase}/`);
    console.log(row('partner page without widgets', without));
    console.log(row('partner page with widgets', withWidgets));
    const ratio = withWidgets.score / without.score;
    const clsAdded = Math.max(0, withWidgets.cls - without.cls);
    const tbtAdded = Math.max(0, Math.round(withWidgets.tbt - without.tbt));
    console.log(`  ${'score with / without'.padEnd(34)} ${ratio.toFixed(2).padStart(9)}  budget ≥ ${budgets.partnerScoreRatio}  ${check('partner page score ratio', Number(ratio.toFixed(2)), budgets.partnerScoreRatio, true)}`);
    console.log(`  ${'CLS the widgets add'.padEnd(34)} ${clsAdded.toFixed(3).padStart(9)}  budget ≤ ${budgets.partnerClsAdded}  ${check('partner page CLS added', Number(clsAdded.toFixed(3)), budgets.partnerClsAdded)}`);
    console.log(`  ${'TBT the widgets add'.padEnd(34)} ${`${tbtAdded} ms`.padStart(9)}  budget ≤ ${budgets.partnerTbtAddedMs} ms  ${check('partner page TBT added', tbtAdded, budgets.partnerTbtAddedMs)}`);
  } finally {
    chrome?.kill();
    if (partner.listening) await new Promise((resolve) => partner.close(resolve));
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function lighthouseVersion(): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string }).version;
}

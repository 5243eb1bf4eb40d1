import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, headlessChromium } from './tests/e2e/browsers';

/** E2E_PORT lets two runs share a machine. */
const port = Number(process.env.E2E_PORT ?? 8181);
const baseURL = `http://127.0.0.1:${port}`;
/** Wiped before every run, so the server seeds its demo content afresh. */
const dataDir = port === 8181 ? '.tmp/e2e-data' : `.tmp/e2e-data-${port}`;

/**
 * End-to-end tests of the reference site and the partner demo, in Chromium, against the real
 * server on its embedded database, started as a newcomer starts it: `npm start`, which builds
 * any front end that is missing or older than its sources (`npm run test:e2e` builds first).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  // Gives the seeded creators the journeys' password once, after the web server is up and
  // before any worker starts.
  globalSetup: './tests/e2e/globalSetup.ts',
  fullyParallel: false,
  // Two workers, two spec files at a time against the one server: a journey waits on the
  // server, its sockets, a call's minutes and the pages' quiet as much as on the two cores.
  // Measured on a 2-core machine shared with other test runs: 10.5 min on one worker, 6.6 to
  // 9.7 min on two. Journeys that count money, followers, notifications or posts do it on
  // creators of their own (creatorSupport.ts), so two files side by side never meet.
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // npm test also keeps a JSON report, for the timing report (scripts/test-report.mjs).
  reporter: process.env.FANSTAGE_E2E_REPORT ? [['list'], ['json', { outputFile: process.env.FANSTAGE_E2E_REPORT }]] : 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  outputDir: port === 8181 ? '.tmp/e2e-results' : `.tmp/e2e-results-${port}`,
  use: {
    baseURL,
    // A trace's screencast costs half of an end-to-end run's CPU; CI keeps only its log, so it
    // records none there, and a local run keeps the trace of a failed test.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // Debian's Chromium (tests/e2e/browsers.ts): the headless shell, the full browser where a
        // journey needs it.
        launchOptions: { executablePath: headlessChromium, args: chromiumArgs },
      },
    },
  ],
  webServer: {
    command: `node -e "require('node:fs').rmSync('${dataDir}', { recursive: true, force: true })" && npm start`,
    url: `${baseURL}/papi/settings`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      // Always the embedded database, even in a shell set up for the PostgreSQL suite.
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
    },
  },
});

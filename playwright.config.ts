import { defineConfig, devices } from '@playwright/test';

const port = 8181;
const baseURL = `http://127.0.0.1:${port}`;
/** Wiped before every run, so the server seeds its demo content afresh. */
const dataDir = '.tmp/e2e-data';

/**
 * End-to-end tests of the reference site and the partner demo, in Chromium, against the real
 * server on its embedded database, started as a newcomer starts it: `npm start`, which builds
 * any front end that is missing or older than its sources (`npm run test:e2e` builds first).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  // Two cores: one browser and the server share them.
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  outputDir: '.tmp/e2e-results',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // The system Chromium: no browser downloads on these machines.
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        },
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

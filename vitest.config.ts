import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import react from '@vitejs/plugin-react';
import pkg from './package.json' with { type: 'json' };

/**
 * The server files that run on PGlite too when the suite runs in full on PostgreSQL
 * (docs/development.md, "Which database"): those that start the server as a process, as
 * `npm start` does (start-up, migrations, crash, outage, shutdown), or open the database layer
 * itself (server/src/db: the driver, its availability, the prepared statements), and
 * embedded.test.ts, which walks each feature once. Chosen by what a file does, read from its
 * imports, so a new file of that kind joins by itself.
 */
const embeddedRule = /server\/src\/main\.ts|from '\.\.\/support\/processes'|from '\.\.\/\.\.\/server\/src\/db(\/availability|\/prepared)?'/;
const embeddedFiles = readdirSync('tests/server')
  .filter((name) => name.endsWith('.test.ts'))
  .filter((name) => name === 'embedded.test.ts' || embeddedRule.test(readFileSync(`tests/server/${name}`, 'utf8')))
  .map((name) => `tests/server/${name}`);

/**
 * The component files that look at the window's custom-element registry before anything defines
 * an element (what importing a module does to a host page): they need a window of their own.
 * Every other component file shares its worker's window and module graph (isolate: false).
 */
const freshWindowRule = /customElements\.get\([^)]*\)\)\.toBeUndefined\(\)/;
const freshWindowFiles = readdirSync('tests/ui')
  .filter((name) => /\.test\.tsx?$/.test(name))
  .filter((name) => freshWindowRule.test(readFileSync(`tests/ui/${name}`, 'utf8')))
  .map((name) => `tests/ui/${name}`);

/** Counts each test's `expect` calls for the timing report (scripts/test-report.mjs). */
const countExpects = 'tests/support/count-expects.ts';

/**
 * The component tests in jsdom. `isolate: false` lets the files of a worker share one window and
 * one module graph (the server they start in-process included): 180 s in place of 310 s.
 */
function uiProject(name: string, files: { include: string[]; exclude?: string[]; isolate: boolean; testTimeout?: number }): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name,
      ...files,
      environment: 'jsdom',
      setupFiles: [countExpects, 'tests/ui/setup.ts'],
      // As the unit files: a real server to start and close (tests/ui/support/realServer.ts).
      hookTimeout: 60_000,
      // Real CSS with the build's class names (vite.lib.config.ts), so element tests can
      // check that the styles inside a shadow root match the markup.
      css: { include: [/\.css(\?.*)?$/], modules: { classNameStrategy: 'scoped' } },
    },
    css: {
      modules: {
        generateScopedName: (name: string, file: string) =>
          `fs-${(file.split('?')[0] ?? file).replace(/^.*\//, '').replace(/\.module\.css$/, '')}-${name}`,
      },
    },
  };
}

export default defineConfig({
  plugins: [react()],
  define: { __FANSTAGE_VERSION__: JSON.stringify(pkg.version) },
  test: {
    // `npm run test:coverage`: what the server suites run of the server's code.
    coverage: {
      provider: 'v8',
      include: ['server/src/**/*.ts'],
      reporter: ['text-summary', 'json-summary', 'json'],
      reportsDirectory: '.tmp/coverage',
    },
    // Vitest's default leaves one of two cores to itself; its main process does little here, and
    // the server files wait on their databases and sockets as much as they compute.
    maxWorkers: 2,
    // The transformed modules are kept in node_modules/.experimental-vitest-cache, so the
    // runs of one `npm test` (and the second Node.js of CI) transform each file once.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: [countExpects],
          // The files of a worker share one module graph: 66 s in place of 111 s on two cores.
          isolate: false,
          // Many files start and close a real server (tests/support/server.ts): its database and
          // sockets close in well under a second, but on a busy machine 10 s has not been enough.
          hookTimeout: 60_000,
        },
      },
      uiProject('ui', { include: ['tests/ui/**/*.test.{ts,tsx}'], exclude: freshWindowFiles, isolate: false }),
      // A fresh window loads the whole element runtime cold inside a test, module transforms
      // included: seconds on a busy machine, more than the default 5.
      uiProject('ui-window', { include: freshWindowFiles, isolate: true, testTimeout: 20_000 }),
      {
        test: {
          name: 'package',
          include: ['tests/package/**/*.test.ts'],
          environment: 'node',
          setupFiles: [countExpects],
          // Packs, installs and imports the real package: npm dominates.
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          setupFiles: [countExpects],
          // On PostgreSQL, test databases are copies of one migrated template.
          globalSetup: ['tests/support/pg-template.ts'],
          // Each file builds its own app on its own database and closes it; what a file changes
          // outside its app (process.env) it puts back. So the files of a worker share one
          // module graph instead of importing the server again for each (258 s in place of 351 s
          // for the suite on PostgreSQL).
          isolate: false,
          // Each file builds its own app on its own database; PGlite start-up dominates.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'embedded',
          include: embeddedFiles,
          environment: 'node',
          // Always the embedded database, whatever the shell says (so one run with coverage can
          // hold this project and the full suite on PostgreSQL).
          env: { DATABASE_URL: '', REDIS_URL: '' },
          setupFiles: [countExpects],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
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

/** Counts each test's `expect` calls for the timing report (scripts/test-report.mjs). */
const countExpects = 'tests/support/count-expects.ts';

export default defineConfig({
  plugins: [react()],
  define: { __FANSTAGE_VERSION__: JSON.stringify(pkg.version) },
  test: {
    // Vitest's default leaves one of two cores to itself; its main process does little here, and
    // the server files wait on their databases and sockets as much as they compute.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: [countExpects],
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: [countExpects, 'tests/ui/setup.ts'],
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
      },
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
          setupFiles: [countExpects],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

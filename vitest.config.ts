import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import pkg from './package.json' with { type: 'json' };

export default defineConfig({
  plugins: [react()],
  define: { __FANSTAGE_VERSION__: JSON.stringify(pkg.version) },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/ui/setup.ts'],
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
          // Packs, installs and imports the real package: builds and npm dominate.
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // Each file builds its own app on its own database; PGlite start-up dominates.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import pkg from './package.json' with { type: 'json' };

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The script-tag loader, `embed/fanstage.js`: tiny, no React, no dependencies. Built after
 * vite.embed.config.ts into the same folder, so it must not empty it.
 */
export default defineConfig({
  define: { __FANSTAGE_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: here('dist/embed'),
    emptyOutDir: false,
    sourcemap: true,
    minify: true,
    target: 'es2018',
    lib: {
      entry: here('elements/loader.ts'),
      name: 'FanstageLoader',
      formats: ['iife'],
      fileName: () => 'fanstage.js',
    },
  },
});

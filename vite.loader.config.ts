import { defineConfig } from 'vite';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pkg from './package.json' with { type: 'json' };
import { precompress } from './vite.precompress';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The `v` the loader asks for the bundle with: the release and the first 16 hex digits of the
 * SHA-256 of the bundle built just before (vite.embed.config.ts), so a rebuild that changes
 * the bundle changes its address even within one release, and a server may cache that address
 * for good only when it holds those very bytes (server/src/features/static/domain.ts).
 */
function bundleVersion(): string {
  const bundle = here('dist/embed/fanstage-elements.js');
  if (!existsSync(bundle)) return pkg.version;
  return `${pkg.version}-${createHash('sha256').update(readFileSync(bundle)).digest('hex').slice(0, 16)}`;
}

/**
 * The script-tag loader, `embed/fanstage.js`: tiny, no React, no dependencies. Built after
 * vite.embed.config.ts into the same folder, so it must not empty it.
 */
export default defineConfig({
  define: { __FANSTAGE_VERSION__: JSON.stringify(pkg.version), __FANSTAGE_BUNDLE_VERSION__: JSON.stringify(bundleVersion()) },
  plugins: [precompress()],
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

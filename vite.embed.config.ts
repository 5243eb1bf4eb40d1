import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { basename } from 'node:path';
import pkg from './package.json' with { type: 'json' };

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The same class names as vite.lib.config.ts (see there why they carry no hash). */
function scopedClassName(name: string, filename: string): string {
  const file = filename.split('?')[0] ?? filename;
  return `fs-${basename(file).replace(/\.module\.css$/, '')}-${name}`;
}

/**
 * Elements carry their styles inside their shadow roots (`?inline`); the stylesheet Vite
 * would also extract from the same CSS modules is of no use to a script-tag page, and a
 * `<link>` to it would style the host page itself. Drop it.
 */
function dropExtractedCss(): Plugin {
  return {
    name: 'fanstage:drop-extracted-css',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) if (name.endsWith('.css')) delete bundle[name];
    },
  };
}

/**
 * The script-tag bundle: every element with React inside, one classic script. A classic
 * script (IIFE) rather than an ES module, because a partner page loads it from our origin and
 * module scripts would need CORS headers on every host that serves it.
 */
export default defineConfig({
  plugins: [react(), dropExtractedCss()],
  define: {
    __FANSTAGE_VERSION__: JSON.stringify(pkg.version),
    // Library mode leaves `process.env.NODE_ENV` alone; React must see production here.
    'process.env.NODE_ENV': JSON.stringify('production'),
  },
  css: { modules: { generateScopedName: scopedClassName } },
  build: {
    outDir: here('dist/embed'),
    emptyOutDir: true,
    sourcemap: true,
    minify: true,
    target: 'es2020',
    lib: {
      entry: here('elements/embed.ts'),
      name: 'FanstageElements',
      formats: ['iife'],
      fileName: () => 'fanstage-elements.js',
    },
  },
});

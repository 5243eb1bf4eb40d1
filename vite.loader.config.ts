import { defineConfig, type Plugin } from 'vite';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from './package.json' with { type: 'json' };
import { precompress } from './vite.precompress';
import { embedEntries } from './vite.embed.config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/**
 * For every tag, the files its chunk needs before it runs (its own first, then every chunk it
 * imports, transitively), from the manifest of the elements' build (vite.embed.config.ts,
 * built just before); under `''` the runtime's. Empty when that build is missing.
 */
function chunkMap(): Record<string, string[]> {
  const path = here('dist/embed/.vite/manifest.json');
  if (!existsSync(path)) return {};
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, ManifestChunk>;
  const filesOf = (key: string, seen = new Set<string>()): string[] => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return [];
    seen.add(key);
    return [chunk.file, ...(chunk.imports ?? []).flatMap((imported) => filesOf(imported, seen))];
  };
  const map: Record<string, string[]> = {};
  for (const [name, source] of Object.entries(embedEntries)) {
    const files = [...new Set(filesOf(source))];
    if (files.length === 0) throw new Error(`${source} is not in the elements' build manifest`);
    map[name === 'runtime' ? '' : `fanstage-${name}`] = files;
  }
  return map;
}

/**
 * `integrity.json` next to the loader: the release's version and the Subresource Integrity hash
 * of `fanstage.js`, which a partner pins as `/embed/v/{version}/fanstage.js` (docs/embedding.md,
 * "Pinning a version"). The server reads the version from it to answer that address.
 */
function integrity(): Plugin {
  return {
    name: 'fanstage-integrity',
    // The file as written, source map comment included: the bytes a browser checks.
    writeBundle(options) {
      const dir = options.dir ?? here('dist/embed');
      const hash = `sha384-${createHash('sha384').update(readFileSync(join(dir, 'fanstage.js'))).digest('base64')}`;
      const record = { version: pkg.version, loader: `v/${pkg.version}/fanstage.js`, files: { 'fanstage.js': hash } };
      writeFileSync(join(dir, 'integrity.json'), `${JSON.stringify(record, null, 2)}\n`);
    },
  };
}

/**
 * The script-tag loader, `embed/fanstage.js`: tiny, no React, no dependencies, a classic
 * script (partners copy one `<script src>` without `type="module"`). Built after
 * vite.embed.config.ts into the same folder, so it must not empty it.
 */
export default defineConfig({
  define: { __FANSTAGE_VERSION__: JSON.stringify(pkg.version), __FANSTAGE_CHUNKS__: JSON.stringify(chunkMap()) },
  plugins: [integrity(), precompress()],
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

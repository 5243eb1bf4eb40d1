// Which parts of dist/ are missing or older than their sources: `npm start` builds those before
// it serves, and `npm test` builds them once for every suite that needs dist/.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each part of dist/, the script that builds it and the sources it is built from. */
export const parts = [
  { out: 'dist/lib/index.js', script: 'build:lib', sources: ['lib', 'elements', 'package.json', 'vite.lib.config.ts'] },
  { out: 'dist/embed/fanstage.js', script: 'build:embed', sources: ['lib', 'elements', 'package.json', 'vite.embed.config.ts', 'vite.loader.config.ts', 'vite.precompress.ts'] },
  { out: 'dist/web/index.html', script: 'build:web', sources: ['lib', 'host-web', 'package.json', 'vite.precompress.ts'] },
  { out: 'dist/demo/index.html', script: 'build:demo', sources: ['lib', 'elements', 'host-demo', 'package.json', 'vite.precompress.ts'] },
];

function newestMtime(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** The parts whose output is missing or older than one of their sources. */
export function staleParts(only = parts) {
  return only.filter((part) => {
    const out = join(root, part.out);
    const builtAt = existsSync(out) ? statSync(out).mtimeMs : 0;
    return builtAt < Math.max(...part.sources.map(newestMtime));
  });
}

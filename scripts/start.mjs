#!/usr/bin/env node
// `npm start`: build whatever part of the front end is missing or older than its sources,
// then run the server, which serves the site, the API, the websocket and the widgets.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Each served part of dist/, the script that builds it and the sources it is built from. */
const parts = [
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

for (const part of parts) {
  const out = join(root, part.out);
  const builtAt = existsSync(out) ? statSync(out).mtimeMs : 0;
  const sourcesAt = Math.max(...part.sources.map(newestMtime));
  if (builtAt >= sourcesAt) continue;
  console.log(`[fanstage] ${builtAt ? 'rebuilding' : 'building'} ${part.out} (npm run ${part.script})`);
  const result = spawnSync(npm, ['run', '--silent', part.script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`[fanstage] npm run ${part.script} failed`);
    process.exit(result.status ?? 1);
  }
}

const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
// The server shuts down gracefully on SIGINT/SIGTERM; pass them on and leave with its code.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// What the package test's scratch apps install (tests/package/pack.test.ts): a partner's Vite and
// Next.js apps beside the packed fanstage. `npm test` warms npm's cache with them while the
// earlier suites run, so the package suite installs from the disk instead of waiting on the
// registry; that suite installs the same list with the same cache either way.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './built.mjs';
import pkg from '../package.json' with { type: 'json' };

/**
 * TypeScript and Node's types are named, not left to what another package happens to pull in:
 * next build type-checks the app and stops without them.
 */
export const scratchDependencies = [
  'react@19',
  'react-dom@19',
  '@types/react@19',
  '@types/react-dom@19',
  `@types/node@${pkg.devDependencies['@types/node']}`,
  `typescript@${pkg.devDependencies.typescript}`,
  'next@16',
  `vite@${pkg.devDependencies.vite}`,
  `@vitejs/plugin-react@${pkg.devDependencies['@vitejs/plugin-react']}`,
  '@arethetypeswrong/cli@0.18',
];

/** npm's downloads for the scratch apps, kept in the repository's .tmp. */
export const npmCache = join(root, '.tmp/npm-cache');

/**
 * Installs the scratch apps' dependencies and the package's own into a throw-away folder with
 * that cache, at low priority; resolves when done, whether it worked or not (the package suite
 * downloads what is missing). Its output goes to .tmp/reports/package-cache.log.
 */
export function warmScratchCache() {
  const folder = join(root, '.tmp/package-warm');
  mkdirSync(folder, { recursive: true });
  mkdirSync(join(root, '.tmp/reports'), { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'package-warm', private: true }));
  const own = Object.entries(pkg.dependencies).map(([name, range]) => `${name}@${range}`);
  const log = openSync(join(root, '.tmp/reports/package-cache.log'), 'w');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', '--loglevel=error', `--cache=${npmCache}`, ...scratchDependencies, ...own];
  return new Promise((resolve) => {
    const child = spawn('nice', ['-n', '10', npm, ...args], { cwd: folder, stdio: ['ignore', log, log], env: { ...process.env, npm_config_update_notifier: 'false' } });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

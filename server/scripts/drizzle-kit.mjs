// Runs drizzle-kit with `drizzle-orm` resolved from this workspace. npm hoists drizzle-kit to
// the repository root but keeps drizzle-orm inside server/node_modules, where drizzle-kit's
// own version check cannot see it.
import { register } from 'node:module';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (process.env.FANSTAGE_DRIZZLE_KIT_CHILD !== '1') {
  // drizzle-kit exports no package.json; find its folder from the package's API entry.
  const require = createRequire(path.join(serverDir, 'package.json'));
  const bin = path.join(path.dirname(require.resolve('drizzle-kit/api')), 'bin.cjs');
  const result = spawnSync(process.execPath, ['--import', fileURLToPath(import.meta.url), bin, ...process.argv.slice(2)], {
    cwd: serverDir,
    stdio: 'inherit',
    env: {
      ...process.env,
      FANSTAGE_DRIZZLE_KIT_CHILD: '1',
      NODE_PATH: [path.join(serverDir, 'node_modules'), process.env.NODE_PATH].filter(Boolean).join(path.delimiter),
    },
  });
  process.exit(result.status ?? 1);
} else {
  const parentURL = pathToFileURL(path.join(serverDir, 'package.json')).href;
  const hooks = `
    export async function resolve(specifier, context, next) {
      if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
        return next(specifier, { ...context, parentURL: ${JSON.stringify(parentURL)} });
      }
      return next(specifier, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

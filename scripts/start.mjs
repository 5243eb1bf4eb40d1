#!/usr/bin/env node
// `npm start`: build whatever part of the front end is missing or older than its sources,
// then run the server, which serves the site, the API, the websocket and the widgets.
//
//   npm start                  build what is stale, then serve
//   npm start -- --no-build    serve dist/ as it is (a production host that got it from CI)
//
// The script is run through `exec` (package.json), so npm's shell gives way to this process and
// a SIGTERM to `npm start`, which npm passes to its child, reaches the server through here.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parts, root, staleParts } from './built.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// What the server serves: the site, the widgets' script tag and the partner demo.
const served = parts.filter((part) => part.script !== 'build:lib');
const build = !process.argv.slice(2).includes('--no-build');
for (const part of build ? staleParts(served) : []) {
  console.log(`[fanstage] building ${part.out} (npm run ${part.script})`);
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

#!/usr/bin/env node
// Runs the server test suite against a PostgreSQL server instead of the embedded PGlite.
// Each test file creates its own database on that server and drops it afterwards.
import { spawn } from 'node:child_process';
import net from 'node:net';

const databaseUrl = process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres';

let target;
try {
  const url = new URL(databaseUrl);
  if (!/^postgres(ql)?:$/.test(url.protocol)) throw new Error('not a postgres:// address');
  target = { host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) };
} catch (error) {
  console.error(`DATABASE_URL is not a PostgreSQL address (${databaseUrl}): ${error.message}`);
  process.exit(2);
}

const reachable = await new Promise((resolve) => {
  const socket = net.connect({ host: target.host, port: target.port });
  socket.setTimeout(3000);
  socket.once('connect', () => {
    socket.end();
    resolve(true);
  });
  socket.once('timeout', () => {
    socket.destroy();
    resolve(false);
  });
  socket.once('error', () => resolve(false));
});
if (!reachable) {
  console.error(
    `PostgreSQL is not reachable at ${target.host}:${target.port}.\n` +
      'Start it (for example `pg_ctlcluster 15 main start` or `docker run -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:15`), ' +
      'or point DATABASE_URL at a server where the user may create databases.',
  );
  process.exit(2);
}

console.log(`Server tests on PostgreSQL at ${target.host}:${target.port}`);
const child = spawn('npx', ['vitest', 'run', '--project', 'server', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: databaseUrl },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount } from '../support/accounts';
import { freshProcessDatabase, openArrangingApp, startServerProcess, stopServerProcess, type ProcessDatabase, type ServerProcess } from '../support/processes';
import { startTestServer, type TestServer } from '../support/server';

/*
 * Production refuses play money (docs/server.md, "Going to production"): the real server
 * process will not start on the sandboxes alone, starts on them only when told it is a staging
 * server, and has no development tools either way.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const notFound = { statusCode: -1, statusText: 'route-not-found' };

/** Every setting production asks for but real providers, which this server has none of. */
const productionEnv = {
  NODE_ENV: 'production',
  JWT_SECRET: randomBytes(32).toString('base64url'),
  PUBLIC_URL: 'https://staging.fanstage.test',
  // Never dialled: nothing in these tests sends mail.
  SMTP_URL: 'smtp://127.0.0.1:9',
  SMS_WEBHOOK_URL: 'https://sms.fanstage.test/send',
};

/** The development tools' pages, and the sandbox sign-in's: never in production. */
const developmentPages = ['/dev/mail', '/dev/mail.json', '/dev/mail.json?to=lucy.rivers%40example.com', '/papi/oauth/sandbox/authorize?oauth_token=x', '/api/oauth/authorize?provider=sandbox&returnTo=/'];
/** The sandbox processor's and identity provider's pages (a bad signature: they answer 403 where they exist). */
const sandboxPages = ['/papi/payments/sandbox/checkout/ord_x?sig=x', '/papi/identity/sandbox/check/chk_x?sig=x'];

/** Resolves with the first match of `pattern` in what the process wrote, as soon as it is written. */
function nextOutput(server: ServerProcess, pattern: RegExp, ms = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const streams = [server.child.stdout!, server.child.stderr!];
    const look = () => {
      const match = pattern.exec(server.output());
      if (match === null) return;
      done();
      resolve(match[0]);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`nothing matching ${pattern} within ${ms} ms:\n${server.output()}`));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      for (const stream of streams) stream.off('data', look);
    };
    for (const stream of streams) stream.on('data', look);
    look();
  });
}

describe('a production server process on the sandboxes alone', () => {
  it('refuses to start: exit code 2, one line per failed check on stderr, no stack', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...productionEnv, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory://', LOG_LEVEL: 'info' };
    for (const name of ['FANSTAGE_STAGING', 'REDIS_URL', 'DEMO_PASSWORD', 'OAUTH_PROVIDERS']) delete env[name];
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));

    expect(code, stderr).toBe(2);
    expect(stderr.trimEnd().split('\n')).toEqual([
      'Not ready for production: No card processor is configured but the sandbox, whose test card pays for credits: configure a real one (docs/payments.md), or, on a test installation only, set FANSTAGE_STAGING=1.',
      'Not ready for production: No identity-check provider is configured but the sandbox, which passes any document but its test numbers: configure a real one (docs/identity.md), or, on a test installation only, set FANSTAGE_STAGING=1.',
    ]);
    expect(stderr).not.toMatch(/\n\s+at /);
    // It stopped before listening or opening anything.
    expect(stdout).not.toContain('Fanstage is serving');
  }, 30_000);
});

describe('a production server process declared a staging server (FANSTAGE_STAGING=1)', () => {
  let database: ProcessDatabase | undefined;
  let dataDir: string | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await stopServerProcess(server, 'SIGKILL');
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('starts with a warning in its log, tells the site testMode, runs the sandboxes\' pages and has no development tools', async () => {
    database = await freshProcessDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-staging-'));
    const settings = { dataDir, databaseUrl: database.databaseUrl, jwtSecret: productionEnv.JWT_SECRET };
    // Someone already in the database, so the start does not draw the demo people.
    const arranging = await openArrangingApp(settings);
    try {
      await createAccount(arranging);
    } finally {
      await arranging.close();
    }

    server = await startServerProcess(settings, { env: { ...productionEnv, FANSTAGE_STAGING: '1' } });
    const warning = await nextOutput(server, /\{[^\n]*"level":40[^\n]*FANSTAGE_STAGING is on: this is a test installation[^\n]*\}/);
    expect(warning).toContain('test-mode ribbon');

    const settingsAnswer = (await (await fetch(`${server.baseUrl}/papi/settings`)).json()) as { statusCode: number; body: { testMode?: boolean } };
    expect(settingsAnswer.statusCode).toBe(2);
    expect(settingsAnswer.body.testMode).toBe(true);

    for (const url of developmentPages) {
      // Asked for as a page, too: the site must not answer for the tools' addresses.
      const response = await fetch(`${server.baseUrl}${url}`, { headers: { accept: 'text/html,*/*' }, redirect: 'manual' });
      expect(response.status, url).toBe(404);
      expect(await response.json(), url).toEqual(url.startsWith('/api/oauth') ? { statusCode: -1, statusText: 'not-found' } : notFound);
    }
    for (const url of sandboxPages) {
      const response = await fetch(`${server.baseUrl}${url}`);
      expect(response.status, url).toBe(403);
      expect(response.headers.get('content-type'), url).toMatch(/^text\/html/);
    }
  }, 90_000);
});

describe('a production app without the staging setting', () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
  });

  // main.ts refuses to start so; an app built by other code still has no sandbox in it.
  it('has no sandbox processor or identity provider, nor their pages, and no development tools', async () => {
    server = await startTestServer({ seed: false, env: { NODE_ENV: 'production', JWT_SECRET: productionEnv.JWT_SECRET } });
    const app = server.app;
    for (const url of [...developmentPages, ...sandboxPages, '/papi/payments/sandbox/callback', '/papi/identity/sandbox/callback']) {
      const method = url.endsWith('/callback') ? 'POST' : 'GET';
      const response = await app.inject({ method, url, headers: { accept: 'text/html,*/*' }, ...(method === 'POST' ? { payload: {} } : {}) });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual(url.startsWith('/api/oauth') ? { statusCode: -1, statusText: 'not-found' } : notFound);
    }
    expect((await app.inject({ method: 'GET', url: '/papi/settings' })).json().body.testMode).toBe(false);

    const fan = await createAccount(app);
    const auth = { authorization: `Bearer ${fan.accessToken}` };
    expect((await app.inject({ method: 'GET', url: '/api/payments/processors', headers: auth })).json()).toEqual({ statusCode: 2, body: [] });
    const order = await app.inject({ method: 'POST', url: '/api/payments/gopaybuy', headers: auth, payload: { packageId: 1, idempotencyKey: 'prod-no-sandbox-1' } });
    expect(order.json()).toMatchObject({ statusCode: -1, statusText: 'processor-unknown' });
  });
});

import { spawn } from 'node:child_process';
import { WebSocket } from 'ws';
import { socketProtocols } from '../../lib/contract/realtime';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { seedDemoContent } from '../../server/src/features/demo/service';
import { ensureGiftCatalogue } from '../../server/src/features/gifts/service';
import { users, gifts } from '../../server/src/db/schema';
import { demoCreators, demoFans, demoStaff } from '../../server/src/features/demo/domain';

describe('a real listening server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers over HTTP on its port, envelope and headers included', async () => {
    const response = await fetch(`${server.baseUrl}/papi/users/marek.novak`, { headers: { Language: 'cs', Apiversion: '1.0' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('apiversion')).toBe('1.0');
    expect(response.headers.get('language')).toBe('cs');
    const envelope = (await response.json()) as { statusCode: number; body: { displayName: string } };
    expect(envelope.statusCode).toBe(2);
    expect(envelope.body.displayName).toBe('Marek Novák');
  });

  it('puts the media address on its own port, where the avatars are', async () => {
    const settings = (await (await fetch(`${server.baseUrl}/papi/settings`)).json()) as { body: { mediaCDN: string } };
    expect(settings.body.mediaCDN).toBe(`${server.baseUrl}/media`);
    const profile = (await (await fetch(`${server.baseUrl}/papi/users/lucy.rivers`)).json()) as { body: { avatarMedia: { mediaHash: string; format: string } } };
    const avatar = await fetch(`${settings.body.mediaCDN}/${profile.body.avatarMedia.mediaHash}.${profile.body.avatarMedia.format}?t=120`);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/webp');
    expect((await avatar.arrayBuffer()).byteLength).toBeGreaterThan(200);
  });

  it('seeds the demo people once: seeding again creates nobody and changes nothing', async () => {
    const ctx = server.app.fanstage;
    const count = () => ctx.db.$count(users);
    expect(await count()).toBe(demoCreators.length + demoFans.length + demoStaff.length);
    expect(await seedDemoContent(ctx)).toBe(0);
    await ensureGiftCatalogue(ctx);
    expect(await count()).toBe(demoCreators.length + demoFans.length + demoStaff.length);
    const giftCount = await ctx.db.$count(gifts);
    expect(giftCount).toBe(8);
  });

  it('includes the creators the site and the demo pages show', async () => {
    for (const username of ['lucy.rivers', 'marek.novak']) {
      const response = await fetch(`${server.baseUrl}/papi/users/${username}`);
      expect(response.status, username).toBe(200);
    }
  });
});

describe('without demo content', () => {
  it('starts empty of people but still has the gift catalogue', async () => {
    const server = await startTestServer({ seed: false });
    try {
      const user = await fetch(`${server.baseUrl}/papi/users/lucy.rivers`);
      expect(user.status).toBe(404);
      const list = (await (await fetch(`${server.baseUrl}/papi/who-to-follow`)).json()) as { statusCode: number; body: unknown[] };
      expect(list).toEqual({ statusCode: 2, body: [] });
      const giftList = (await (await fetch(`${server.baseUrl}/papi/gifts`)).json()) as { body: unknown[] };
      expect(giftList.body).toHaveLength(8);
    } finally {
      await server.close();
    }
  });
});

describe('closing', () => {
  it('stops listening and closes the database', async () => {
    const server = await startTestServer({ seed: false });
    const db = server.app.fanstage.db;
    await server.close();
    await expect(fetch(`${server.baseUrl}/papi/settings`)).rejects.toThrow();
    await expect(db.$count(users)).rejects.toThrow();
  });
});

describe('server/src/main.ts', () => {
  // Through `npm start`, as a supervisor runs it: npm passes SIGTERM to its child only, so the
  // server stops only if the script's shell gave way to it (package.json's `exec`) and
  // scripts/start.mjs passes the signal on. `--no-build`: the API is all this test reads.
  it('starts from environment variables under npm start, serves, and exits 0 on a SIGTERM to npm', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-main-'));
    const root = path.resolve(import.meta.dirname, '..', '..');
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start', '--', '--no-build'], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: 'memory://', LOG_LEVEL: 'info', NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const address = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start within 45 s:\n${output}`)), 45_000);
        const look = () => {
          const match = /Fanstage is serving on (http:\/\/\S+?)"/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        child.stdout.on('data', look);
        void exited.then((code) => reject(new Error(`exited with ${code}:\n${output}`)));
      });
      const response = await fetch(`${address}/papi/users/lucy.rivers`);
      expect(response.status).toBe(200);

      // A signed-in socket, then addresses with secrets in their query: the log, at info, keeps
      // every request line and none of the secrets (docs/server.md, Logs).
      const email = `log.${Date.now()}@example.com`;
      const post = (url: string, body: unknown) => fetch(`${address}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post('/papi/signup', { email, password: 'a password of the log' })).status).toBe(200);
      const { body } = (await (await post('/papi/login', { email, password: 'a password of the log', tokenInBody: true })).json()) as { body: { accessToken: string } };
      const socket = new WebSocket(`${address.replace(/^http/, 'ws')}/ws/`, socketProtocols(body.accessToken), { origin: address });
      const hello = await new Promise<{ type: string }>((resolve, reject) => {
        socket.once('message', (data) => resolve(JSON.parse(String(data)) as { type: string }));
        socket.once('error', reject);
      });
      expect(hello.type).toBe('hello');
      expect(socket.protocol).toBe('fanstage.v1');
      socket.close();
      expect((await fetch(`${address}/papi/settings?token=old-client-token&k=an-unlock-key&lang=cs`)).status).toBe(200);
      await expect.poll(() => output).toContain('lang=cs');
      expect(output).toContain('token=[redacted]&k=[redacted]&lang=cs');
      for (const secret of [body.accessToken, 'old-client-token', 'an-unlock-key']) expect(output).not.toContain(secret);
      // An answer names its request, and that request's lines carry the same id; with no proxy
      // to vouch for it, a client's own X-Request-Id is not taken.
      const refused = await fetch(`${address}/papi/users/no.such.person`, { headers: { 'x-request-id': 'chosen-by-the-client' } });
      const requestId = refused.headers.get('x-request-id');
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      await expect.poll(() => output.split('\n').filter((line) => line.includes(`"requestId":"${String(requestId)}"`)).length).toBe(2);
      expect(output).not.toContain('chosen-by-the-client');

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('shutting down');
      // Nothing is left serving once npm has gone.
      await expect(fetch(`${address}/papi/health/live`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a bad configuration with a message naming the variable', async () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
      cwd: root,
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: 'memory://' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('PORT must be a whole number');
  }, 30_000);
});

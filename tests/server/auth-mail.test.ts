import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { mailOutbox } from '../../server/src/db/schema';
import { createAccount } from '../support/accounts';

/** A minimal SMTP server: enough of RFC 5321 for one plain delivery, recording what it got. */
function startSmtp(): Promise<{ server: Server; port: number; messages: string[] }> {
  const messages: string[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline).toUpperCase();
        buffer = buffer.slice(newline + 2);
        if (line.startsWith('EHLO') || line.startsWith('HELO')) socket.write('250 test\r\n');
        else if (line.startsWith('DATA')) {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, messages })));
}

let app: FastifyInstance | undefined;
let smtp: Server | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  smtp = undefined;
});

async function appWith(env: Record<string, string>) {
  dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-auth-mail-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'memory://', DATA_DIR: dataDir, ...env });
  app = await buildApp({ config, seed: false });
  return app;
}

async function outbox(instance: FastifyInstance, until: (rows: (typeof mailOutbox.$inferSelect)[]) => boolean) {
  for (let i = 0; i < 100; i++) {
    const rows = await instance.fanstage.db.select().from(mailOutbox);
    if (until(rows)) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the outbox never reached the expected state');
}

describe('mail through SMTP', () => {
  it('sends through SMTP_URL from MAIL_FROM and marks the outbox row sent', async () => {
    const mail = await startSmtp();
    smtp = mail.server;
    const instance = await appWith({ SMTP_URL: `smtp://127.0.0.1:${mail.port}`, MAIL_FROM: 'Fanstage <hello@fans.example>', PUBLIC_URL: 'https://fans.example' });
    const response = await instance.inject({ method: 'POST', url: '/papi/signup', payload: { email: 'smtp.fan@example.com', password: 'smtp password' } });
    expect(response.json()).toEqual({ statusCode: 1 });
    const rows = await outbox(instance, (r) => r[0]?.sentAt != null);
    expect(rows[0]?.error).toBeNull();
    expect(mail.messages).toHaveLength(1);
    expect(mail.messages[0]).toMatch(/^From: Fanstage <hello@fans\.example>/m);
    expect(mail.messages[0]).toMatch(/^To: smtp\.fan@example\.com/m);
    expect(mail.messages[0]).toContain('https://fans.example/action/');
  });

  it('records a delivery failure on the row and still answers the request', async () => {
    const closed = await startSmtp();
    await new Promise<void>((resolve) => closed.server.close(() => resolve()));
    const instance = await appWith({ SMTP_URL: `smtp://127.0.0.1:${closed.port}` });
    const response = await instance.inject({ method: 'POST', url: '/papi/signup', payload: { email: 'smtp.down@example.com', password: 'smtp password' } });
    expect(response.json()).toEqual({ statusCode: 1 });
    const rows = await outbox(instance, (r) => r[0]?.error != null);
    expect(rows[0]?.sentAt).toBeNull();
    expect(rows[0]?.error).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe('behind https', () => {
  it('marks the refresh and device cookies Secure', async () => {
    const instance = await appWith({ PUBLIC_URL: 'https://fans.example' });
    const account = await createAccount(instance);
    const response = await instance.inject({ method: 'POST', url: '/papi/login', payload: { email: account.email, password: account.password } });
    expect(response.cookies.find((c) => c.name === 'fs_refresh')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/papi/login' });
    expect(response.cookies.find((c) => c.name === 'fs_device')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/papi/login' });
  });
});

describe('in production', () => {
  it('has no development outbox', async () => {
    const instance = await appWith({ NODE_ENV: 'production', JWT_SECRET: 'a production secret of 32+ characters', LOG_LEVEL: 'silent' });
    for (const url of ['/dev/mail', '/dev/mail.json']) {
      const response = await instance.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
    }
  });
});

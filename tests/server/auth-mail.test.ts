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
import { createStoppedClock, type Clock } from '../../server/src/clock';
import { MAIL_OUTBOX_JOB, mailRetryDelaysMs } from '../../server/src/mail';
import { eq } from '../support/db';
import { createAccount } from '../support/accounts';

/** A minimal SMTP server: enough of RFC 5321 for one plain delivery, recording what it got. */
function startSmtp(port = 0): Promise<{ server: Server; port: number; messages: string[] }> {
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
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, messages })));
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

async function appWith(env: Record<string, string>, clock?: Clock) {
  dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-auth-mail-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'memory://', DATA_DIR: dataDir, ...env });
  app = await buildApp({ config, seed: false, ...(clock ? { clock } : {}) });
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

  it('keeps a reset mail asked while the mail server is down, and sends it once when it is back', async () => {
    // A port that refuses connections now, where the mail server will listen again.
    const first = await startSmtp();
    await new Promise<void>((resolve) => first.server.close(() => resolve()));
    const clock = createStoppedClock();
    const instance = await appWith({ SMTP_URL: `smtp://127.0.0.1:${first.port}` }, clock);
    const account = await createAccount(instance);
    const response = await instance.inject({ method: 'POST', url: '/papi/login/reset', payload: { email: account.email } });
    expect(response.json()).toEqual({ statusCode: 1 });
    const [failed] = await outbox(instance, (r) => r.some((row) => row.template === 'reset-password' && row.error !== null)).then((rows) => rows.filter((row) => row.template === 'reset-password'));
    expect(failed).toMatchObject({ sentAt: null, attempts: 1 });
    expect(failed?.error).toMatch(/ECONNREFUSED|connect/i);
    // Tried again after the first delay, not before.
    expect(failed?.nextAttemptAt?.getTime()).toBe(clock.now().getTime() + mailRetryDelaysMs[0]!);
    expect(await instance.fanstage.jobs.runNow(MAIL_OUTBOX_JOB)).toBe(0);

    const mail = await startSmtp(first.port);
    smtp = mail.server;
    clock.advance(mailRetryDelaysMs[0]!);
    expect(await instance.fanstage.jobs.runNow(MAIL_OUTBOX_JOB)).toBe(1);
    const [sent] = (await instance.fanstage.db.select().from(mailOutbox).where(eq(mailOutbox.id, failed!.id)));
    expect(sent).toMatchObject({ attempts: 2, error: null, nextAttemptAt: null });
    expect(sent?.sentAt).not.toBeNull();
    expect(mail.messages).toHaveLength(1);
    expect(mail.messages[0]).toMatch(new RegExp(`^To: ${account.email.replace(/[.]/g, '\\.')}`, 'm'));
    expect(mail.messages[0]).toContain('/reset-password/');
    // Sent is sent: later runs send it no more.
    clock.advance(mailRetryDelaysMs.at(-1)!);
    expect(await instance.fanstage.jobs.runNow(MAIL_OUTBOX_JOB)).toBe(0);
    expect(mail.messages).toHaveLength(1);
  });

  it('gives a mail up after its last attempt, keeping the error', async () => {
    const closed = await startSmtp();
    await new Promise<void>((resolve) => closed.server.close(() => resolve()));
    const clock = createStoppedClock();
    const instance = await appWith({ SMTP_URL: `smtp://127.0.0.1:${closed.port}` }, clock);
    await instance.inject({ method: 'POST', url: '/papi/signup', payload: { email: 'smtp.down@example.com', password: 'smtp password' } });
    await outbox(instance, (r) => r[0]?.attempts === 1);
    for (const delay of mailRetryDelaysMs) {
      clock.advance(delay);
      expect(await instance.fanstage.jobs.runNow(MAIL_OUTBOX_JOB)).toBe(1);
    }
    const [row] = await instance.fanstage.db.select().from(mailOutbox);
    expect(row).toMatchObject({ sentAt: null, attempts: mailRetryDelaysMs.length + 1, nextAttemptAt: null });
    expect(row?.error).toMatch(/ECONNREFUSED|connect/i);
    clock.advance(24 * 3_600_000);
    expect(await instance.fanstage.jobs.runNow(MAIL_OUTBOX_JOB)).toBe(0);
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { ErrorKeys } from '../../lib/contract/errors';
import { loadConfig } from '../../server/src/config';
import { throttles } from '../../server/src/http/throttle';

const SUPPORT = 'help@fans.example';
let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({
    seed: false,
    env: { SUPPORT_EMAIL: SUPPORT, OPERATOR_NAME: 'Fans Example s.r.o.', OPERATOR_ADDRESS: 'Example Street 1, 110 00 Prague, Czech Republic' },
  });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { statusCode: number; statusText?: string; body?: any };

let nextAddress = 1;
/** Every test writes from a network address of its own, so the limits of one do not touch another. */
const freshAddress = () => `10.77.0.${nextAddress++}`;

async function send(url: '/papi/contact' | '/api/contact', payload: unknown, options: { token?: string; address?: string; origin?: string; language?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.origin !== undefined) headers.origin = options.origin;
  if (options.language !== undefined) headers.language = options.language;
  const response = await app.inject({ method: 'POST', url, headers, payload: payload as object, remoteAddress: options.address ?? freshAddress() });
  const json = response.json() as Answer;
  // Every answer is an envelope, every failure a key of the catalogue, never a 500.
  expect(response.statusCode).toBeLessThan(500);
  if (json.statusCode < 0) expect(ErrorKeys).toContain(json.statusText);
  return { status: response.statusCode, json };
}

async function supportMails() {
  const response = await app.inject({ method: 'GET', url: `/dev/mail.json?to=${encodeURIComponent(SUPPORT)}&limit=200` });
  return (response.json() as { mails: { subject: string; text: string; html: string; template: string; to: string }[] }).mails;
}

const message = (overrides: Record<string, unknown> = {}) => ({
  name: 'Jana Nováková',
  email: 'jana.novakova@example.com',
  topic: 'payments',
  subject: 'My top-up did not arrive',
  message: 'I paid for 50 credits an hour ago and my balance still shows zero.',
  ...overrides,
});

describe('the contact form', () => {
  it('publishes the operator and the support address in the settings, and whether visitors must log in', async () => {
    const settings = (await app.inject({ method: 'GET', url: '/papi/settings' })).json() as Answer;
    expect(settings.body.operator).toEqual({ name: 'Fans Example s.r.o.', address: 'Example Street 1, 110 00 Prague, Czech Republic', email: SUPPORT });
    expect(settings.body.forceLogin).toBe(false);
    // Defaults, and the checks of the configuration.
    const defaults = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://fans.example' });
    expect([defaults.operatorName, defaults.operatorAddress, defaults.supportEmail, defaults.forceLogin]).toEqual(['Fanstage', '', 'support@fans.example', false]);
    expect(loadConfig({ NODE_ENV: 'test', FORCE_LOGIN: 'on' }).forceLogin).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'test', SUPPORT_EMAIL: 'not an address' })).toThrow(/SUPPORT_EMAIL/);
    expect(() => loadConfig({ NODE_ENV: 'test', OPERATOR_NAME: '<script>' })).toThrow(/OPERATOR_NAME/);
  });

  it('a visitor’s message reaches the support outbox, with the answer address and the words as written', async () => {
    const words = 'I paid for 50 credits an hour ago and my balance still shows zero. <b>Thanks</b>';
    const answer = await send('/papi/contact', message({ message: words }), { language: 'cs' });
    expect(answer).toEqual({ status: 200, json: { statusCode: 1 } });
    const [mail] = await supportMails();
    expect(mail?.to).toBe(SUPPORT);
    expect(mail?.template).toBe('contact');
    expect(mail?.subject).toBe('[Contact · payments] My top-up did not arrive');
    expect(mail?.text).toContain('From: Jana Nováková <jana.novakova@example.com>');
    expect(mail?.text).toContain('Account: not signed in (visitor)');
    expect(mail?.text).toContain('Language: cs');
    expect(mail?.text).toContain(words);
    // What the sender wrote is never markup in the HTML body.
    expect(mail?.html).toContain('&#60;b&#62;Thanks&#60;/b&#62;');
    expect(mail?.html).not.toContain('<b>Thanks');
  });

  it('a signed-in person’s message names the account and answers to its address unless another is given', async () => {
    const fan = await createAccount(app, { verified: false });
    const own = await send('/api/contact', message({ email: undefined, subject: 'About my account' }), { token: fan.accessToken });
    expect(own.json).toEqual({ statusCode: 1 });
    let [mail] = await supportMails();
    expect(mail?.subject).toBe('[Contact · payments] About my account');
    expect(mail?.text).toContain(`From: Jana Nováková <${fan.email}>`);
    expect(mail?.text).toContain(`Account: @${fan.username} (id ${fan.id})`);

    const other = await send('/api/contact', message({ email: 'work.address@example.org', subject: 'Answer me at work' }), { token: fan.accessToken });
    expect(other.json).toEqual({ statusCode: 1 });
    [mail] = await supportMails();
    expect(mail?.text).toContain('From: Jana Nováková <work.address@example.org>');
    expect(mail?.text).toContain(`Account: @${fan.username}`);
    // /api needs the session: without a token it is 401, not a visitor's message.
    expect((await send('/api/contact', message())).status).toBe(401);
  });

  it('bad input gets the envelope and sends nothing', async () => {
    const before = (await supportMails()).length;
    const cases: [unknown, string][] = [
      [message({ email: undefined }), 'invalid-email'],
      [message({ email: 'nobody-at-example.com' }), 'invalid-email'],
      [message({ name: '' }), 'invalid-request'],
      [message({ name: '   ' }), 'invalid-request'],
      [message({ topic: 'lottery' }), 'invalid-request'],
      [message({ subject: 'x'.repeat(151) }), 'invalid-request'],
      [message({ message: 'too short' }), 'invalid-request'],
      [message({ message: 'x'.repeat(5001) }), 'invalid-request'],
      [message({ message: '\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008\u000e' }), 'invalid-request'],
      [message({ extra: 'field' }), 'invalid-request'],
      [{ ...message(), name: 42 }, 'invalid-request'],
      [[message()], 'invalid-request'],
    ];
    for (const [payload, key] of cases) {
      const answer = await send('/papi/contact', payload);
      expect(answer.json, JSON.stringify(payload).slice(0, 80)).toMatchObject({ statusCode: -1, statusText: key });
      expect(answer.status).toBe(400);
    }
    // Not JSON at all: the envelope too.
    const text = await app.inject({ method: 'POST', url: '/papi/contact', headers: { 'content-type': 'text/plain' }, payload: 'hello support', remoteAddress: freshAddress() });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect((await supportMails()).length).toBe(before);
  });

  it('limits messages per requester and per answer address, counted in the database', async () => {
    const address = freshAddress();
    const limit = throttles['contact-address'].limit;
    for (let i = 0; i < limit; i++) {
      expect((await send('/papi/contact', message({ email: 'one.sender@example.com', subject: `Try ${i}` }), { address: freshAddress() })).json.statusCode).toBe(1);
    }
    // The same answer address from anywhere else: refused.
    const sameAddress = await send('/papi/contact', message({ email: 'ONE.sender@example.com' }), { address });
    expect(sameAddress).toEqual({ status: 429, json: { statusCode: -1, statusText: 'too-many-requests' } });

    // One requester writing under ever new addresses: refused after its own limit.
    const requester = freshAddress();
    for (let i = 0; i < throttles['contact-requester'].limit; i++) {
      expect((await send('/papi/contact', message({ email: `sender.${i}@example.com` }), { address: requester })).json.statusCode).toBe(1);
    }
    expect((await send('/papi/contact', message({ email: 'yet.another@example.com' }), { address: requester })).json.statusText).toBe('too-many-requests');

    // A signed-in person is counted by account, whatever network address they come from.
    const fan = await createAccount(app);
    for (let i = 0; i < throttles['contact-requester'].limit; i++) {
      expect((await send('/api/contact', message({ email: `fan.${i}@example.com` }), { token: fan.accessToken })).json.statusCode).toBe(1);
    }
    expect((await send('/api/contact', message({ email: 'fan.more@example.com' }), { token: fan.accessToken })).json.statusText).toBe('too-many-requests');

    // An hour later the window has moved on.
    app.fanstage.clock.advance(throttles['contact-requester'].windowMs + 1_000);
    expect((await send('/api/contact', message({ email: 'fan.later@example.com' }), { token: fan.accessToken })).json.statusCode).toBe(1);
  });

  it('refuses a page on another site, for visitors and for sessions', async () => {
    const before = (await supportMails()).length;
    const visitor = await send('/papi/contact', message(), { origin: 'https://evil.example' });
    expect(visitor).toEqual({ status: 403, json: { statusCode: -1, statusText: 'origin-not-allowed' } });
    const fan = await createAccount(app);
    const signedIn = await send('/api/contact', message(), { origin: 'https://evil.example', token: fan.accessToken });
    expect(signedIn.json).toEqual({ statusCode: -1, statusText: 'origin-not-allowed' });
    // The platform's own page may.
    expect((await send('/papi/contact', message({ email: 'own.page@example.com' }), { origin: new URL(app.fanstage.config.publicUrl).origin })).json.statusCode).toBe(1);
    expect((await supportMails()).length).toBe(before + 1);
  });
});

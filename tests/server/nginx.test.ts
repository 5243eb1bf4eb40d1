import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:https';
import { WebSocket } from 'ws';
import { socketProtocols, type ServerMessage } from '../../lib/contract/realtime';
import { freePort } from '../support/ports';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';

/**
 * docs/examples/nginx.conf, as written, in front of the server (Debian's nginx, a self-signed
 * certificate): sign-in over HTTPS with its cookies marked Secure, a chat over wss through the
 * upgrade, a widget's popup sign-in from another origin — no access token in nginx's access log,
 * and each request known by one id to nginx, the server and its answer.
 */
const nginx = '/usr/sbin/nginx';
const run = promisify(execFile);

describe.skipIf(!existsSync(nginx))('behind nginx with TLS (docs/examples/nginx.conf)', () => {
  let server: TestServer;
  let proxy: ChildProcess;
  let dir = '';
  let base = '';
  let certificate = '';

  /** One HTTPS request through nginx, trusting the test's certificate. */
  const call = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
      const req = request(`${base}${url}`, { method: init.method ?? 'GET', headers: init.headers ?? {}, ca: certificate }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      });
      req.on('error', reject);
      req.end(init.body);
    });

  beforeAll(async () => {
    server = await startTestServer({ seed: false, env: { TRUST_PROXY: 'loopback', PUBLIC_URL: 'https://fans.example' } });
    dir = await mkdtemp(path.join(tmpdir(), 'fanstage-nginx-'));
    await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')]);
    certificate = await readFile(path.join(dir, 'cert.pem'), 'utf8');
    const [httpsPort, httpPort] = [await freePort(), await freePort()];
    const site = (await readFile(path.join(import.meta.dirname, '../../docs/examples/nginx.conf'), 'utf8'))
      .replace('server 127.0.0.1:8080;', `server ${new URL(server.baseUrl).host};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
      .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
      .replace('/etc/ssl/fanstage/fullchain.pem', path.join(dir, 'cert.pem'))
      .replace('/etc/ssl/fanstage/privkey.pem', path.join(dir, 'key.pem'))
      .replace('/var/log/nginx/fanstage.access.log', path.join(dir, 'access.log'));
    expect(site).toContain(path.join(dir, 'cert.pem'));
    await writeFile(path.join(dir, 'site.conf'), site);
    // What the distribution's nginx.conf gives the http context; the site file goes inside.
    await writeFile(
      path.join(dir, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log warn;`,
        'events { worker_connections 256; }',
        'http {',
        `  access_log ${dir}/access.log;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${name}_temp_path ${dir}/${name};`),
        `  include ${dir}/site.conf;`,
        '}',
      ].join('\n'),
    );
    proxy = spawn(nginx, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
    base = `https://127.0.0.1:${httpsPort}`;
    for (let i = 0; ; i++) {
      try {
        await call('/papi/health/live');
        break;
      } catch (error) {
        if (i > 100 || proxy.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }, 60_000);

  afterAll(async () => {
    proxy?.kill('SIGQUIT');
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('signs in with Secure cookies, chats over wss, and logs no token', async () => {
    const [account, partner] = await Promise.all([createAccount(server.app), createAccount(server.app)]);
    const login = await call('/papi/login', {
      method: 'POST',
      // A client's own id is replaced by the proxy's.
      headers: { 'content-type': 'application/json', 'x-request-id': 'chosen-by-the-client' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    expect(login.status).toBe(200);
    const { body } = JSON.parse(login.text) as { body: { accessToken: string } };
    // The public address is https: the refresh cookie is Secure.
    expect(([login.headers['set-cookie'] ?? []].flat() as string[]).find((cookie) => cookie.startsWith('fs_refresh='))).toMatch(/; Secure/i);

    // The socket goes through the upgrade, with the token in its subprotocol.
    const socket = new WebSocket(`${base.replace(/^https/, 'wss')}/ws/`, socketProtocols(body.accessToken), { ca: certificate, origin: 'https://fans.example' });
    const received: ServerMessage[] = [];
    socket.on('message', (data) => received.push(JSON.parse(String(data)) as ServerMessage));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    for (let i = 0; i < 200 && !received.some((m) => m.type === 'hello'); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(received.some((m) => m.type === 'hello')).toBe(true);
    // A chat message through the proxy, stored and echoed.
    const msgId = 'nginx0000000000000000000';
    socket.send(JSON.stringify({ type: 'chatMessage', msgId, receiverId: partner.id, text: 'through nginx' }));
    for (let i = 0; i < 200 && !received.some((m) => m.type === 'chatMessage' && m.message.msgId === msgId); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(received.find((m) => m.type === 'chatMessage' && m.message.msgId === msgId)).toMatchObject({ message: { text: 'through nginx', receiverId: partner.id } });
    socket.close();

    // nginx writes the socket's line once it has closed.
    const accessLog = () => readFile(path.join(dir, 'access.log'), 'utf8');
    await expect.poll(accessLog, { timeout: 5_000 }).toContain('"GET /ws/ HTTP/1.1" 101');
    const log = await accessLog();
    expect(log).not.toContain(body.accessToken);
    // The id nginx logged for the sign-in is the one the server answered with.
    const requestId = login.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(log.split('\n').find((line) => line.includes('"POST /papi/login HTTP/1.1" 200'))).toMatch(new RegExp(` ${String(requestId)}$`));
  });

  // docs/auth.md, "Widgets on other sites": the popup on the platform's origin, the exchange and
  // the widget's calls from the partner's, every one of them through the proxy.
  it("signs a widget on another origin in through the popup, its token good for that origin alone", async () => {
    const account = await createAccount(server.app);
    const partnerSite = 'https://partner.example';
    const json = (headers: Record<string, string>) => ({ 'content-type': 'application/json', ...headers });
    const issued = await call('/api/embed/code', {
      method: 'POST',
      headers: json({ authorization: `Bearer ${account.accessToken}`, origin: 'https://fans.example' }),
      body: JSON.stringify({ origin: partnerSite, allow: true }),
    });
    expect(issued.status).toBe(200);
    const { code } = (JSON.parse(issued.text) as { body: { code: string } }).body;

    const preflight = await call('/papi/embed/exchange', { method: 'OPTIONS', headers: { origin: partnerSite, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect([preflight.status, preflight.headers['access-control-allow-credentials']]).toEqual([204, undefined]);
    const exchange = () => call('/papi/embed/exchange', { method: 'POST', headers: json({ origin: partnerSite }), body: JSON.stringify({ code, origin: partnerSite }) });
    const exchanged = await exchange();
    expect(exchanged.status).toBe(200);
    // The widget keeps its tokens itself: no cookie of the platform's crosses to the partner.
    expect(exchanged.headers['set-cookie']).toBeUndefined();
    const widget = (JSON.parse(exchanged.text) as { body: { accessToken: string } }).body;
    const me = (origin: string) => call('/api/users/me', { headers: { authorization: `Bearer ${widget.accessToken}`, origin } });
    const answer = await me(partnerSite);
    expect([answer.status, (JSON.parse(answer.text) as { body: { id: number } }).body.id]).toEqual([200, account.id]);
    // Another page holding the token gets nothing with it, and the code was good once.
    const stranger = await me('https://attacker.example');
    expect([stranger.status, JSON.parse(stranger.text)]).toEqual([403, { statusCode: -1, statusText: 'origin-not-allowed' }]);
    expect(JSON.parse((await exchange()).text)).toEqual({ statusCode: -1, statusText: 'invalid-code' });
  });
});

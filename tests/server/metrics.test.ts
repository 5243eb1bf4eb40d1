import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { socketProtocols } from '../../lib/contract/realtime';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';

const token = 'a-scraper-token-of-some-length';

/** The value of a sample line `name{labels} value`, or undefined when the page has none. */
function sample(page: string, line: RegExp): number | undefined {
  const match = new RegExp(`^${line.source} (\\S+)$`, 'm').exec(page);
  return match ? Number(match[1]) : undefined;
}

describe('GET /metrics', () => {
  let server: TestServer;
  let bare: TestServer;
  beforeAll(async () => {
    [server, bare] = await Promise.all([startTestServer({ seed: false, env: { METRICS_TOKEN: token } }), startTestServer({ seed: false })]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), bare?.close()]);
  });

  it('answers only a scraper with the token, and does not exist without one configured', async () => {
    expect((await fetch(`${bare.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    const none = await fetch(`${server.baseUrl}/metrics`);
    expect([none.status, none.headers.get('www-authenticate'), await none.json()]).toEqual([401, 'Bearer realm="metrics"', { statusCode: -1, statusText: 'unauthorized' }]);
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: 'Bearer ' } })).status).toBe(401);
  });

  it('counts requests by route pattern, sockets and their messages, jobs, the outbox, the ledger and the event loop', async () => {
    const account = await createAccount(server.app);
    for (const username of ['someone', 'someone-else']) await fetch(`${server.baseUrl}/papi/users/${username}`);
    const socket = new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(account.accessToken), { origin: server.baseUrl });
    await new Promise<void>((resolve, reject) => {
      socket.once('message', () => resolve());
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'ping', ts: 1 }));
    socket.send(JSON.stringify({ type: 'made-up-type' }));
    await new Promise<void>((resolve) => {
      let seen = 0;
      socket.on('message', () => ++seen === 2 && resolve());
    });
    await server.app.fanstage.jobs.runNow('lapsed-holds');

    const response = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = await response.text();

    // Requests by the route’s pattern, never by the address: one series for both usernames.
    expect(sample(page, /fanstage_http_requests_total\{method="GET",route="\/papi\/users\/:id",status="404"\}/)).toBe(2);
    expect(page).not.toContain('someone-else');
    expect(page).toMatch(/^fanstage_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/papi\/users\/:id",status="404"\} \d+$/m);
    expect(sample(page, /fanstage_websocket_connections/)).toBe(1);
    expect(sample(page, /fanstage_websocket_messages_total\{direction="out",type="all"\}/)).toBeGreaterThanOrEqual(3);
    // What a client makes up is counted, not named.
    expect(sample(page, /fanstage_websocket_messages_total\{direction="in",type="unknown"\}/)).toBe(1);
    expect(page).not.toContain('made-up-type');
    expect(sample(page, /fanstage_job_runs_total\{job="lapsed-holds",outcome="ok"\}/)).toBe(1);
    expect(page).toContain('fanstage_job_duration_seconds_bucket{le="0.01",job="lapsed-holds"}');
    expect(sample(page, /fanstage_mail_outbox_due/)).toBe(0);
    expect(sample(page, /fanstage_ledger_holds_open\{measure="holds"\}/)).toBe(0);
    expect(page).toMatch(/^fanstage_ledger_transfers_total \d+$/m);
    expect(page).toMatch(/^fanstage_nodejs_eventloop_lag_p99_seconds \S+$/m);
    expect(page).toMatch(/^fanstage_process_resident_memory_bytes \d+$/m);
    if (server.databaseUrl.startsWith('postgres')) {
      expect(sample(page, /fanstage_db_pool_connections\{state="waiting"\}/)).toBe(0);
      expect(sample(page, /fanstage_db_pool_connections\{state="total"\}/)).toBeGreaterThan(0);
    } else {
      expect(page).not.toContain('fanstage_db_pool_connections');
    }
    socket.close();
  });
});

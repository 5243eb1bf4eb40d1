import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket as NodeWebSocket, WebSocketServer, type WebSocket as ServerSide } from 'ws';
import { socketProtocols, tokenOfProtocols } from '../../lib/contract/realtime';
import { createFanstage, socketUrl, type Fanstage, type FanstageOptions, type SocketErrorCode, type WebSocketConstructor } from '../../lib/sdk';
import { reconnectWait } from '../../lib/sdk/socket';
import type { Balance, ChatMessage, Conversation } from '../../lib/contract';
import type { ClientMessage, ServerMessage } from '../../lib/contract/realtime';
import { sendEnvelope, type ApiServer, type Handler, type RecordedRequest } from './support/api-server';
import { fetchWithCookies, mountSessionServer, type SessionServer } from './support/session-server';
import { profile } from './support/profiles';

/** One websocket the server accepted, with everything the client sent on it. */
interface Connection {
  ws: ServerSide;
  token: string;
  received: ClientMessage[];
  closed: boolean;
}

/**
 * A real HTTP server (the session endpoints of tests/unit/support/session-server.ts) with a
 * real `ws` server at `/ws/` on the same port: it checks the token subprotocol against the access tokens the
 * session server issued, closes with 4401 when the token is not live, then says `hello`.
 */
interface RealtimeServer extends ApiServer {
  readonly connections: Connection[];
  /**
   * What the server does with the next connections: 'accept' (default), 'refuse-origin' (4403),
   * or 'refuse-token' (4401 whatever the token). An accepted connection gets `hello` and then
   * only what a test sends: no pings, as from a server that has gone silent.
   */
  behaviour: 'accept' | 'refuse-origin' | 'refuse-token';
  /** Closes every open connection as a restarting server would (1012). */
  dropAll(): void;
  /** The next this many connections are cut at once (no close frame: 1006), as while the server is down. */
  refuseNext: number;
  /**
   * The next this many connections are closed with 1013 `service-unavailable`, as the real
   * server closes them while it cannot reach its database (which a test cannot stop here).
   */
  unavailableNext: number;
  /** The access tokens the server accepts. */
  liveTokens: ReadonlySet<string>;
  /** The chat stream's position `hello` names (none by default, as an older server). */
  chatSeq: number | undefined;
  send(connection: Connection, message: ServerMessage): void;
}

async function startRealtimeServer(): Promise<RealtimeServer> {
  const handlers = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const connections: Connection[] = [];
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const handler = handlers.get(recorded.url.split('?')[0] ?? '/');
      if (!handler) return sendEnvelope(res, { statusCode: -1, statusText: 'route-not-found' }, 404);
      void Promise.resolve(handler(recorded, res));
    });
  });
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has('fanstage.v1') ? 'fanstage.v1' : false) });
  http.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws/') return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      // Never from the address: a token there would be logged by every proxy.
      expect(url.search).toBe('');
      const token = tokenOfProtocols(req.headers['sec-websocket-protocol']) ?? '';
      const connection: Connection = { ws, token, received: [], closed: false };
      connections.push(connection);
      ws.on('message', (data) => connection.received.push(JSON.parse(String(data)) as ClientMessage));
      ws.on('close', () => (connection.closed = true));
      if (state.refuseNext > 0) {
        state.refuseNext -= 1;
        return ws.terminate();
      }
      if (state.unavailableNext > 0) {
        state.unavailableNext -= 1;
        return ws.close(1013, 'service-unavailable');
      }
      if (state.behaviour === 'refuse-origin') return ws.close(4403, 'origin');
      if (state.behaviour === 'refuse-token' || !state.liveTokens.has(token)) return ws.close(4401, 'unauthorized');
      ws.send(JSON.stringify({ type: 'hello', userId: 100, serverTime: Date.now(), ...(state.chatSeq === undefined ? {} : { chatSeq: state.chatSeq }) }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const state: RealtimeServer = {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    connections,
    behaviour: 'accept',
    refuseNext: 0,
    unavailableNext: 0,
    liveTokens: new Set(),
    chatSeq: undefined,
    on: (path, handler) => void handlers.set(path, handler),
    dropAll: () => connections.filter((c) => !c.closed).forEach((c) => c.ws.close(1012, 'restart')),
    send: (connection, message) => connection.ws.send(JSON.stringify(message)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        http.closeAllConnections();
        http.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return state;
}

let server: RealtimeServer;
let api: SessionServer;
const made: Fanstage[] = [];
let balanceTs = 100;

beforeAll(async () => {
  server = await startRealtimeServer();
  api = mountSessionServer(server);
  server.liveTokens = api.liveAccessTokens;
  api.addPerson('fan@example.com', 'correct horse battery');
  // The wallet's balance, as `GET /api/payments/balance` answers it.
  server.on('/api/payments/balance', (_req, res) => {
    const balance: Balance = { gBalance: 1000, cBalance: 0, cPayout: 0, ts: balanceTs, isFirst: false, myCbalance: 0, myCbalance_acked: 0, firstEarningsSeen: false };
    sendEnvelope(res, { statusCode: 2, body: balance });
  });
  server.on('/api/count/', (_req, res) => sendEnvelope(res, { statusCode: 2, body: { notifications: 3, chats: 0, reactions: 0 } }));
});

afterEach(() => {
  server.behaviour = 'accept';
  server.refuseNext = 0;
  server.unavailableNext = 0;
  server.chatSeq = undefined;
  for (const fanstage of made.splice(0)) {
    fanstage.socket.disconnect();
    fanstage.session.dispose();
  }
  for (const connection of server.connections.splice(0)) connection.ws.terminate();
});

afterAll(() => server.close());

/** A logged-in fan whose socket uses `ws` as its WebSocket and short, test-sized waits. */
async function loggedIn(socket: FanstageOptions['socket'] = {}): Promise<Fanstage> {
  const fanstage = createFanstage({
    baseUrl: server.baseUrl,
    fetch: fetchWithCookies(),
    session: { mode: 'cookie' },
    socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 20, ...socket },
  });
  made.push(fanstage);
  await fanstage.session.login('fan@example.com', 'correct horse battery');
  return fanstage;
}

function live(): Connection[] {
  return server.connections.filter((c) => !c.closed);
}

describe('socket url', () => {
  it('uses ws for http and wss for https, on the API host at /ws/', () => {
    expect(socketUrl('http://127.0.0.1:8080')).toBe('ws://127.0.0.1:8080/ws/');
    expect(socketUrl('https://api.fanstage.example/base/')).toBe('wss://api.fanstage.example/ws/');
    // The token travels in a subprotocol, and is read back from the header the server gets.
    expect(socketProtocols('a.b-c_d')).toEqual(['fanstage.v1', 'fanstage.token.a.b-c_d']);
    expect(tokenOfProtocols('fanstage.v1, fanstage.token.a.b-c_d')).toBe('a.b-c_d');
    expect(tokenOfProtocols('fanstage.v1')).toBeNull();
    expect(tokenOfProtocols('fanstage.token.')).toBeNull();
    expect(tokenOfProtocols(undefined)).toBeNull();
  });
});

describe('fanstage.socket', () => {
  it('does not connect by itself, and not without a session', async () => {
    const anonymous = createFanstage({ baseUrl: server.baseUrl, fetch: fetchWithCookies(), socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor } });
    made.push(anonymous);
    expect(anonymous.socket.connect()).toBe(false);
    expect(anonymous.socket.lastError.value).toBe('no-session');
    const fanstage = await loggedIn();
    expect(fanstage.socket.connectedState.value).toBe('idle');
    expect(server.connections).toHaveLength(0);
  });

  it('connects with the access token, dispatches messages and answers pings', async () => {
    const fanstage = await loggedIn();
    const hellos: number[] = [];
    const posts: number[] = [];
    fanstage.socket.on('hello', (message) => hellos.push(message.userId));
    const stop = fanstage.socket.on('newPost', (message) => posts.push(message.postId));
    expect(fanstage.socket.connect()).toBe(true);
    await vi.waitFor(() => expect(hellos).toEqual([100]));
    expect(fanstage.socket.connectedState.value).toBe('open');
    const [connection] = live();
    expect(connection!.token).toBe(fanstage.session.accessToken.value);

    server.send(connection!, { type: 'newPost', postId: 7, userId: 42 });
    server.send(connection!, { type: 'ping', ts: 1234 });
    await vi.waitFor(() => expect(connection!.received).toEqual([{ type: 'pong', ts: 1234 }]));
    expect(posts).toEqual([7]);

    stop();
    server.send(connection!, { type: 'newPost', postId: 8, userId: 42 });
    server.send(connection!, { type: 'updateCount', notifications: 5, chats: 2, reactions: 1 });
    await vi.waitFor(() => expect(fanstage.notifications.unreadCount.value).toBe(5));
    // The Chat tab counts conversations with unread messages and unseen reactions.
    expect(fanstage.chat.counts.value).toEqual({ chats: 2, reactions: 1 });
    expect(fanstage.chat.badgeCount.value).toBe(3);
    expect(posts).toEqual([7]);

    server.send(connection!, { type: 'notificationsRead' });
    await vi.waitFor(() => expect(fanstage.notifications.unreadCount.value).toBe(0));

    expect(fanstage.socket.send({ type: 'notificationsRead' })).toBe(true);
    await vi.waitFor(() => expect(connection!.received).toContainEqual({ type: 'notificationsRead' }));
  });

  it('refuses to send while not open, and queues nothing', async () => {
    const fanstage = await loggedIn();
    expect(fanstage.socket.send({ type: 'ping', ts: 1 })).toBe(false);
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    fanstage.socket.disconnect();
    expect(fanstage.socket.connectedState.value).toBe('closed');
    expect(fanstage.socket.send({ type: 'ping', ts: 2 })).toBe(false);
    await vi.waitFor(() => expect(live()).toHaveLength(0));
    expect(server.connections.flatMap((c) => c.received)).toEqual([]);
  });

  it('reconnects after a server close and re-fetches what it may have missed', async () => {
    const fanstage = await loggedIn();
    const reconnected: number[] = [];
    fanstage.socket.on('reconnected', (event) => reconnected.push(event.attempts));
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    const balanceCalls = api.count('/api/payments/balance');

    server.dropAll();
    await vi.waitFor(() => expect(reconnected).toEqual([1]));
    expect(fanstage.socket.connectedState.value).toBe('open');
    expect(fanstage.socket.attempts.value).toBe(0);
    expect(live()).toHaveLength(1);
    // The wallet and the badge count are asked again.
    await vi.waitFor(() => expect(fanstage.notifications.unreadCount.value).toBe(3));
    await vi.waitFor(() => expect(fanstage.wallet.balance.value?.gBalance).toBe(1000));
    expect(api.count('/api/payments/balance')).toBe(balanceCalls + 1);
  });

  it('refreshes the token once when the first connection is refused with 4401, then connects', async () => {
    const fanstage = await loggedIn();
    const before = fanstage.session.accessToken.value;
    api.expireAccessTokens();
    const refreshes = api.count('/papi/login/refresh');
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    expect(api.count('/papi/login/refresh')).toBe(refreshes + 1);
    expect(server.connections.map((c) => c.token)).toEqual([before, fanstage.session.accessToken.value]);
    expect(fanstage.session.accessToken.value).not.toBe(before);
  });

  it('stops when the token is refused again after the refresh', async () => {
    const failures: SocketErrorCode[] = [];
    const fanstage = await loggedIn({ onFailure: (code) => failures.push(code) });
    const refreshes = api.count('/papi/login/refresh');
    server.behaviour = 'refuse-token';
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('failed'));
    expect(fanstage.socket.lastError.value).toBe('unauthorized');
    expect(failures).toEqual(['unauthorized']);
    expect(server.connections).toHaveLength(2);
    expect(api.count('/papi/login/refresh')).toBe(refreshes + 1);
  });

  it('treats a refused origin as final', async () => {
    const failures: SocketErrorCode[] = [];
    const fanstage = await loggedIn({ mode: 'widget', onFailure: (code) => failures.push(code) });
    server.behaviour = 'refuse-origin';
    fanstage.socket.connect();
    await vi.waitFor(() => expect(failures).toEqual(['origin-refused']));
    expect(fanstage.socket.connectedState.value).toBe('failed');
    expect(server.connections).toHaveLength(1);
  });

  it('in a widget, gives up after the allowed attempts and reports the failure', async () => {
    const failures: SocketErrorCode[] = [];
    const trying: boolean[] = [];
    const fanstage = await loggedIn({ mode: 'widget', maxAttempts: 3, onFailure: (code) => failures.push(code) });
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    server.refuseNext = Infinity;
    fanstage.socket.attempts.subscribe(() => trying.push(fanstage.socket.tryingToReconnect.value));
    server.dropAll();
    await vi.waitFor(() => expect(failures).toEqual(['gave-up']));
    expect(fanstage.socket.connectedState.value).toBe('failed');
    expect(fanstage.socket.tryingToReconnect.value).toBe(false);
    // The first connection and three reconnections, then nothing more.
    expect(server.connections).toHaveLength(4);
    // The warning shows from the second attempt on.
    expect(trying).toEqual([false, false, true, true]);
  });

  it('on the site, reloads the page after more than 6 reconnections', async () => {
    let reloads = 0;
    const fanstage = await loggedIn({ reload: () => (reloads += 1) });
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    server.refuseNext = Infinity;
    server.dropAll();
    await vi.waitFor(() => expect(reloads).toBe(1));
    expect(server.connections).toHaveLength(1 + 6);
    expect(fanstage.socket.connectedState.value).toBe('failed');
  });

  it('on the site, waits for the server to answer before that reload, so the page never reloads onto an error page', async () => {
    let reloads = 0;
    const fanstage = await loggedIn({ reload: () => (reloads += 1) });
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    // The server is down behind a proxy: sockets refused, and the proxy's 503 for any page.
    const probes: string[] = [];
    server.on('/papi/settings', (_req, res) => {
      probes.push('down');
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('Service Unavailable');
    });
    server.refuseNext = Infinity;
    server.dropAll();
    await vi.waitFor(() => expect(probes.length).toBeGreaterThanOrEqual(3));
    expect(reloads).toBe(0);
    expect(server.connections).toHaveLength(1 + 6);
    // Still telling the person it is reconnecting while it waits.
    expect(fanstage.socket.connectedState.value).toBe('reconnecting');
    expect(fanstage.socket.tryingToReconnect.value).toBe(true);
    // No attempt flashes the warning any more: the socket says it waits, so the page keeps it up.
    expect(fanstage.socket.waitingForServer.value).toBe(true);
    // Back: the next question is answered, and the page reloads once.
    server.on('/papi/settings', (_req, res) => sendEnvelope(res, { statusCode: 2, body: {} }));
    await vi.waitFor(() => expect(reloads).toBe(1));
    expect(fanstage.socket.connectedState.value).toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reloads).toBe(1);
  });

  it('counts reconnections in a row: an open in between starts again', async () => {
    let reloads = 0;
    const fanstage = await loggedIn({ reload: () => (reloads += 1), reloadAfter: 2 });
    fanstage.socket.connect();
    let opens = 0;
    fanstage.socket.on('hello', () => (opens += 1));
    for (let round = 1; round <= 3; round++) {
      await vi.waitFor(() => expect(opens).toBe(round));
      // Each time: one refused reconnection, then a second that works.
      server.refuseNext = 1;
      server.dropAll();
    }
    await vi.waitFor(() => expect(opens).toBe(4));
    expect(server.connections).toHaveLength(1 + 3 * 2);
    expect(reloads).toBe(0);
  });

  it('drops a silent connection after twice the heartbeat and connects again', async () => {
    const fanstage = await loggedIn({ heartbeatMs: 100 });
    const reconnected: number[] = [];
    fanstage.socket.on('reconnected', (event) => reconnected.push(event.attempts));
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    const first = server.connections[0]!;
    await vi.waitFor(() => expect(reconnected.length).toBeGreaterThan(0));
    fanstage.socket.disconnect();
    expect(reconnected[0]).toBe(1);
    await vi.waitFor(() => expect(first.closed).toBe(true));
    expect(first.received).toEqual([]);
  });

  it('a server that keeps talking is not dropped', async () => {
    // Silence is allowed for 2 s; the server talks every 300 ms for longer than that.
    const fanstage = await loggedIn({ heartbeatMs: 1000 });
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    const connection = live()[0]!;
    for (let i = 0; i < 8; i++) {
      server.send(connection, { type: 'ping', ts: i });
      await vi.waitFor(() => expect(connection.received).toHaveLength(i + 1));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(connection.closed).toBe(false);
    expect(server.connections).toHaveLength(1);
  });

  it('after 1013 (the server cannot reach its database) waits longer each time, never reloads for it, and comes back', async () => {
    let reloads = 0;
    const draws: number[] = [];
    const random = () => {
      draws.push(0.5);
      return 0.5;
    };
    const fanstage = await loggedIn({ reload: () => (reloads += 1), reloadAfter: 2, unavailableMs: 10, unavailableMaxMs: 40, random });
    const reconnected: number[] = [];
    fanstage.socket.on('reconnected', (event) => reconnected.push(event.attempts));
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    const states: [string, SocketErrorCode | null, boolean, number, boolean][] = [];
    const record = () =>
      states.push([fanstage.socket.connectedState.value, fanstage.socket.lastError.value, fanstage.socket.tryingToReconnect.value, fanstage.socket.attempts.value, fanstage.socket.waitingForServer.value]);
    fanstage.socket.connectedState.subscribe(record);
    fanstage.socket.lastError.subscribe(record);
    // A restart drops the socket; then the database is away for more tries than a reload allows.
    server.unavailableNext = 5;
    server.dropAll();
    await vi.waitFor(() => expect(reconnected).toEqual([1]));
    expect(reloads).toBe(0);
    expect(server.connections).toHaveLength(1 + 5 + 1);
    // Only the drop counted; each 1013 said so and kept the person told it is reconnecting.
    expect(states).toContainEqual(['reconnecting', 'service-unavailable', true, 1, true]);
    expect(states.at(-1)).toEqual(['open', null, false, 0, false]);
    // Every wait was drawn at random: the drop's and each of the five 1013s'.
    expect(draws).toHaveLength(1 + 5);
  });

  it('before the first open, a 1013 is no refused token: no refresh, it tries again later and connects', async () => {
    const fanstage = await loggedIn({ unavailableMs: 10 });
    const refreshes = api.count('/papi/login/refresh');
    server.unavailableNext = 2;
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    expect(server.connections).toHaveLength(3);
    expect(api.count('/papi/login/refresh')).toBe(refreshes);
  });

  it('in a widget, 1013 closes do not count toward giving up', async () => {
    const failures: SocketErrorCode[] = [];
    const fanstage = await loggedIn({ mode: 'widget', maxAttempts: 2, unavailableMs: 10, onFailure: (code) => failures.push(code) });
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    const reconnected: number[] = [];
    fanstage.socket.on('reconnected', (event) => reconnected.push(event.attempts));
    server.unavailableNext = 4;
    server.dropAll();
    await vi.waitFor(() => expect(reconnected).toEqual([1]));
    expect(fanstage.socket.connectedState.value).toBe('open');
    expect(server.connections).toHaveLength(1 + 4 + 1);
    expect(failures).toEqual([]);
  });

  it('spreads the waits: a little after a drop, doubling and wide after each 1013 in a row', () => {
    const timing = { reconnectMs: 2000, unavailableMs: 5000, unavailableMaxMs: 60_000 };
    const low = () => 0;
    const high = () => 0.999999;
    // SPEC §4's 2 s, and up to half a second more.
    expect(reconnectWait(0, timing, low)).toBe(2000);
    expect(reconnectWait(0, timing, high)).toBeCloseTo(2500, 0);
    // 5 s, 10 s, 20 s, 40 s, then 60 s at most — each anywhere from half of it to all of it.
    expect([1, 2, 3, 4, 5, 9].map((n) => reconnectWait(n, timing, low))).toEqual([2500, 5000, 10_000, 20_000, 30_000, 30_000]);
    expect([1, 2, 3, 4, 5, 9].map((n) => Math.round(reconnectWait(n, timing, high)))).toEqual([5000, 10_000, 20_000, 40_000, 60_000, 60_000]);
    // A thousand pages told to wait do not come back within one second of each other.
    let seed = 7;
    const lcg = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const waits = Array.from({ length: 1000 }, () => reconnectWait(1, timing, lcg));
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(2000);
  });

  it('the chat resumes below a position still missing: a message published ahead of an earlier one never makes it skip that one', async () => {
    const fanstage = await loggedIn();
    server.chatSeq = 0;
    fanstage.socket.connect();
    await vi.waitFor(() => expect(live()).toHaveLength(1));
    const resumes = () => server.connections.flatMap((c) => c.received.filter((m) => m.type === 'resume'));
    let connection = live()[0]!;
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    // Positions 1 and 3 arrive; 2 is still on its way.
    server.send(connection, { type: 'chatMessage', message: chatMessage(11, 1) });
    server.send(connection, { type: 'chatMessage', message: chatMessage(13, 3) });
    /** A round trip: once the pong is back, the client has handled everything sent before the ping. */
    const handled = async () => {
      const ts = Math.random();
      server.send(connection, { type: 'ping', ts });
      await vi.waitFor(() => expect(connection.received).toContainEqual({ type: 'pong', ts }));
    };
    const reconnect = async () => {
      const count = server.connections.length;
      server.dropAll();
      await vi.waitFor(() => expect(server.connections).toHaveLength(count + 1));
      await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
      connection = live()[0]!;
    };
    await handled();
    await reconnect();
    await vi.waitFor(() => expect(resumes()).toEqual([{ type: 'resume', after: 1 }]));
    // The resume brings 2 (and 3 again, kept once); a full batch asks again after its last.
    server.send(connection, { type: 'chatMessage', message: chatMessage(12, 2) });
    server.send(connection, { type: 'chatMessage', message: chatMessage(13, 3) });
    server.send(connection, { type: 'resumed', last: 3, more: true });
    await vi.waitFor(() => expect(resumes().at(-1)).toEqual({ type: 'resume', after: 3 }));
    server.send(connection, { type: 'resumed', last: 3, more: false });
    // Live 4, then a mass message of the viewer's whose copies took 5…7.
    server.send(connection, { type: 'chatMessage', message: chatMessage(14, 4) });
    server.send(connection, { type: 'massChatMessage', message: { id: 1, msgId: 'm', recGroup: 'followers', text: 'hi', media: null, sendDt: 1, recipientsCount: 3, unlocksCount: 0 }, seqFrom: 5, seqTo: 7 });
    await handled();
    await reconnect();
    await vi.waitFor(() => expect(resumes().at(-1)).toEqual({ type: 'resume', after: 7 }));
    expect(resumes()).toHaveLength(3);
  });

  it('a chat message the server cannot store while its database is away fails as not delivered, saying so', async () => {
    const fanstage = await loggedIn();
    server.on('/api/chat/conversations/200', (_req, res) => sendEnvelope(res, { statusCode: 2, body: { conversation: conversationWith(200), messages: [] } }));
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    const thread = fanstage.chat.thread(200);
    await thread.load();
    const sent = thread.send({ text: 'hello' });
    if (!sent.ok) throw new Error(sent.problem);
    const connection = live()[0]!;
    await vi.waitFor(() => expect(connection.received).toContainEqual(expect.objectContaining({ type: 'chatMessage', msgId: sent.msgId })));
    server.send(connection, { type: 'error', statusText: 'service-unavailable', ref: 'chatMessage', msgId: sent.msgId });
    await vi.waitFor(() => expect(thread.items.value[0]).toMatchObject({ msgId: sent.msgId, state: 'failed', failure: 'not_delivered-general', reason: 'service-unavailable' }));
    // Sent again later, with the same msgId.
    expect(thread.resend(sent.msgId)).toBe(true);
    await vi.waitFor(() => expect(connection.received.filter((m) => m.type === 'chatMessage' && m.msgId === sent.msgId)).toHaveLength(2));
  });

  it('discards a balance older than the one the wallet has', async () => {
    const fanstage = await loggedIn();
    balanceTs = 100;
    await fanstage.wallet.refresh();
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    const connection = live()[0]!;
    const update = (gBalance: number, ts: number) => ({ gBalance, cBalance: 0, cPayout: 0, ts, myCbalance: 0, myCbalance_acked: 0 });
    server.send(connection, { type: 'amountChange', balance: update(500, 300) });
    server.send(connection, { type: 'amountChange', balance: update(1, 250) });
    server.send(connection, { type: 'updateCount', notifications: 9, chats: 0, reactions: 0 });
    await vi.waitFor(() => expect(fanstage.notifications.unreadCount.value).toBe(9));
    expect(fanstage.wallet.balance.value).toMatchObject({ gBalance: 500, ts: 300, firstEarningsSeen: false });
  });

  it('logs out on beforeLogout, and a logout closes the connection for good', async () => {
    const fanstage = await loggedIn();
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
    server.send(live()[0]!, { type: 'beforeLogout', reason: 'admin-blocked' });
    await vi.waitFor(() => expect(fanstage.session.isLoggedIn.value).toBe(false));
    expect(fanstage.socket.connectedState.value).toBe('closed');
    await vi.waitFor(() => expect(live()).toHaveLength(0));
    expect(server.connections).toHaveLength(1);
  });
});

/** A message from user 200 to the fan at position `seq` of the fan's stream. */
function chatMessage(id: number, seq: number): ChatMessage {
  return {
    id,
    seq,
    msgId: `m-${id}`,
    text: `message ${id}`,
    senderId: 200,
    receiverId: 100,
    sendDt: 1_700_000_000_000 + id,
    price: 0,
    giftId: null,
    mediaId: null,
    media: null,
    suspectedState: 0,
    senderReactionId: null,
    receiverReactionId: null,
    massId: null,
  };
}

function conversationWith(partnerId: number): Conversation {
  return {
    id: partnerId,
    sender: profile({ id: partnerId }),
    unreadCount: 0,
    sumPrice: 0,
    agreedPrice: 0,
    customPrice: null,
    price: 0,
    isSupport: false,
    lastMessage: null,
    lastReadDate: null,
    lastSuspectedMessageDate: null,
    lastReactionMessage: null,
    archived: false,
  };
}

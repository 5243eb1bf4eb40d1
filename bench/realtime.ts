// The `realtime` part of `npm run bench` (bench/run.ts): websocket fan-out to FAN_OUT_CLIENTS
// clients from our /ws/ (a creator's new post to her followers, on PostgreSQL) against a bare `ws`
// broadcast server measured the same way in the same run — deliveries a second, what an idle
// connection costs, how long the crowd takes to open — and /papi/health/live while a burst of
// sockets opens at once.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { WebSocket } from 'ws';
import { accessToken } from './tokens';
import { whileProbingHealth } from './signins';
import { budgets } from './budgets';
import { check, freePort, ratioLine, rssOf, startProcess, stop, withServerOnPostgres } from './harness';
import { socketProtocols } from '../lib/contract/realtime';
import { timelineFanOutLimit } from '../server/src/features/notifications/domain';

const FAN_OUT_CLIENTS = Number(process.env.BENCH_WS_CLIENTS ?? 10_000);
/** Sockets that open all at once while liveness is timed. */
const SOCKET_BURST = Math.min(2_000, FAN_OUT_CLIENTS);
/** Broadcasts per round; each reaches every client. */
const FAN_OUT_BROADCASTS = Number(process.env.BENCH_WS_BROADCASTS ?? 300);
/** Sockets that send the broadcasts: our server allows a burst of 40 messages per connection. */
const FAN_OUT_DRIVERS = 10;

interface Receivers {
  sockets: WebSocket[];
  /** Resolves when `count` more broadcasts reached `audience` sockets each. */
  expect(count: number, audience: number): Promise<void>;
}

/** Where a client connects, and the subprotocols it asks for (our server takes the token in one). */
interface SocketTarget {
  url: string;
  protocols?: string[];
}

function openSocket({ url, protocols = [] }: SocketTarget): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols);
    const fail = (error: unknown) => reject(error instanceof Error ? error : new Error(String(error)));
    socket.once('error', fail);
    socket.once('close', (code) => fail(new Error(`closed with ${code} before opening`)));
    socket.once('open', () => {
      socket.off('error', fail);
      socket.removeAllListeners('close');
      resolve(socket);
    });
  });
}

/** Opens the clients a few hundred at a time, as a crowd arriving, and counts the broadcasts each receives. */
async function openReceivers(urls: SocketTarget[]): Promise<Receivers> {
  let received = 0;
  let waiting: { target: number; resolve: () => void } | null = null;
  const sockets: WebSocket[] = [];
  for (let i = 0; i < urls.length; i += 200) {
    sockets.push(...(await Promise.all(urls.slice(i, i + 200).map(openSocket))));
  }
  for (const socket of sockets) {
    socket.on('message', (data) => {
      // Both servers frame a broadcast as {"type":"newPost",...}; our server's pings are answered.
      const text = String(data);
      if (text.startsWith('{"type":"newPost"')) {
        received += 1;
        if (waiting !== null && received >= waiting.target) waiting.resolve();
      } else if (text.startsWith('{"type":"ping"')) {
        socket.send(text.replace('"ping"', '"pong"'));
      }
    });
  }
  return {
    sockets,
    expect(count, audience) {
      const target = received + count * audience;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`fan-out: ${received} of ${target} deliveries after 120 s`)), 120_000);
        waiting = {
          target,
          resolve: () => {
            clearTimeout(timer);
            waiting = null;
            resolve();
          },
        };
      });
    },
  };
}

/**
 * Opens `targets` all at once — a crowd arriving together, as after a node restarts — while
 * another process probes `/papi/health/live` (signins.ts); the probe's latencies.
 */
async function livenessDuringBurst(base: string, targets: SocketTarget[]): Promise<{ p99: number; max: number; samples: number; seconds: number }> {
  const started = performance.now();
  let seconds = 0;
  const { result: sockets, latencies } = await whileProbingHealth(`${base}/papi/health/live`, async () => {
    const opened = await Promise.all(targets.map(openSocket));
    seconds = (performance.now() - started) / 1000;
    return opened;
  });
  for (const socket of sockets) socket.terminate();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { p99: at(0.99), max: Math.round(latencies.at(-1) ?? 0), samples: latencies.length, seconds };
}

/**
 * Sends `count` broadcasts spread over the drivers and waits until `audience` clients have each
 * of them (every client of the bare server; our server announces a post to the author's newest
 * `timelineFanOutLimit` followers, as many as get the timeline notification); deliveries per second.
 */
async function fanOut(receivers: Receivers, drivers: WebSocket[], count: number, postId: number, audience: number): Promise<number> {
  const arrived = receivers.expect(count, audience);
  const started = performance.now();
  for (let i = 0; i < count; i++) drivers[i % drivers.length]!.send(JSON.stringify({ type: 'newPost', postId }));
  await arrived;
  const seconds = (performance.now() - started) / 1000;
  return (count * audience) / seconds;
}

/** One creator and FAN_OUT_CLIENTS verified fans following her, with one published post; ids for the tokens. */
async function seedFollowers(url: string): Promise<{ creatorId: number; fanIds: number[]; postId: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const creator = await client.query<{ id: number }>(
      `insert into users (username, display_name, email, email_verified, is_seller, gender)
       values ('benchstar', 'Bench Star', 'benchstar@example.com', true, true, 2) returning id`,
    );
    const creatorId = creator.rows[0]!.id;
    const fans = await client.query<{ id: number }>(
      `insert into users (username, display_name, email, email_verified, gender)
       select 'benchfan' || g, 'Bench Fan ' || g, 'benchfan' || g || '@example.com', true, 1
       from generate_series(1, $1::int) g returning id`,
      [FAN_OUT_CLIENTS],
    );
    const fanIds = fans.rows.map((row) => row.id);
    await client.query(`insert into follows (follower_id, followed_id) select unnest($1::int[]), $2`, [fanIds, creatorId]);
    await client.query(`update users set followers_count = $1 where id = $2`, [fanIds.length, creatorId]);
    const post = await client.query<{ id: number }>(`insert into posts (user_id, text) values ($1, 'Fan-out bench') returning id`, [creatorId]);
    return { creatorId, fanIds, postId: post.rows[0]!.id };
  } finally {
    await client.end();
  }
}

async function measureServer(
  name: string,
  child: ChildProcess,
  urlFor: (userId: number) => SocketTarget,
  fanIds: number[],
  driverId: number,
  postId: number,
  audience: number,
): Promise<{ deliveriesPerSecond: number; bytesPerConnection: number; openSeconds: number }> {
  const before = rssOf(child.pid!);
  const opening = performance.now();
  const receivers = await openReceivers(fanIds.map(urlFor));
  const openSeconds = (performance.now() - opening) / 1000;
  // Let the handshakes' garbage settle before reading what the open sockets hold.
  await new Promise((r) => setTimeout(r, 2_000));
  const after = rssOf(child.pid!);
  const drivers = await Promise.all(Array.from({ length: FAN_OUT_DRIVERS }, () => openSocket(urlFor(driverId))));
  try {
    await fanOut(receivers, drivers, 20, postId, audience); // warm-up
    await new Promise((r) => setTimeout(r, 1_500)); // our server's per-connection budget refills
    const deliveriesPerSecond = await fanOut(receivers, drivers, FAN_OUT_BROADCASTS, postId, audience);
    const bytesPerConnection = Math.max(0, (after - before) / fanIds.length);
    console.log(
      `  ${name.padEnd(44)} ${deliveriesPerSecond.toFixed(0).padStart(7)} deliveries/s  idle connection ${(bytesPerConnection / 1024).toFixed(1)} KB  opened in ${openSeconds.toFixed(1)} s`,
    );
    return { deliveriesPerSecond, bytesPerConnection, openSeconds };
  } finally {
    for (const socket of [...drivers, ...receivers.sockets]) socket.terminate();
  }
}

/** Our server's fan-out, idle connections and opening against the bare `ws` server's, and liveness during a burst. */
export async function benchRealtime(): Promise<void> {
  console.log(`\nWebsocket fan-out (${FAN_OUT_CLIENTS} clients, ${FAN_OUT_BROADCASTS} broadcasts from ${FAN_OUT_DRIVERS} sockets)`);
  const barePort = await freePort();
  const bare = await startProcess('bench/ws-broadcast.ts', { PORT: String(barePort) }, `http://127.0.0.1:${barePort}/`);
  let bareResult;
  try {
    bareResult = await measureServer('bare ws broadcast', bare, () => ({ url: `ws://127.0.0.1:${barePort}/ws/` }), Array.from({ length: FAN_OUT_CLIENTS }, (_, i) => i), 0, 1, FAN_OUT_CLIENTS);
  } finally {
    await stop(bare);
  }

  await withServerOnPostgres('fanstage_bench_ws', async ({ port, child, dbUrl, secret }) => {
    const { creatorId, fanIds, postId } = await seedFollowers(dbUrl);
    // Access tokens signed with the server's key, as a login would issue them (a login per fan would time argon2).
    const tokens = new Map<number, string>();
    for (const id of [creatorId, ...fanIds]) {
      tokens.set(id, await accessToken(id, secret, 900));
    }
    const target = (id: number): SocketTarget => ({ url: `ws://127.0.0.1:${port}/ws/`, protocols: socketProtocols(tokens.get(id)!) });
    const ours = await measureServer('our /ws/ (newPost to followers, PostgreSQL)', child, target, fanIds, creatorId, postId, Math.min(FAN_OUT_CLIENTS, timelineFanOutLimit));
    console.log(ratioLine('fan-out / bare ws', ours.deliveriesPerSecond / bareResult.deliveriesPerSecond, budgets.fanOutRatio, 'fan-out ratio'));
    const idle = ours.bytesPerConnection / Math.max(1, bareResult.bytesPerConnection);
    console.log(
      `  ${'idle connection, ours / bare'.padEnd(44)} ${idle.toFixed(2).padStart(7)}         budget ≤ ${budgets.idleConnectionRatio}  ${check('idle connection, ours / bare', Number(idle.toFixed(2)), budgets.idleConnectionRatio)}`,
    );
    const opening = ours.openSeconds / bareResult.openSeconds;
    console.log(
      `  ${`opening ${FAN_OUT_CLIENTS}, ours / bare`.padEnd(44)} ${opening.toFixed(2).padStart(7)}         budget ≤ ${budgets.socketOpenRatio}  ${check('socket opening, ours / bare', Number(opening.toFixed(2)), budgets.socketOpenRatio)}`,
    );
    const burst = await livenessDuringBurst(`http://127.0.0.1:${port}`, fanIds.slice(0, SOCKET_BURST).map(target));
    console.log(
      `  ${`/papi/health/live while ${SOCKET_BURST} open at once`.padEnd(44)} p99 ${String(burst.p99).padStart(4)} ms  (max ${burst.max} ms, ${burst.samples} probes, all open in ${burst.seconds.toFixed(1)} s)  budget ≤ ${budgets.healthDuringSocketBurstP99Ms} ms  ${check('liveness during a socket burst, p99 ms', burst.p99, budgets.healthDuringSocketBurstP99Ms)}`,
    );
  });
}

// Durable money writes under concurrency (issue 29): paid chat messages and gifts on posts, each
// one committed with its ledger transfer before it is answered, 50 in flight at a time, on the
// real server over PostgreSQL. Afterwards every acknowledged write is looked for in the database
// (once each) and the ledger is reconciled, so a faster path that loses or doubles money fails.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { accessToken } from './tokens';
import { WebSocket } from 'ws';
import { socketProtocols } from '../lib/contract/realtime';
import { openDatabase } from '../server/src/db';
import { account, inTransaction, reconcile, transfer } from '../server/src/ledger';
import { describeReport } from '../server/src/ledger/reconcile';

export interface WritesTools {
  check: (name: string, value: number, budget: number, higherIsBetter?: boolean) => string;
  failures: string[];
  withServerOnPostgres: <T>(name: string, work: (server: { base: string; port: number; child: ChildProcess; dbUrl: string; secret: string }) => Promise<T>) => Promise<T>;
}

/** Issue 29's budgets for durable money writes at 50 in flight. */
export const writeBudgets = { perSecond: 2000, p95Ms: 50 };

const IN_FLIGHT = 50;
const SECONDS = Number(process.env.BENCH_WRITES_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
/** Stored cents per message; the fan pays it with the salt. */
const MESSAGE_PRICE = 100;

interface Result {
  done: number;
  perSecond: number;
  p95: number;
  refused: number;
  /** The server process's CPU time per write, in ms (user and system): what a busy machine does not blur. */
  cpuMs: number | null;
}

/** CPU time a process has used, in ms, from /proc (null where there is none). */
function cpuTimeMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, the 14th and 15th fields, in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);

/**
 * Runs `workers` loops, each writing one thing at a time until the time is up; only writes that
 * start after the warm-up are counted. Answers the rate, p95 and how many were refused.
 */
async function measure(workers: number, write: (worker: number) => Promise<boolean>, serverPid?: number): Promise<Result> {
  const latencies: number[] = [];
  let refused = 0;
  let cpuFrom: number | null = null;
  const start = performance.now();
  const countFrom = start + WARMUP_SECONDS * 1000;
  const end = countFrom + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < end) {
        const began = performance.now();
        if (began >= countFrom && cpuFrom === null) cpuFrom = cpuTimeMs(serverPid);
        const ok = await write(worker);
        if (began < countFrom) continue;
        if (ok) latencies.push(performance.now() - began);
        else refused++;
      }
    }),
  );
  const cpuTo = cpuTimeMs(serverPid);
  latencies.sort((a, b) => a - b);
  const writes = latencies.length + refused;
  const cpuMs = cpuFrom === null || cpuTo === null || writes === 0 ? null : (cpuTo - cpuFrom) / writes;
  return { done: latencies.length, perSecond: latencies.length / SECONDS, p95: Math.round(percentile(latencies, 0.95)), refused, cpuMs };
}

/** A fan's socket that sends paid messages one at a time and waits for each one's echo. */
async function chatSender(base: string, bearer: string): Promise<{ send: (receiverId: number, price: number) => Promise<boolean>; close: () => void }> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/`, socketProtocols(bearer));
  const waiting = new Map<string, (ok: boolean) => void>();
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; message?: { msgId: string }; msgId?: string; data?: { msgId?: string } };
      if (frame.type === 'hello') return resolve();
      const msgId = frame.message?.msgId ?? frame.msgId ?? frame.data?.msgId;
      const done = msgId === undefined ? undefined : waiting.get(msgId);
      if (done === undefined) return;
      waiting.delete(msgId!);
      done(frame.type === 'chatMessage');
    });
  });
  return {
    send: (receiverId, price) =>
      new Promise<boolean>((resolve) => {
        const msgId = randomBytes(12).toString('hex');
        waiting.set(msgId, resolve);
        socket.send(JSON.stringify({ type: 'chatMessage', msgId, receiverId, text: 'Thank you for the set!', price }));
      }),
    close: () => socket.close(),
  };
}

export async function benchWrites(tools: WritesTools): Promise<void> {
  const { check } = tools;
  console.log(`\nDurable money writes (PostgreSQL; ${IN_FLIGHT} in flight, ${SECONDS} s each after ${WARMUP_SECONDS} s of warm-up)`);
  await tools.withServerOnPostgres('fanstage_bench_writes', async ({ base, dbUrl, secret, child }) => {
    const pool = new pg.Pool({ connectionString: dbUrl, max: 4 });
    // The server's own database layer, for the ledger's transfers and its reconciliation.
    const handle = await openDatabase({ databaseUrl: dbUrl, dataDir: '' });
    const { db } = handle;
    try {
      const creators = (
        await pool.query<{ id: number }>(
          `insert into users (username, display_name, email, email_verified, is_seller, gender, message_price)
           select 'wcreator' || g, 'Writes Creator ' || g, 'wcreator' || g || '@example.com', true, true, 2, $2
           from generate_series(1, $1::int) g returning id`,
          [IN_FLIGHT, MESSAGE_PRICE],
        )
      ).rows.map((row) => row.id);
      const fans = (
        await pool.query<{ id: number }>(
          `insert into users (username, display_name, email, email_verified, gender)
           select 'wfan' || g, 'Writes Fan ' || g, 'wfan' || g || '@example.com', true, 1
           from generate_series(1, $1::int) g returning id`,
          [IN_FLIGHT],
        )
      ).rows.map((row) => row.id);
      const posts = (
        await pool.query<{ id: number }>(
          `insert into posts (user_id, text, published_at) select unnest($1::int[]), 'A set for my fans', now() returning id`,
          [creators],
        )
      ).rows.map((row) => row.id);
      const [gift] = (await pool.query<{ id: number; g_value: number }>(`select id, g_value from gifts where active order by g_value limit 1`)).rows;
      if (gift === undefined) throw new Error('the server seeded no gifts');
      // Promotional credits, as support grants them: real transfers, so the ledger reconciles.
      await inTransaction(db, async (tx) => {
        for (const fanId of fans) {
          await transfer(tx, {
            key: `promotion:bench:${fanId}`,
            kind: 'promotion',
            counterpartyId: fanId,
            legs: [
              { account: account.promotions, amount: -100_000_000 },
              { account: account.wallet(fanId), amount: 100_000_000 },
            ],
          });
        }
      });
      const bearers = await Promise.all(fans.map((id) => accessToken(id, secret)));
      const senders = await Promise.all(bearers.map((bearer) => chatSender(base, bearer)));
      // The price a fan accepts: the stored price with the salt (SPEC §9), read from the server's own settings.
      const settings = (await (await fetch(`${base}/papi/settings`)).json()) as { body: { salt?: number; priceSalt?: number } };
      const salt = settings.body.salt ?? settings.body.priceSalt ?? 10_000;
      const accepted = Math.ceil((MESSAGE_PRICE * salt) / 10_000);

      const rows: [string, Result][] = [];
      rows.push(['paid chat, 50 fans to one creator', await measure(IN_FLIGHT, (i) => senders[i]!.send(creators[0]!, accepted), child.pid)]);
      rows.push(['paid chat, 50 fans to 50 creators', await measure(IN_FLIGHT, (i) => senders[i]!.send(creators[i]!, accepted), child.pid)]);
      rows.push([
        "gifts on one creator's post",
        await measure(IN_FLIGHT, async (i) => {
          const answer = await fetch(`${base}/api/posts/gift`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${bearers[i]}` },
            body: JSON.stringify({ postId: posts[0], giftId: gift.id, idempotencyKey: randomBytes(12).toString('hex') }),
          });
          return ((await answer.json()) as { statusCode: number }).statusCode > 0;
        }, child.pid),
      ]);
      for (const sender of senders) sender.close();

      for (const [name, r] of rows) {
        console.log(
          `  ${name.padEnd(36)} ${r.perSecond.toFixed(0).padStart(6)} /s  p95 ${String(r.p95).padStart(4)} ms  refused ${r.refused}  ` +
            `server CPU ${r.cpuMs === null ? '?' : r.cpuMs.toFixed(2)} ms a write  ` +
            `${check(`${name}: per second`, Math.round(r.perSecond), writeBudgets.perSecond, true)}  ${check(`${name}: p95 ms`, r.p95, writeBudgets.p95Ms)}`,
        );
        if (r.refused > 0) tools.failures.push(`${name}: ${r.refused} writes refused`);
      }
      // Every write made (counted or not) is in the database once, with its money moved once.
      const stored = (
        await pool.query<{ messages: number; transfers: number; gifts: number; giftTransfers: number }>(
          `select (select count(*)::int from chat_messages where price > 0) messages,
                  (select count(*)::int from ledger_transfers where kind = 'chat-message') transfers,
                  (select coalesce(sum(gifts_count), 0)::int from posts where id = any($1::int[])) gifts,
                  (select count(*)::int from ledger_transfers where kind = 'gift') "giftTransfers"`,
          [posts],
        )
      ).rows[0]!;
      const report = await reconcile(db);
      console.log(`  stored: ${stored.messages} paid messages (${stored.transfers} transfers), ${stored.gifts} gifts (${stored.giftTransfers} transfers); ledger ${report.ok ? 'reconciles' : 'DOES NOT RECONCILE'}`);
      if (stored.messages !== stored.transfers || stored.gifts !== stored.giftTransfers) tools.failures.push('durable writes: a write without its transfer, or a transfer without its write');
      if (!report.ok) tools.failures.push(`durable writes: the ledger does not reconcile\n${describeReport(report)}`);
    } finally {
      await pool.end();
      await handle.close();
    }
  });
}

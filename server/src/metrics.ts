import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { and, count, eq, isNotNull, isNull, max, sum } from 'drizzle-orm';
import type { AppContext } from './context';
import { ledgerHolds, ledgerTransfers, mailOutbox } from './db/schema';
import type { Jobs } from './jobs';
import type { Realtime } from './realtime';
import { failure } from './http/envelope';

/**
 * Prometheus metrics at `GET /metrics` (docs/server.md, "Metrics and alerts"), served only when
 * METRICS_TOKEN is set and only to a scraper that sends it as a bearer token: the figures tell
 * an outsider how busy the platform is and how much money moves. What is read from the
 * database is read at scrape time, each with one indexed query.
 */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export function registerMetrics(app: FastifyInstance, ctx: AppContext, options: { token: string; jobs: Jobs; realtime: Realtime; poolStats: (() => PoolStats) | undefined }): void {
  const registry = new Registry();
  // Process figures: CPU, memory, handles, garbage collection, and the event loop's delay.
  collectDefaultMetrics({ register: registry, prefix: 'fanstage_', eventLoopMonitoringPrecision: 20 });

  const labels = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'fanstage_http_requests_total', help: 'HTTP requests answered, by route pattern and status.', labelNames: labels, registers: [registry] });
  const durations = new Histogram({
    name: 'fanstage_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and status.',
    labelNames: labels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the address: ids and usernames would make a label per person.
    const route = request.routeOptions.url ?? 'unmatched';
    const values = { method: request.method, route, status: String(reply.statusCode) };
    requests.inc(values);
    durations.observe(values, reply.elapsedTime / 1000);
  });

  new Gauge({
    name: 'fanstage_websocket_connections',
    help: 'Websockets open on this node.',
    registers: [registry],
    collect() {
      this.set(options.realtime.connectionCount());
    },
  });
  const seen = { sent: 0, received: new Map<string, number>() };
  new Counter({
    name: 'fanstage_websocket_messages_total',
    help: 'Websocket messages, sent to clients (direction out) and received from them by type (direction in).',
    labelNames: ['direction', 'type'],
    registers: [registry],
    collect() {
      const stats = options.realtime.stats();
      this.inc({ direction: 'out', type: 'all' }, stats.sent - seen.sent);
      seen.sent = stats.sent;
      for (const [type, total] of stats.received) {
        this.inc({ direction: 'in', type }, total - (seen.received.get(type) ?? 0));
        seen.received.set(type, total);
      }
    },
  });
  new Gauge({
    name: 'fanstage_bus_connected',
    help: 'Whether this node hears the other nodes through Redis (1), or not (0); absent without REDIS_URL.',
    registers: [registry],
    collect() {
      const { bus } = options.realtime.stats();
      if (bus === 'local') this.reset();
      else this.set(bus === 'connected' ? 1 : 0);
    },
  });

  const { poolStats } = options;
  if (poolStats !== undefined) {
    new Gauge({
      name: 'fanstage_db_pool_connections',
      help: 'The PostgreSQL pool of this node: its connections (state total or idle) and the queries waiting for one (waiting).',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  let transfersSeen: number | null = null;
  new Counter({
    name: 'fanstage_ledger_transfers_total',
    help: 'Ledger transfers committed on the platform (all nodes), counted from the transfers’ ids since this node started.',
    registers: [registry],
    async collect() {
      const [row] = await ctx.db.select({ last: max(ledgerTransfers.id) }).from(ledgerTransfers);
      const last = Number(row?.last ?? 0);
      if (transfersSeen !== null && last > transfersSeen) this.inc(last - transfersSeen);
      else this.inc(0);
      transfersSeen = last;
    },
  });
  new Gauge({
    name: 'fanstage_ledger_holds_open',
    help: 'Money held and not yet settled or released (calls running, paid chats awaiting an answer): the number of holds and their cents.',
    labelNames: ['measure'],
    registers: [registry],
    async collect() {
      const [row] = await ctx.db.select({ holds: count(), cents: sum(ledgerHolds.remaining) }).from(ledgerHolds).where(eq(ledgerHolds.status, 'open'));
      this.set({ measure: 'holds' }, Number(row?.holds ?? 0));
      this.set({ measure: 'cents' }, Number(row?.cents ?? 0));
    },
  });
  new Gauge({
    name: 'fanstage_mail_outbox_due',
    help: 'Mails waiting to be sent (first attempt not yet made, or failed and to be tried again).',
    registers: [registry],
    async collect() {
      const [row] = await ctx.db
        .select({ due: count() })
        .from(mailOutbox)
        .where(and(isNull(mailOutbox.sentAt), isNotNull(mailOutbox.nextAttemptAt)));
      this.set(Number(row?.due ?? 0));
    },
  });

  const jobRuns = new Counter({ name: 'fanstage_job_runs_total', help: 'Runs of timed jobs on this node, by job and outcome (ok, failed, skipped when another node held it).', labelNames: ['job', 'outcome'], registers: [registry] });
  const jobDurations = new Histogram({ name: 'fanstage_job_duration_seconds', help: 'Time a timed job’s run took, by job.', labelNames: ['job'], buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120], registers: [registry] });
  options.jobs.observe((job, outcome, seconds) => {
    jobRuns.inc({ job, outcome });
    if (outcome !== 'skipped') jobDurations.observe({ job }, seconds);
  });

  const expected = Buffer.from(`Bearer ${options.token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').send(failure('unauthorized'));
    }
    const text = await registry.metrics();
    return reply.header('Content-Type', registry.contentType).header('Cache-Control', 'no-store').send(text);
  });
}

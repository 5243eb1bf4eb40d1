import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { AppContext } from './context';

/**
 * Work that runs on a timer rather than on a request: subscription renewals, lapsed holds,
 * abandoned payment orders. Every job is idempotent (the ledger's keys make a second run of
 * the same period move nothing), and on PostgreSQL a run takes an advisory lock so that of
 * several nodes only one works at a time.
 */
export interface Job {
  name: string;
  everyMs: number;
  /** Does what is due at `ctx.clock.now()`; returns how many things it handled. */
  run(ctx: AppContext): Promise<number>;
}

export interface Jobs {
  add(job: Job): void;
  /** Runs one job now (tests move the clock, then call this). */
  runNow(name: string): Promise<number>;
  start(): void;
  /** Stops the timers and waits for the runs under way, so the database may close after it. */
  stop(): Promise<void>;
  /** Tells `listener` of every run: ok, failed, or skipped (another node held the job). */
  observe(listener: JobListener): void;
}

export type JobListener = (job: string, outcome: 'ok' | 'failed' | 'skipped', seconds: number) => void;

/** What a run returns when another node holds the job's lock. */
const skipped = -1;

/** A stable lock number per job name. */
function lockKey(name: string): number {
  let hash = 722_061_100;
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

export function createJobs(ctx: AppContext, log: FastifyBaseLogger, driver: 'pglite' | 'postgres'): Jobs {
  const jobs = new Map<string, Job>();
  const timers: NodeJS.Timeout[] = [];
  const running = new Map<string, Promise<number>>();
  const listeners: JobListener[] = [];
  const tell = (job: string, outcome: 'ok' | 'failed' | 'skipped', started: number) => {
    for (const listener of listeners) listener(job, outcome, (performance.now() - started) / 1000);
  };

  async function runNow(name: string): Promise<number> {
    const job = jobs.get(name);
    if (!job) throw new Error(`No job named ${name}`);
    if (running.has(name)) return 0;
    const started = performance.now();
    const run = runOnce(job);
    running.set(name, run);
    try {
      const handled = await run;
      tell(name, handled === skipped ? 'skipped' : 'ok', started);
      return handled === skipped ? 0 : handled;
    } catch (error) {
      tell(name, 'failed', started);
      throw error;
    } finally {
      running.delete(name);
    }
  }

  async function runOnce(job: Job): Promise<number> {
    if (driver === 'pglite') return job.run(ctx);
    // A transaction-scoped lock, held by this transaction's connection while the job runs on others.
    return ctx.db.transaction(async (tx) => {
      const result = (await tx.execute(sql`select pg_try_advisory_xact_lock(${lockKey(job.name)}) as locked`)) as unknown as { rows: { locked: boolean }[] };
      return result.rows[0]?.locked ? job.run(ctx) : skipped;
    });
  }

  return {
    observe(listener) {
      listeners.push(listener);
    },
    add(job) {
      jobs.set(job.name, job);
    },
    runNow,
    start() {
      for (const job of jobs.values()) {
        const timer = setInterval(() => {
          runNow(job.name).then(
            (handled) => {
              if (handled > 0) log.info({ job: job.name, handled }, 'job ran');
            },
            (error: unknown) => log.error({ err: error, job: job.name }, 'job failed'),
          );
        }, job.everyMs);
        timer.unref();
        timers.push(timer);
      }
    },
    async stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      // A run cut off by the database closing would do no harm (every job is idempotent), but it
      // would fail with an error in the log; the shutdown waits for it instead.
      await Promise.allSettled(running.values());
    },
  };
}

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
  stop(): void;
}

/** A stable lock number per job name. */
function lockKey(name: string): number {
  let hash = 722_061_100;
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

export function createJobs(ctx: AppContext, log: FastifyBaseLogger, driver: 'pglite' | 'postgres'): Jobs {
  const jobs = new Map<string, Job>();
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<string>();

  async function runNow(name: string): Promise<number> {
    const job = jobs.get(name);
    if (!job) throw new Error(`No job named ${name}`);
    if (running.has(name)) return 0;
    running.add(name);
    try {
      if (driver === 'pglite') return await job.run(ctx);
      // A transaction-scoped lock, held by this transaction's connection while the job runs on others.
      return await ctx.db.transaction(async (tx) => {
        const result = (await tx.execute(sql`select pg_try_advisory_xact_lock(${lockKey(name)}) as locked`)) as unknown as { rows: { locked: boolean }[] };
        return result.rows[0]?.locked ? job.run(ctx) : 0;
      });
    } finally {
      running.delete(name);
    }
  }

  return {
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
    stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
    },
  };
}

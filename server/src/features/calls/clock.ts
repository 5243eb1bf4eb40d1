import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock';
import { isDatabaseUnavailable } from '../../db/availability';
import { ASK_RETRY_MS, DISCONNECT_GRACE_MS, LEASE_RENEW_MS, minuteEndsAt, reserveDueAt } from './domain';
import type { CallNotices } from './notices';
import type { CallRow, CallService } from './service';

/** What the clock remembers of a live call it runs, between ticks. */
interface Running {
  call: CallRow;
  /** The fan was told the next minute cannot be held, and has not been told `creditOK` since. */
  asking: boolean;
  /** When the next minute is tried again while asking (ms, the server's clock). */
  retryAt: number;
}

export interface CallClockOptions {
  /** How often the clock looks at its calls (ms of real time; default 1 s). */
  tickMs?: number;
}

/**
 * The billing clocks of the calls this node runs (docs/calls.md "Billing"): one ticker for all
 * of them, which on each tick renews the node's leases, ends calls whose party has been gone
 * too long, and does every step that is due at the server's clock — hold the next minute 50 s
 * before the current one ends, pay the minute that ended, end the call when its next minute
 * could not be held — in order, so a clock moved forward by minutes (tests) catches up step by
 * step. It also times out the calls this node rang.
 *
 * Ticks never overlap: `tick()` waits for the one under way and then runs another, so a test
 * that moved the clock and awaits `tick()` sees every step due at the new time done.
 */
export function createCallClock(service: CallService, notices: CallNotices, clock: Clock, log: FastifyBaseLogger, options: CallClockOptions = {}) {
  const tickMs = options.tickMs ?? 1_000;
  const live = new Map<string, Running>();
  const ringing = new Set<string>();
  let renewedAt = Number.NEGATIVE_INFINITY;
  let chain: Promise<void> = Promise.resolve();
  let busy = false;
  let timer: NodeJS.Timeout | undefined;

  const now = () => clock.now().getTime();

  function forget(callId: string): void {
    live.delete(callId);
  }

  async function ended(call: CallRow | undefined): Promise<void> {
    if (call === undefined) return;
    forget(call.id);
    ringing.delete(call.id);
    await notices.ended(call);
  }

  /** Does every billing step of one call that is due at `at`, oldest first. */
  async function advance(running: Running, at: number): Promise<void> {
    for (;;) {
      const { call } = running;
      // A free call holds and pays nothing; it only ends.
      if (call.agreedPrice === 0) return;
      const started = call.startedAt!.getTime();
      const nextHeld = call.heldThrough + 1;
      const toPay = call.settledThrough + 1;
      if (call.heldThrough === toPay && at >= reserveDueAt(started, call.heldThrough) && (!running.asking || at >= running.retryAt)) {
        const step = await service.holdNext(call.id, nextHeld);
        if (step.gone) return forget(call.id);
        running.call = step.call;
        if (step.ok) {
          // The fan's meter counts down to the end of the minutes now held.
          if (running.asking) notices.creditOK(step.call, at);
          else notices.timeLeft(step.call, at);
          running.asking = false;
          continue;
        }
        if (!running.asking) notices.askForMoney(step.call, at);
        running.asking = true;
        running.retryAt = at + ASK_RETRY_MS;
      }
      if (at < minuteEndsAt(started, toPay)) return;
      const step = await service.payEnded(call.id, toPay);
      if (step.gone) return forget(call.id);
      running.call = step.call;
      if (step.call.heldThrough > step.call.settledThrough) {
        notices.timeLeft(step.call, at);
        notices.earnings(step.call);
        continue;
      }
      // The next minute was never held: the call ends where the paid ones do.
      await ended(await service.end(call.id, 'couldNotBePaid', new Date(minuteEndsAt(started, step.call.settledThrough))));
      return;
    }
  }

  async function runTick(): Promise<void> {
    const at = now();
    if (ringing.size > 0) {
      for (const call of await service.sweepRinging([...ringing])) await ended(call);
      // Those answered or ended elsewhere are no longer this node's to time out.
      for (const row of await service.rows([...ringing])) if (row.state !== 'ringing') ringing.delete(row.id);
    }
    if (live.size === 0) return;
    if (at - renewedAt >= LEASE_RENEW_MS || at < renewedAt) {
      const held = await service.renewLeases([...live.keys()]);
      renewedAt = at;
      for (const id of live.keys()) if (!held.has(id)) forget(id);
    }
    for (const row of await service.rows([...live.keys()])) {
      const running = live.get(row.id);
      if (running === undefined) continue;
      if (row.state !== 'live' || row.leaseNode !== running.call.leaseNode) {
        forget(row.id);
        continue;
      }
      const goneSince = Math.min(row.callerGoneAt?.getTime() ?? Infinity, row.calleeGoneAt?.getTime() ?? Infinity);
      if (at - goneSince >= DISCONNECT_GRACE_MS) {
        // Minutes are paid up to the moment the party was last there, plus the grace (a fan
        // pays the minutes begun while the call could still have gone on).
        await ended(await service.end(row.id, 'disconnected', new Date(Math.min(at, goneSince + DISCONNECT_GRACE_MS))));
        continue;
      }
      try {
        await advance(running, at);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) log.error({ err: error, callId: row.id }, 'calls: a billing step failed');
      }
    }
  }

  function enqueue(): Promise<void> {
    const run = chain.then(async () => {
      busy = true;
      try {
        await runTick();
      } finally {
        busy = false;
      }
    });
    // The chain goes on after a failed tick; the caller of `tick()` still sees the failure.
    chain = run.catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) log.warn({ err: error }, 'calls: a clock tick failed');
    });
    return run;
  }

  return {
    /** Starts timing out a call this node rang. */
    ringing(callId: string): void {
      ringing.add(callId);
    },

    /** Starts running a call's clock: it went live on this node, which holds its lease. */
    run(call: CallRow): void {
      ringing.delete(call.id);
      live.set(call.id, { call, asking: false, retryAt: 0 });
    },

    /** Stops running a call's clock (it ended). */
    forget(callId: string): void {
      forget(callId);
      ringing.delete(callId);
    },

    /** The calls whose clock runs here. */
    running(): string[] {
      return [...live.keys()];
    },

    /** Does what is due now; resolves when done (see above). */
    tick: enqueue,

    start(): void {
      if (timer !== undefined) return;
      timer = setInterval(() => {
        // A tick still running (a slow database) is not queued behind: the next one catches up.
        if (!busy) void enqueue().catch(() => {});
      }, tickMs);
      timer.unref();
    },

    /**
     * Stops ticking and ends every call this node runs, as a hang-up at this moment would:
     * the server is shutting down. A call that cannot be ended now (the database is away)
     * keeps its lease until it lapses, and another node, or this one's next start, closes it.
     */
    async shutdown(): Promise<void> {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await chain;
      const at = new Date(now());
      for (const id of [...live.keys()]) {
        try {
          await ended(await service.end(id, 'disconnected', at));
        } catch (error) {
          log.warn({ err: error, callId: id }, 'calls: could not end a call while shutting down; it is closed once its lease lapses');
        }
      }
      live.clear();
      ringing.clear();
    },
  };
}

export type CallClock = ReturnType<typeof createCallClock>;

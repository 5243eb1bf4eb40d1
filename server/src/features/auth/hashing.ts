import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { defaultHashingLimits } from '../../config';
import { AppError } from '../../errors';
import { passwordHashOptions } from './domain';

/**
 * Password hashing in a bounded pool (docs/server.md, "Password hashing"). With no bound a
 * burst of sign-ins keeps four threads hashing at once and the cores with them: health checks,
 * websockets and every other request wait behind the hashes, and a load balancer takes a
 * healthy node for a dead one. Here at most `concurrency` hashes run at once (one core fewer
 * than the machine has, at least one), on threads of their own at a lower priority than the
 * event loop (hash-worker.mjs), the rest wait their turn in order, and beyond `queue` waiting a
 * request is refused at once with 503 `service-unavailable` and a `Retry-After` of how long the
 * line ahead would take.
 */
export interface HashingLimits {
  concurrency: number;
  queue: number;
}


/** A place in line, taken before other work so that a full line is told before anything is recorded. */
export interface HashingTicket {
  /**
   * Resolves once the place is near the front: no more than twice the concurrency ahead of it
   * still to hash. A sign-in does its reads and the throttle's writes then, not on arrival, so
   * a burst's database work comes at the pace of the hashing instead of all in its first
   * moment, when it would hold the event loop and every request behind it.
   */
  near(): Promise<void>;
  /** Runs `work` in the ticket's turn; a ticket runs one piece of work. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives the place up unused (the sign-in was held); after `run`, does nothing. */
  release(): void;
}

/** A ticket's place: waiting for it to come near the front, when something waits. */
interface Place {
  nearing: (() => void) | null;
}

export class HashingPool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Tickets taken and not yet finished or released, in the order they were taken. */
  private readonly line: Place[] = [];
  /** A running average of one hash's time, for the Retry-After estimate. */
  private averageMs = 50;

  constructor(private limits: HashingLimits) {}

  configure(limits: HashingLimits): void {
    this.limits = limits;
  }

  get queued(): number {
    return Math.max(0, this.line.length - this.running);
  }

  /** A place in line, or 503 with Retry-After when the line is full. */
  ticket(): HashingTicket {
    const holders = this.line.length;
    if (holders >= this.limits.concurrency + this.limits.queue) {
      const retryAfter = Math.max(1, Math.ceil((holders / this.limits.concurrency) * this.averageMs / 1000));
      throw new AppError('service-unavailable', { retryAfter });
    }
    const place: Place = { nearing: null };
    this.line.push(place);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      this.line.splice(this.line.indexOf(place), 1);
      this.wakeNear();
    };
    return {
      near: () => (done || this.line.indexOf(place) < this.nearDepth() ? Promise.resolve() : new Promise<void>((resolve) => (place.nearing = resolve))),
      run: async (work) => {
        if (done) throw new Error('a hashing ticket runs once');
        try {
          await this.slot();
          const started = performance.now();
          try {
            return await work();
          } finally {
            this.averageMs = this.averageMs * 0.8 + (performance.now() - started) * 0.2;
            // The slot goes to the next in line, or is freed.
            const next = this.waiting.shift();
            if (next === undefined) this.running -= 1;
            else next();
          }
        } finally {
          finish();
        }
      },
      release: finish,
    };
  }

  /** Takes a place and runs `work` in it. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.ticket().run(work);
  }

  /** How far from the front a place counts as near. */
  private nearDepth(): number {
    return 2 * this.limits.concurrency;
  }

  /** Tells the places that came near the front. */
  private wakeNear(): void {
    const depth = Math.min(this.line.length, this.nearDepth());
    for (let i = 0; i < depth; i++) {
      const place = this.line[i]!;
      if (place.nearing === null) continue;
      const nearing = place.nearing;
      place.nearing = null;
      nearing();
    }
  }

  private async slot(): Promise<void> {
    if (this.running < this.limits.concurrency) {
      this.running += 1;
      return;
    }
    // The finishing hash hands its slot on: `running` stays as it is.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}

type HashJob = { op: 'hash'; password: string; options: typeof passwordHashOptions } | { op: 'verify'; password: string; stored: string };
type HashAnswer = { id: number; result: string | boolean; error?: undefined } | { id: number; error: string };

/**
 * The threads that hash (hash-worker.mjs), made as the pool first needs them: the pool runs at
 * most `concurrency` jobs at once, so each job finds a thread of its own idle. A thread that
 * dies fails its job and is replaced by the next one asked for. An idle thread does not hold
 * the process open.
 */
class HashThreads {
  private readonly idle: Worker[] = [];
  private nextId = 0;

  run(job: HashJob): Promise<string | boolean> {
    const worker = this.idle.pop() ?? this.start();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const settle = (outcome: () => void) => {
        worker.unref();
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        outcome();
      };
      const onMessage = (answer: HashAnswer) => {
        if (answer.id !== id) return;
        settle(() => {
          this.idle.push(worker);
          if (answer.error === undefined) resolve(answer.result);
          else reject(new Error(`password hashing failed: ${answer.error}`));
        });
      };
      const onError = (error: Error) => settle(() => reject(error));
      const onExit = (code: number) => settle(() => reject(new Error(`the password-hashing thread exited with ${code}`)));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      // Held open while it hashes, so a script awaiting a hash is not ended under it.
      worker.ref();
      worker.postMessage({ id, ...job });
    });
  }

  private start(): Worker {
    // A path, not import.meta.url: under a test environment such as jsdom that is no file: URL.
    const worker = new Worker(path.join(import.meta.dirname, 'hash-worker.mjs'));
    worker.unref();
    return worker;
  }
}

const threads = new HashThreads();

/** The process's one pool: hashes of every app in it share the cores. */
export const passwordHashing = new HashingPool(defaultHashingLimits());

export function hashPassword(password: string, ticket?: HashingTicket): Promise<string> {
  return (ticket ?? passwordHashing.ticket()).run(async () => String(await threads.run({ op: 'hash', password, options: passwordHashOptions })));
}

/** argon2's verify compares in constant time; a malformed stored hash counts as a mismatch. */
export function verifyPasswordHash(stored: string, password: string, ticket?: HashingTicket): Promise<boolean> {
  return (ticket ?? passwordHashing.ticket()).run(async () => (await threads.run({ op: 'verify', password, stored })) === true);
}

import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { defaultHashingLimits } from '../../config';
import { AppError } from '../../errors';
import { passwordHashOptions } from './domain';

/**
 * Password hashing in a bounded pool (docs/server.md, "Password hashing"). argon2 runs off the
 * event loop on libuv's threads, but with no bound a burst of sign-ins keeps four of them
 * hashing at once and the cores with them: health checks, websockets and every other request
 * wait behind the hashes, and a load balancer takes a healthy node for a dead one. Here at most
 * `concurrency` hashes run at once (one core fewer than the machine has, at least one), the
 * rest wait their turn in order, and beyond `queue` waiting a request is refused at once with
 * 503 `service-unavailable` and a `Retry-After` of how long the line ahead would take.
 */
export interface HashingLimits {
  concurrency: number;
  queue: number;
}


/** A place in line, taken before other work so that a full line is told before anything is recorded. */
export interface HashingTicket {
  /** Runs `work` in the ticket's turn; a ticket runs one piece of work. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives the place up unused (the sign-in was held); after `run`, does nothing. */
  release(): void;
}

export class HashingPool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Tickets taken and not yet finished or released. */
  private holders = 0;
  /** A running average of one hash's time, for the Retry-After estimate. */
  private averageMs = 50;

  constructor(private limits: HashingLimits) {}

  configure(limits: HashingLimits): void {
    this.limits = limits;
  }

  get queued(): number {
    return Math.max(0, this.holders - this.running);
  }

  /** A place in line, or 503 with Retry-After when the line is full. */
  ticket(): HashingTicket {
    if (this.holders >= this.limits.concurrency + this.limits.queue) {
      const retryAfter = Math.max(1, Math.ceil((this.holders / this.limits.concurrency) * this.averageMs / 1000));
      throw new AppError('service-unavailable', { retryAfter });
    }
    this.holders += 1;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      this.holders -= 1;
    };
    return {
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

  private async slot(): Promise<void> {
    if (this.running < this.limits.concurrency) {
      this.running += 1;
      return;
    }
    // The finishing hash hands its slot on: `running` stays as it is.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}

/** The process's one pool: hashes of every app in it share the cores. */
export const passwordHashing = new HashingPool(defaultHashingLimits());

export function hashPassword(password: string, ticket?: HashingTicket): Promise<string> {
  return (ticket ?? passwordHashing.ticket()).run(() => argonHash(password, passwordHashOptions));
}

/** argon2's verify compares in constant time; a malformed stored hash counts as a mismatch. */
export function verifyPasswordHash(stored: string, password: string, ticket?: HashingTicket): Promise<boolean> {
  return (ticket ?? passwordHashing.ticket()).run(() => argonVerify(stored, password).catch(() => false));
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../server/src/errors';
import { readdirSync, readFileSync } from 'node:fs';
import { HashingPool, hashPassword, passwordHashing, verifyPasswordHash } from '../../server/src/features/auth/hashing';
import { defaultHashingLimits } from '../../server/src/config';
import { loginAttempts } from '../../server/src/db/schema';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { eq } from '../support/db';

/** Work that ends when the test says so, recording when it started. */
function held(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: async () => (log.push(`start ${name}`), await done, name), finish };
}

/** Lets every promise callback that is ready run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the password hashing pool', () => {
  it('runs at most its concurrency at once, the rest in the order they came, and refuses beyond its line with Retry-After', async () => {
    const pool = new HashingPool({ concurrency: 2, queue: 2 });
    const log: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((name) => held(log, name));
    const results = jobs.map((job) => pool.run(job.work));
    await settled();
    expect(log).toEqual(['start a', 'start b']);
    expect(pool.queued).toBe(2);

    // Two running and two waiting: a fifth is refused at once, and told when to come back.
    let refused: unknown;
    try {
      pool.ticket();
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ key: 'service-unavailable', httpStatus: 503 });
    expect((refused as AppError).retryAfter).toBeGreaterThanOrEqual(1);

    jobs[1]!.finish();
    expect(await results[1]).toBe('b');
    await settled();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    jobs[0]!.finish();
    expect(await results[0]).toBe('a');
    await settled();
    expect(log.at(-1)).toBe('start d');
    jobs[2]!.finish();
    jobs[3]!.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(pool.queued).toBe(0);
  });

  it('tells a place when it comes near the front: twice the concurrency from it, as the ones ahead finish', async () => {
    const pool = new HashingPool({ concurrency: 1, queue: 8 });
    const tickets = ['a', 'b', 'c', 'd'].map(() => pool.ticket());
    const near: number[] = [];
    tickets.forEach((ticket, i) => void ticket.near().then(() => near.push(i)));
    await settled();
    expect(near).toEqual([0, 1]);
    const log: string[] = [];
    const a = held(log, 'a');
    const running = tickets[0]!.run(a.work);
    await settled();
    expect(near).toEqual([0, 1]);
    a.finish();
    await running;
    await settled();
    expect(near).toEqual([0, 1, 2]);
    // A place given up counts as finished: the next one comes near.
    tickets[1]!.release();
    await settled();
    expect(near).toEqual([0, 1, 2, 3]);
  });

  it('frees the place of work that failed, and of a ticket given up unused', async () => {
    const pool = new HashingPool({ concurrency: 1, queue: 0 });
    await expect(pool.run(() => Promise.reject(new Error('broken hash')))).rejects.toThrow('broken hash');
    const unused = pool.ticket();
    expect(() => pool.ticket()).toThrow(AppError);
    unused.release();
    unused.release();
    expect(await pool.run(async () => 'next')).toBe('next');
  });
});

/** The nice value of each of this process's threads (Linux: /proc/self/task). */
function threadNiceness(): { tid: number; nice: number }[] {
  return readdirSync('/proc/self/task').map((task) => {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    // `pid (comm) state …`: the comm may hold spaces, so the fields are counted after its ')';
    // the nice value is field 19 of proc(5), the 17th after the state.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { tid: Number(task), nice: Number(fields[16]) };
  });
}

describe('the hashing threads', () => {
  it('hash and verify argon2id off the event loop, a malformed stored hash counting as a mismatch', async () => {
    const stored = await hashPassword('a password of some length');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPasswordHash(stored, 'a password of some length')).toBe(true);
    expect(await verifyPasswordHash(stored, 'another password')).toBe(false);
    expect(await verifyPasswordHash('not a hash at all', 'a password of some length')).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')('run below the event loop’s priority, so the server answers first when the cores are busy', async () => {
    await hashPassword('a password of some length');
    const threads = threadNiceness();
    expect(threads.find((thread) => thread.tid === process.pid)?.nice).toBe(0);
    expect(threads.some((thread) => thread.nice === 10)).toBe(true);
  });
});

describe('sign-ins beyond the hashing line', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: false, env: { PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '1' } });
  });
  afterAll(async () => {
    await server?.close();
    // The pool is the process's: files run after this one in the same worker get the default again.
    passwordHashing.configure(defaultHashingLimits());
  });

  it('are answered 503 with Retry-After at once, and do not count against the throttle', async () => {
    const account = await createAccount(server.app);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${server.baseUrl}/papi/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: account.email, password: account.password }),
        }).then(async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), json: (await response.json()) as { statusText?: string } })),
      ),
    );
    const refused = answers.filter((answer) => answer.status === 503);
    const signedIn = answers.filter((answer) => answer.status === 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(signedIn.length).toBeGreaterThanOrEqual(1);
    expect(refused.length + signedIn.length).toBe(answers.length);
    for (const answer of refused) {
      expect(answer.json.statusText).toBe('service-unavailable');
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Only the sign-ins that checked a password were recorded, each a success.
    const attempts = await server.app.fanstage.db.select().from(loginAttempts).where(eq(loginAttempts.userId, account.id));
    expect(attempts).toHaveLength(signedIn.length);
    expect(attempts.every((attempt) => attempt.succeeded)).toBe(true);
  });
});

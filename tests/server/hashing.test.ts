import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../server/src/errors';
import { HashingPool, passwordHashing } from '../../server/src/features/auth/hashing';
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

import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from '../support/db';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { loginAttempts } from '../../server/src/db/schema';
import { tokenHash } from '../../server/src/features/auth/domain';
import { revokeSessions } from '../../server/src/features/auth/service';
import { createStoppedClock } from '../../server/src/clock';

/**
 * Sign-in throttling (docs/auth.md): growing delays per e-mail and requester, per device, and
 * per requester over all e-mails, so that nobody can hold an owner out of their own account.
 * Requesters are told apart by their IP: the done-when test speaks to the real server over
 * real sockets from several loopback addresses (Linux routes all of 127.0.0.0/8 to `lo`, and a
 * server listening on 127.0.0.1 accepts connections from any of them).
 */
let server: TestServer;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  // Delays run on the server's clock; standing still, it lets none run out while a test goes on.
  server = await startTestServer({ seed: false, clock: createStoppedClock() });
  app = server.app;
  port = Number(new URL(server.baseUrl).port);
});
afterAll(async () => {
  agent.destroy();
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { statusCode: number; statusText?: string; body?: any };
interface Reply {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  json: Answer;
}

// Keeps a connection per local address open, so 200 attempts do not cost 200 handshakes.
const agent = new Agent({ keepAlive: true });

/** POST /papi/login over a real socket bound to `from`, with the fs_device cookie when given. */
function signInFrom(from: string, email: string, password: string, device?: string): Promise<Reply> {
  const payload = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        agent,
        method: 'POST',
        path: '/papi/login',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(device === undefined ? {} : { cookie: `fs_device=${device}` }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString()) as Answer }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The same, in-process: cheaper for the cases where the socket's address is simply given. */
async function signIn(address: string, email: string, password: string, device?: string): Promise<Reply> {
  const response = await app.inject({
    method: 'POST',
    url: '/papi/login',
    remoteAddress: address,
    payload: { email, password },
    headers: device === undefined ? {} : { cookie: `fs_device=${device}` },
  });
  return { status: response.statusCode, headers: response.headers, json: response.json() as Answer };
}

function deviceCookieOf(reply: Reply): string {
  const header = reply.headers['set-cookie'];
  const line = (Array.isArray(header) ? header : [String(header ?? '')]).find((c) => c.startsWith('fs_device='));
  expect(line).toBeDefined();
  return decodeURIComponent(line!.slice('fs_device='.length).split(';')[0]!);
}

/** The answer of a held requester: 429 too-many-requests, saying in the header and the body when to come back. */
function expectHeld(reply: Reply, retryAfter?: number): number {
  expect(reply.status).toBe(429);
  expect(reply.json.statusCode).toBe(-1);
  expect(reply.json.statusText).toBe('too-many-requests');
  const seconds = reply.json.body?.retryAfter as number;
  expect(Number.isInteger(seconds) && seconds >= 1).toBe(true);
  expect(reply.headers['retry-after']).toBe(String(seconds));
  if (retryAfter !== undefined) expect(seconds).toBe(retryAfter);
  return seconds;
}

function expectSignedIn(reply: Reply): void {
  expect(reply.status).toBe(200);
  expect(reply.json.statusCode).toBe(2);
  expect(typeof reply.json.body.accessToken).toBe('string');
}

let addresses = 0;
/** A requester no other test used (10.x in-process; the real-socket test uses 127.x). */
const freshAddress = () => `10.77.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

/** Failures of `email` from `address`, written as the throttle would have (the password hash costs nothing then). */
async function pastFailures(count: number, email: string, address: string, userId: number | null = null) {
  const now = app.fanstage.clock.now();
  await app.fanstage.db
    .insert(loginAttempts)
    .values(Array.from({ length: count }, () => ({ userId, address, emailKey: tokenHash(email.toLowerCase()), succeeded: false, createdAt: now })));
}

describe('sign-in throttling', () => {
  it('lets the owner in from elsewhere and from a browser that signed in before, while 200 wrong passwords hold only the attacker', async () => {
    const owner = await createAccount(app);
    const attacker = '127.0.0.9';
    // The owner's own browser signed in before (from anywhere): it holds a device cookie.
    const earlier = await signInFrom('127.0.0.5', owner.email, owner.password);
    expectSignedIn(earlier);
    const device = deviceCookieOf(earlier);

    const started = performance.now();
    const answers = { wrong: 0, held: 0 };
    let last: Reply | undefined;
    for (let i = 0; i < 200; i++) {
      last = await signInFrom(attacker, owner.email, `guess number ${i}`);
      if (last.status === 401) answers.wrong += 1;
      else if (last.status === 429) answers.held += 1;
    }
    const attackMs = performance.now() - started;
    // Only the free five were checked against the hash; the rest were refused before it.
    expect(answers).toEqual({ wrong: 5, held: 195 });
    expectHeld(last!);
    // Held is held: even the right password from there is refused, and tells the attacker nothing.
    expectHeld(await signInFrom(attacker, owner.email, owner.password));

    // The owner, from another requester with no failures of its own …
    const elsewhere = await signInFrom('127.0.0.2', owner.email, owner.password);
    expectSignedIn(elsewhere);
    // … and from the attacker's very address, in the browser that signed in before.
    const withDevice = await signInFrom(attacker, owner.email, owner.password, device);
    expectSignedIn(withDevice);
    expect(deviceCookieOf(withDevice)).not.toBe(device);
    // The attacker is still held.
    expectHeld(await signInFrom(attacker, owner.email, `guess number 200`));

    // The server saw three requesters, by the sockets' own addresses.
    const seen = await app.fanstage.db.select({ address: loginAttempts.address }).from(loginAttempts).where(eq(loginAttempts.userId, owner.id));
    expect(new Set(seen.map((row) => row.address))).toEqual(new Set(['127.0.0.5', attacker, '127.0.0.2']));
    const totalMs = performance.now() - started;
    console.info(`sign-in throttle: 200 wrong passwords in ${Math.round(attackMs)} ms, the whole scenario in ${Math.round(totalMs)} ms`);
    expect(totalMs).toBeLessThan(20_000);
  });

  it('holds an e-mail and requester 1 s after five failures, doubling with each failure after, and a success starts the count again', async () => {
    const owner = await createAccount(app);
    const address = freshAddress();
    for (let i = 0; i < 5; i++) expect((await signIn(address, owner.email, `wrong ${i}`)).status).toBe(401);
    expectHeld(await signIn(address, owner.email, 'wrong 5'), 1);
    expectHeld(await signIn(address, owner.email, owner.password), 1);
    app.fanstage.clock.advance(1_000);
    expect((await signIn(address, owner.email, 'wrong 6')).status).toBe(401);
    expectHeld(await signIn(address, owner.email, 'wrong 7'), 2);
    app.fanstage.clock.advance(2_000);
    expect((await signIn(address, owner.email, 'wrong 8')).status).toBe(401);
    expectHeld(await signIn(address, owner.email, 'wrong 9'), 4);
    app.fanstage.clock.advance(4_000);
    expectSignedIn(await signIn(address, owner.email, owner.password));
    // The owner got in: the mistakes before no longer count.
    for (let i = 0; i < 5; i++) expect((await signIn(address, owner.email, `again ${i}`)).status).toBe(401);
    expectHeld(await signIn(address, owner.email, 'again 5'), 1);
  });

  it('never holds anyone longer than 15 minutes, however many failures', async () => {
    const owner = await createAccount(app);
    const address = freshAddress();
    await pastFailures(150, owner.email, address, owner.id);
    expectHeld(await signIn(address, owner.email, owner.password), 15 * 60);
    app.fanstage.clock.advance(15 * 60_000);
    expectSignedIn(await signIn(address, owner.email, owner.password));
  });

  it('holds an unknown e-mail exactly as an account, so the throttle does not tell who has one', async () => {
    const address = freshAddress();
    const nobody = `nobody.${Date.now()}@example.com`;
    for (let i = 0; i < 5; i++) expect((await signIn(address, nobody, `wrong ${i}`)).json.statusText).toBe('invalid-credentials');
    expectHeld(await signIn(address, nobody, 'wrong 5'), 1);
  });

  it('holds a requester that tries many e-mails, and only that requester', async () => {
    const sprayer = freshAddress();
    // Thirty failures, each on another address: no e-mail of them is held by itself.
    for (let i = 0; i < 30; i++) await pastFailures(1, `sprayed.${i}.${Date.now()}@example.com`, sprayer);
    const owner = await createAccount(app);
    expectHeld(await signIn(sprayer, owner.email, owner.password), 1);
    expectSignedIn(await signIn(freshAddress(), owner.email, owner.password));
  });

  it('checks no more passwords than the free ones when a burst arrives at once', async () => {
    const owner = await createAccount(app);
    const address = freshAddress();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(address, owner.email, `burst ${i}`)));
    expect(replies.filter((r) => r.status === 401)).toHaveLength(5);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(15);
  });
});

describe('the device cookie', () => {
  async function deviceOf(account: TestAccount): Promise<string> {
    const reply = await signIn(freshAddress(), account.email, account.password);
    expectSignedIn(reply);
    return deviceCookieOf(reply);
  }

  it('is set on sign-in HttpOnly and SameSite=Lax, for the sign-in route only, and not Secure over plain http', async () => {
    const owner = await createAccount(app);
    const response = await app.inject({ method: 'POST', url: '/papi/login', remoteAddress: freshAddress(), payload: { email: owner.email, password: owner.password } });
    const cookie = response.cookies.find((c) => c.name === 'fs_device');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/papi/login', maxAge: 365 * 24 * 3600 });
    expect(cookie?.secure).toBeFalsy();
    // A failed sign-in proves nothing and sets nothing.
    const failed = await app.inject({ method: 'POST', url: '/papi/login', remoteAddress: freshAddress(), payload: { email: owner.email, password: 'wrong' } });
    expect(failed.cookies.find((c) => c.name === 'fs_device')).toBeUndefined();
  });

  it('counts for nothing when forged, another account’s, or from before the account’s sessions ended', async () => {
    const owner = await createAccount(app);
    const other = await createAccount(app);
    const address = freshAddress();
    await pastFailures(5, owner.email, address, owner.id);
    const genuine = await deviceOf(owner);
    const [user, issued, id, mac] = genuine.split('.') as [string, string, string, string];
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const forged of [`${user}.${issued}.${id}.${flipped}`, `${other.id}.${issued}.${id}.${mac}`, await deviceOf(other), 'anything at all']) {
      expectHeld(await signIn(address, owner.email, owner.password, forged));
    }
    expectSignedIn(await signIn(address, owner.email, owner.password, genuine));
    // A password change or reset ends every session, and the standing of every browser with them.
    const again = await deviceOf(owner);
    await revokeSessions(app.fanstage, owner.id);
    await pastFailures(5, owner.email, address, owner.id);
    expectHeld(await signIn(address, owner.email, owner.password, again));
  });

  it('is held for its own failures, and keeps the tokens of several accounts', async () => {
    const owner = await createAccount(app);
    const second = await createAccount(app);
    const first = await deviceOf(owner);
    // Signing in to a second account in the same browser keeps the first one's token.
    const both = await signIn(freshAddress(), second.email, second.password, first);
    expectSignedIn(both);
    const cookie = deviceCookieOf(both);
    expect(cookie.split('~')).toHaveLength(2);
    const address = freshAddress();
    for (let i = 0; i < 5; i++) expect((await signIn(address, owner.email, `wrong ${i}`, cookie)).status).toBe(401);
    // Someone holding the cookie gets no more guesses than anyone else …
    expectHeld(await signIn(freshAddress(), owner.email, owner.password, cookie), 1);
    // … while the owner elsewhere, without it, is not held by them.
    expectSignedIn(await signIn(freshAddress(), owner.email, owner.password));
    // The other account's token in the same cookie is untouched by the first one's failures.
    expectSignedIn(await signIn(address, second.email, second.password, cookie));
    const rows = await app.fanstage.db.select({ device: loginAttempts.device }).from(loginAttempts).where(and(eq(loginAttempts.userId, owner.id), eq(loginAttempts.succeeded, false)));
    expect(rows.filter((r) => r.device !== null)).toHaveLength(5);
  });
});

describe('behind the load balancer', () => {
  it('takes the requester from the address the balancer saw, not from one the client wrote', async () => {
    const node = await startTestServer({ seed: false, clock: createStoppedClock(), env: { NODE_ENV: 'production', JWT_SECRET: 'a production secret of 32+ characters' } });
    // The balancer, on the private network, appends the address it saw to X-Forwarded-For.
    const via = async (peer: string, forwardedFor: string, email: string, password: string): Promise<Reply> => {
      const response = await node.app.inject({ method: 'POST', url: '/papi/login', remoteAddress: peer, headers: { 'x-forwarded-for': forwardedFor }, payload: { email, password } });
      return { status: response.statusCode, headers: response.headers, json: response.json() as Answer };
    };
    try {
      const owner = await createAccount(node.app);
      // The client writes a new made-up address each time; the balancer appends the real one.
      for (let i = 0; i < 5; i++) expect((await via('10.0.0.1', `198.51.100.${i}, 203.0.113.5`, owner.email, `wrong ${i}`)).status).toBe(401);
      expectHeld(await via('10.0.0.1', '198.51.100.99, 203.0.113.5', owner.email, 'wrong 5'));
      // Another client behind the same balancer is another requester.
      expectSignedIn(await via('10.0.0.1', '203.0.113.6', owner.email, owner.password));
      // A client reaching the node directly is believed about nothing it writes.
      for (let i = 0; i < 5; i++) expect((await via('203.0.113.7', `198.51.100.${i}`, owner.email, `direct ${i}`)).status).toBe(401);
      expectHeld(await via('203.0.113.7', '198.51.100.99', owner.email, 'direct 5'));
    } finally {
      await node.close();
    }
  });
});

// The people of the calls benchmark (bench/calls.ts): the seeded creator and fan, signed in
// through the API as the site's login does, her call price set, the fan's credits granted by a
// ledger transfer; and, for the message when a page is not signed in, what became of each
// session refresh of a browser context.
import type { BrowserContext, Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TERMS_VERSION } from '../../lib/contract/constants';
import { fanPriceCents } from '../../lib/contract/rules/price';
import { openDatabase } from '../../server/src/db';
import { account, inTransaction, transfer } from '../../server/src/ledger';

/** The creator and the fan: seeded demo accounts. */
export const creatorName = 'lucy.rivers';
const fanName = 'tom.baker';
/** The demo accounts' password, given to the benchmark's server (production seeds none by default). */
export const demoPassword = 'fanstage-demo';
/** Her price a minute: the 128-credit call step of SPEC §9, as in tests/e2e/calls.spec.ts. */
const callPrice = 128;

export interface ServerOnPostgres {
  base: string;
  port: number;
  child: ChildProcess;
  dbUrl: string;
  secret: string;
}

interface Envelope<T> {
  statusCode: number;
  statusText?: string;
  body: T;
}

async function api<T>(context: BrowserContext, method: 'get' | 'post' | 'put', url: string, data?: unknown, token?: string): Promise<T> {
  const response = await context.request[method](url, { data, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const envelope = (await response.json()) as Envelope<T>;
  if (!(envelope.statusCode > 0)) throw new Error(`${method.toUpperCase()} ${url}: ${JSON.stringify(envelope)}`);
  return envelope.body;
}
/** Signs `username` in within `context` as the site's login does (the refresh cookie), after agreeing to the terms as the site's banner does; answers an access token. */
async function signIn(context: BrowserContext, base: string, username: string): Promise<string> {
  const email = `${username}@example.com`;
  await api(context, 'post', `${base}/papi/users/cookie`, { name: 'accept', value: TERMS_VERSION });
  await api(context, 'post', `${base}/papi/login`, { email, password: demoPassword });
  const { accessToken } = await api<{ accessToken: string }>(context, 'post', `${base}/papi/login`, { email, password: demoPassword, tokenInBody: true });
  return accessToken;
}

/**
 * The creator's call price through the API (her token), and credits for the fan's calls given
 * the way the platform grants promotional credits: a ledger transfer by the server's own code.
 */
export async function prepareAccounts(server: ServerOnPostgres, fan: BrowserContext, creator: BrowserContext, calls: number): Promise<void> {
  const creatorToken = await signIn(creator, server.base, creatorName);
  await api(creator, 'put', `${server.base}/api/users/me`, { callPrice }, creatorToken);
  const fanToken = await signIn(fan, server.base, fanName);
  const me = await api<{ id: number }>(fan, 'get', `${server.base}/api/users/me`, undefined, fanToken);
  const { salt } = await api<{ salt: number }>(fan, 'get', `${server.base}/papi/settings`);
  // Each call is hung up within its first minute; twice as much as needed, for safety.
  const credits = fanPriceCents(callPrice, salt) * calls * 2;
  const dataDir = mkdtempSync(join(tmpdir(), 'fanstage-bench-calls-db-'));
  const handle = await openDatabase({ databaseUrl: server.dbUrl, dataDir });
  try {
    await inTransaction(handle.db, (tx) =>
      transfer(tx, {
        key: `promotion:bench-calls:${me.id}:${randomBytes(6).toString('hex')}`,
        kind: 'promotion',
        counterpartyId: me.id,
        legs: [
          { account: account.promotions, amount: -credits },
          { account: account.wallet(me.id), amount: credits },
        ],
      }),
    );
  } finally {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What became of each session refresh of a context, for the message when a page is not signed in. */
const refreshes = new WeakMap<BrowserContext, string[]>();
export function watchRefreshes(context: BrowserContext): void {
  const seen: string[] = [];
  refreshes.set(context, seen);
  const at = () => new Date().toISOString().slice(11, 23);
  context.on('response', (response) => {
    if (response.url().includes('/papi/login/refresh')) seen.push(`${at()} ${response.status()}`);
  });
  context.on('requestfailed', (request) => {
    if (request.url().includes('/papi/')) seen.push(`${at()} ${new URL(request.url()).pathname} failed: ${request.failure()?.errorText}`);
  });
}

/** The site has restored the session from its cookie (the side navigation offers to log out). */
export async function signedIn(page: Page): Promise<void> {
  try {
    await page.getByTestId('side-nav').getByRole('button', { name: 'Log out' }).waitFor({ timeout: 20_000 });
  } catch (error) {
    const log = refreshes.get(page.context())?.slice(-8).join('; ') ?? '';
    throw new Error(`${page.url()} is not signed in; session refreshes: ${log}`, { cause: error });
  }
}

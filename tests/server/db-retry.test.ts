import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, balanceOf, inTransaction, transfer } from '../../server/src/ledger';
import { sql } from '../support/db';
import { createAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/server';

const onPostgres = Boolean(process.env.DATABASE_URL?.trim() && process.env.DATABASE_URL.trim() !== 'memory://');

/**
 * A transaction whose connection is cut before its commit was sent (here: PostgreSQL terminates
 * the backend it runs on, as `pg_terminate_backend` or a restart does) is rolled back by
 * PostgreSQL and run again on a fresh connection; the caller sees one success, the ledger one
 * transfer.
 */
describe.skipIf(!onPostgres)('a transaction cut off before its commit (PostgreSQL)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs again on a new connection and moves the money once', async () => {
    const { db } = server.app.fanstage;
    const fan = await createAccount(server.app);
    const backends: number[] = [];
    const result = await inTransaction(db, async (tx) => {
      const moved = await transfer(tx, {
        key: `promotion:retry:${fan.id}`,
        kind: 'promotion',
        counterpartyId: fan.id,
        legs: [
          { account: account.promotions, amount: -500 },
          { account: account.wallet(fan.id), amount: 500 },
        ],
      });
      const pid = ((await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] }).rows[0]!.pid;
      backends.push(pid);
      // The first attempt loses its connection after its writes and before its commit.
      if (backends.length === 1) await tx.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
      return moved;
    });
    expect(backends).toHaveLength(2);
    expect(backends[1]).not.toBe(backends[0]);
    expect(result.replayed).toBe(false);
    expect(await balanceOf(db, account.wallet(fan.id))).toBe(500);
  });
});

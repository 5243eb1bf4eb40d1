import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { sql } from '../support/db';
import { expectLedgerBalanced } from '../support/money';
import { openDatabase } from '../../server/src/db';
import { account, accountId, transfer } from '../../server/src/ledger';
import { foldPendingCredits } from '../../server/src/ledger/jobs';

/**
 * `npm run reconcile` (server/scripts/reconcile.ts) as an operator runs it: on a PGlite folder
 * (so this file runs on the embedded database too) and on the PostgreSQL database the server uses.
 */
let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const db = () => app.fanstage.db;

describe('the reconcile command', () => {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const script = path.join(repoRoot, 'server', 'scripts', 'reconcile.ts');

  function run(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const { DATABASE_URL: _ignored, DATA_DIR: _alsoIgnored, ...inherited } = process.env;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repoRoot, env: { ...inherited, NODE_ENV: 'test', ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('exits 0 on a PGlite folder that reconciles and 1 once a balance was edited', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fanstage-reconcile-'));
    try {
      const handle = await openDatabase({ databaseUrl: undefined, dataDir });
      await transfer(handle.db, { key: 'promotion:cli', kind: 'promotion', legs: [{ account: account.promotions, amount: -5 }, { account: account.fees, amount: 5 }] });
      await handle.close();
      const clean = await run({ DATA_DIR: dataDir });
      expect(clean.stderr).toBe('');
      expect(clean.stdout).toContain('The ledger reconciles.');
      expect(clean.code).toBe(0);

      const again = await openDatabase({ databaseUrl: undefined, dataDir });
      await again.db.execute(sql`update ledger_accounts set balance = balance + 3 where kind = 'fees'`);
      await again.close();
      const tampered = await run({ DATA_DIR: dataDir });
      expect(tampered.stdout).toContain('the fees account: stored 8, entries sum to 5 (+3)');
      expect(tampered.stdout).toContain('does NOT reconcile');
      expect(tampered.code).toBe(1);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!process.env.DATABASE_URL)('exits 0 and 1 against the PostgreSQL database the server uses', { timeout: 120_000 }, async () => {
    const databaseUrl = app.fanstage.config.databaseUrl!;
    await transfer(db(), { key: 'promotion:cli-pg', kind: 'promotion', legs: [{ account: account.promotions, amount: -5 }, { account: account.fees, amount: 5 }] });
    const clean = await run({ DATABASE_URL: databaseUrl, DATA_DIR: tmpdir() });
    expect(clean.code).toBe(0);
    const feesId = await accountId(db(), account.fees);
    // The fees' pending credits added to the stored balance, as the ledger-pending-credits job does.
    await foldPendingCredits(app.fanstage.db);
    await db().execute(sql`update ledger_accounts set balance = balance - 2 where id = ${feesId}`);
    try {
      const tampered = await run({ DATABASE_URL: databaseUrl, DATA_DIR: tmpdir() });
      expect(tampered.code).toBe(1);
      expect(tampered.stdout).toContain(`account ${feesId}, the fees account`);
    } finally {
      await db().execute(sql`update ledger_accounts set balance = balance + 2 where id = ${feesId}`);
    }
    await expectLedgerBalanced(app);
  });
});

/**
 * Reconciles the ledger of the database the server would open (DATABASE_URL, or the PGlite
 * files under DATA_DIR/db) and prints what it found.
 *
 *   npm run reconcile              # from the repository root
 *   npm run reconcile -- --json    # the report as JSON
 *
 * Exit code 0 when every balance agrees with its entries, 1 on any difference, 2 when the
 * database could not be read. A PGlite folder may be opened by one process at a time: stop
 * the server first (PostgreSQL has no such limit).
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config';
import { openDatabase } from '../src/db';
import { describeReport, reconcile } from '../src/ledger/reconcile';

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured database';
  }
}

async function main(): Promise<number> {
  const env = { ...process.env };
  // `npm run` moves into the workspace; a relative DATA_DIR means the folder npm was run from,
  // the same one `npm start` at the root uses.
  const base = process.env.INIT_CWD ?? process.cwd();
  env.DATA_DIR = path.resolve(base, env.DATA_DIR?.trim() || './data');
  const json = process.argv.includes('--json');

  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      return 2;
    }
    throw error;
  }

  const where = config.databaseUrl === undefined ? `PGlite at ${path.join(config.dataDir, 'db')}` : config.databaseUrl === 'memory://' ? 'an empty in-memory PGlite' : `PostgreSQL at ${redact(config.databaseUrl)}`;
  let handle;
  try {
    handle = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      namedStatements: config.databaseNamedStatements,
      ...(config.databaseDirectUrl === undefined ? {} : { directUrl: config.databaseDirectUrl }),
    });
  } catch (error) {
    process.stderr.write(`Could not open ${where}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  try {
    const report = await reconcile(handle.db);
    if (json) process.stdout.write(`${JSON.stringify({ database: where, ...report }, null, 2)}\n`);
    else process.stdout.write(`Ledger reconciliation of ${where}\n${describeReport(report)}`);
    return report.ok ? 0 : 1;
  } catch (error) {
    process.stderr.write(`Reconciliation failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);

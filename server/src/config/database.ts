/**
 * The database's settings that need more than a check: the pooling a PostgreSQL address tells
 * of by itself (DATABASE_POOLING's default).
 */

/**
 * The pooling a database address tells of by itself: Prisma's `pgbouncer=true`, Neon's pooled
 * hosts (`ep-…-pooler.…`), Supabase's pooler in transaction mode (port 6543). Anything else is
 * taken to be a connection of its own; DATABASE_POOLING says otherwise.
 */
export function detectPooling(databaseUrl: string | undefined): 'session' | 'transaction' {
  if (databaseUrl === undefined || !/^postgres(ql)?:\/\//.test(databaseUrl)) return 'session';
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return 'session';
  }
  if (url.searchParams.get('pgbouncer') === 'true') return 'transaction';
  if (/-pooler\./.test(url.hostname)) return 'transaction';
  if (url.hostname.endsWith('.pooler.supabase.com') && url.port === '6543') return 'transaction';
  return 'session';
}

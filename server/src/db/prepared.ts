import { createHash } from 'node:crypto';
import type { Database } from './index';

export interface Statement<T> {
  execute(values?: Record<string, unknown>): Promise<T>;
}

const statements = new WeakMap<Database, Map<string, Statement<unknown>>>();

/**
 * A statement built once per database and kind (`key`) and run as a named prepared statement:
 * building a query with Drizzle cost more of the server's time than anything else a page of
 * posts does, and PostgreSQL parses a named statement once per connection. `build` must put
 * every value behind a placeholder; the kinds are few and fixed (never a value in the key).
 */
export function preparedStatement<T>(db: Database, key: string, build: () => { prepare(name: string): Statement<T> }, named = true): Statement<T> {
  let byKey = statements.get(db);
  if (byKey === undefined) {
    byKey = new Map();
    statements.set(db, byKey);
  }
  let statement = byKey.get(key) as Statement<T> | undefined;
  if (statement === undefined) {
    // PostgreSQL keeps 63 bytes of a name; a digest of the key never collides there. An unnamed
    // statement is planned for its values every time: for those whose best plan depends on
    // them (text search: a common word walks the newest posts, a rare one reads the GIN index),
    // a named one could settle on one plan for all after a few runs.
    statement = build().prepare(named ? `fs_${createHash('sha1').update(key).digest('hex').slice(0, 24)}` : '');
    byKey.set(key, statement as Statement<unknown>);
  }
  return statement;
}

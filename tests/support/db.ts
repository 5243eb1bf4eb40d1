/**
 * drizzle-orm lives in the server workspace only; tests that read or arrange rows build their
 * conditions with the very copy the server's database uses.
 */
export { and, eq, sql } from '../../server/src/db';

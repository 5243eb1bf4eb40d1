import type { Database } from './index';

/** The database or a transaction on it: what a write that may join its caller's transaction takes. */
export type Tx = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

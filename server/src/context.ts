import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Database } from './db';
import type { MediaStorage } from './media/storage';
import type { UnlockKeys } from './media/unlock-keys';
import type { RealtimePublisher } from './realtime';

/** What every feature's routes and services are built with. */
export interface AppContext {
  config: Config;
  db: Database;
  storage: MediaStorage;
  /** Signs and checks the `k` keys of locked media addresses. */
  unlockKeys: UnlockKeys;
  /** Now, movable by tests (renewals, lapsed holds). */
  clock: Clock;
  /** Reaches people's open websockets on every node; publish only after the change committed. */
  realtime: RealtimePublisher;
  /** The server's logger, for work outside a request (sockets, jobs, after-commit publishing). */
  log: FastifyBaseLogger;
}

/** The Fastify instance with TypeBox inference for route schemas. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

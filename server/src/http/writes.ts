import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

/**
 * What a node holds in memory for a moment instead of reading the database on every request
 * (visitors' pages, a viewer's own first page, the account behind an access token) is good
 * until the next write. Any write this node answers successfully (a request other than GET,
 * HEAD or OPTIONS, answered below 400) starts a new generation, and is announced to the other
 * nodes over the realtime bus (a burst as one message), which start one too. A holder keys what
 * it holds by the generation it was read in, so a read that began before a write is never
 * answered after it.
 */
export interface Writes {
  /** Bumped by every write, on this node or announced by another. */
  readonly generation: number;
  /** Runs `listener` after each new generation (a holder drops what it holds). */
  onWrite(listener: () => void): void;
}

// Keyed by the app's realtime publisher: the app's decorated context is a copy of the one its
// routes were built with, and both hold the same publisher.
const byApp = new WeakMap<AppContext['realtime'], Writes>();

/** Starts counting the app's writes and those other nodes announce; once per app (buildApp). */
export function trackWrites(app: FastifyInstance, ctx: AppContext): Writes {
  const existing = byApp.get(ctx.realtime);
  if (existing !== undefined) return existing;
  const listeners: (() => void)[] = [];
  const writes = {
    generation: 0,
    onWrite(listener: () => void) {
      listeners.push(listener);
    },
  };
  const bump = () => {
    writes.generation += 1;
    for (const listener of listeners) listener();
  };
  app.addHook('onResponse', (request, reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS' && reply.statusCode < 400) {
      bump();
      ctx.realtime.announceWrite();
    }
    done();
  });
  ctx.realtime.onWriteElsewhere(bump);
  byApp.set(ctx.realtime, writes);
  return writes;
}

/** The writes of the app built with `ctx`; undefined for a context no app counts writes for (hold nothing then). */
export function writesOf(ctx: AppContext): Writes | undefined {
  return byApp.get(ctx.realtime);
}

import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { createChatService } from '../chat/service';
import { createCallClock, type CallClock } from './clock';
import { createCallNotices, type CallNotices } from './notices';
import { createCallService, type CallService } from './service';
import { pushTo } from '../push/service';

/**
 * One node's calls: the service, the billing clocks it runs and what it tells sockets. The
 * websocket handler, the routes, the jobs and the app's shutdown all need the same clocks, so
 * there is one per app (per database handle), made by whichever asks first.
 */
export interface CallRuntime {
  /** This node's name in the leases it takes. */
  nodeId: string;
  service: CallService;
  clock: CallClock;
  notices: CallNotices;
}

const runtimes = new WeakMap<object, CallRuntime>();

export function callRuntime(ctx: AppContext, log: FastifyBaseLogger = ctx.log): CallRuntime {
  const existing = runtimes.get(ctx.db);
  if (existing !== undefined) return existing;
  const nodeId = randomBytes(8).toString('hex');
  const service = createCallService(ctx, nodeId);
  const chat = createChatService(ctx);
  const notices = createCallNotices(
    ctx.realtime,
    (callId) => chat.deliverCallEntry(callId),
    log,
    // Missed or given up by the caller: her ring's notification becomes a missed call; any other
    // end (answered, declined, on whichever device) just closes it.
    (call) => pushTo(ctx, call.calleeId, { kind: 'callEnded', fromUserId: call.callerId, callId: call.id, missed: call.state === 'missed' || call.state === 'cancelled' }),
  );
  const runtime: CallRuntime = { nodeId, service, notices, clock: createCallClock(service, notices, ctx.clock, log) };
  runtimes.set(ctx.db, runtime);
  return runtime;
}

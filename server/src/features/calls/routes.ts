import { Call, CallIceServers, CallIdParams, CallPackages, CallPackagesParams } from '../../../../lib/contract/calls';
import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import type { App, AppContext } from '../../context';
import type { Jobs } from '../../jobs';
import { ok, withBody } from '../../http/envelope';
import { AppError } from '../../errors';
import { authenticate, viewerOf } from '../auth/guard';
import { registerCallJobs } from './jobs';
import { callRuntime, type CallRuntime } from './runtime';
import { iceServersForCall } from './turn';

/**
 * Paid calls' HTTP side and lifecycle (docs/calls.md): a call's record for either party, what a
 * minute with a creator costs, the sweeper job, the billing clocks started with the server and
 * the calls this node runs ended when it shuts down. The calls themselves travel over the
 * websocket (./socket.ts). Tests reach the same clocks with `callRuntime(app.fanstage, app.log)`:
 * they move `app.fanstage.clock` and await `clock.tick()`.
 */
export function registerCallRoutes(app: App, ctx: AppContext, jobs: Jobs): CallRuntime {
  const runtime = callRuntime(ctx, app.log);
  const tags = ['calls'];

  app.get(
    '/api/calls/:id',
    {
      schema: {
        tags,
        summary: 'A call of the viewer’s, as either party sees it: the people, its state and why it ended, the prices, minutes, cost (the caller’s) and earnings (the callee’s); anyone else gets not-found',
        params: CallIdParams,
        response: { 200: BodyEnvelope(Call) },
      },
      preHandler: authenticate,
    },
    async (request) => withBody(await runtime.service.get(viewerOf(request).id, request.params.id)),
  );

  app.get(
    '/api/calls/:id/ice-servers',
    {
      schema: {
        tags,
        summary: 'The ICE servers for the viewer’s side of a ringing or live call: the platform’s STUN servers and, with a TURN server configured, a TURN credential minted for the viewer that is good for ttl seconds (coturn’s use-auth-secret); anyone else, or a call that is over, gets not-found',
        params: CallIdParams,
        response: { 200: BodyEnvelope(CallIceServers) },
      },
      preHandler: authenticate,
    },
    async (request, reply) => {
      // A credential is the viewer's own: no cache may keep it or hand it to someone else.
      reply.header('Cache-Control', 'no-store');
      return withBody(await iceServersForCall(ctx, viewerOf(request).id, request.params.id));
    },
  );

  app.post(
    '/api/calls/:id/decline',
    {
      schema: {
        tags,
        summary:
          'The callee declines a ringing call by its id, as preAnswer {accept: false} does over the websocket: what a notification’s Decline button sends with no page open. A call that is over gets call-not-found, one answered already (on another device) call-taken; anyone but the callee call-not-found',
        params: CallIdParams,
        response: { 200: OkEnvelope },
      },
      preHandler: authenticate,
    },
    async (request) => {
      const outcome = await runtime.service.decline(viewerOf(request).id, request.params.id);
      if (outcome.kind === 'taken') throw new AppError('call-taken');
      if (outcome.kind !== 'ended') throw new AppError('call-not-found');
      runtime.clock.forget(outcome.call.id);
      await runtime.notices.ended(outcome.call);
      return ok;
    },
  );

  app.get(
    '/api/users/:id/call-packages',
    {
      schema: {
        tags,
        summary: 'What a minute of a call with this creator costs the viewer (credits, with the platform’s fee), and how many whole minutes each credit package buys (null when calls are free); calls-not-offered for someone who takes no calls',
        params: CallPackagesParams,
        response: { 200: BodyEnvelope(CallPackages) },
      },
      preHandler: authenticate,
    },
    async (request) => withBody(await runtime.service.packages(viewerOf(request).id, request.params.id)),
  );

  registerCallJobs(jobs, runtime);
  app.addHook('onReady', async () => {
    runtime.clock.start();
    // Calls left open by a node that died are closed at start too, not only on the job's timer.
    await jobs.runNow('calls-sweep').catch((error: unknown) => app.log.warn({ err: error }, 'calls: the first sweep failed; the job tries again'));
  });
  // While the database is still open: the calls this node runs end as if hung up now.
  app.addHook('preClose', async () => runtime.clock.shutdown());
  return runtime;
}

import { Call, CallIceServers, CallIdParams, CallPackages, CallPackagesParams } from '../../../../lib/contract/calls';
import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import type { App } from '../../context';
import { ok, withBody } from '../../http/envelope';
import { AppError } from '../../errors';
import { viewerOf } from '../auth/guard';
import { registerCallJobs } from './jobs';
import { callRuntime } from './runtime';
import { iceServersForCall } from './turn';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';
import { createCallSocket } from './socket';

/**
 * Paid calls' HTTP side and lifecycle (docs/calls.md): a call's record for either party, what a
 * minute with a creator costs, the sweeper job, the billing clocks started with the server and
 * the calls this node runs ended when it shuts down. The calls themselves travel over the
 * websocket (./socket.ts). Tests reach the same clocks with `callRuntime(app.fanstage, app.log)`:
 * they move `app.fanstage.clock` and await `clock.tick()`.
 */
export async function callsFeature(app: App, { ctx, jobs, realtime }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  // Its websocket messages (docs/realtime.md).
  realtime.register(createCallSocket(ctx));
  const runtime = callRuntime(ctx, app.log);
  const tags = ['calls'];

  api.get(
    '/api/calls/:id',
    {
      schema: {
        tags,
        summary: 'A call of the viewer’s, as either party sees it: the people, its state and why it ended, the prices, minutes, cost (the caller’s) and earnings (the callee’s); anyone else gets not-found',
        params: CallIdParams,
        response: { 200: BodyEnvelope(Call) },
      },
    },
    async (request) => withBody(await runtime.service.get(viewerOf(request).id, request.params.id)),
  );

  api.get(
    '/api/calls/:id/ice-servers',
    {
      schema: {
        tags,
        summary: 'The ICE servers for the viewer’s side of a ringing or live call: the platform’s STUN servers and, with a TURN server configured, a TURN credential minted for the viewer that is good for ttl seconds (coturn’s use-auth-secret); anyone else, or a call that is over, gets not-found',
        params: CallIdParams,
        response: { 200: BodyEnvelope(CallIceServers) },
      },
    },
    async (request, reply) => {
      // A credential is the viewer's own: no cache may keep it or hand it to someone else.
      reply.header('Cache-Control', 'no-store');
      return withBody(await iceServersForCall(ctx, viewerOf(request).id, request.params.id));
    },
  );

  api.post(
    '/api/calls/:id/decline',
    {
      schema: {
        tags,
        summary:
          'The callee declines a ringing call by its id, as preAnswer {accept: false} does over the websocket: what a notification’s Decline button sends with no page open. A call that is over gets call-not-found, one answered already (on another device) call-taken; anyone but the callee call-not-found',
        params: CallIdParams,
        response: { 200: OkEnvelope },
      },
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

  api.get(
    '/api/users/:id/call-packages',
    {
      schema: {
        tags,
        summary: 'What a minute of a call with this creator costs the viewer (credits, with the platform’s fee), and how many whole minutes each credit package buys (null when calls are free); calls-not-offered for someone who takes no calls',
        params: CallPackagesParams,
        response: { 200: BodyEnvelope(CallPackages) },
      },
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
}

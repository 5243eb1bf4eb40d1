import { DeviceBody, DeviceRemoveBody } from '../../../../lib/contract/push';
import { OkEnvelope } from '../../../../lib/contract/envelope';
import type { App } from '../../context';
import { ok } from '../../http/envelope';
import { sessionFamilyOf, viewerOf } from '../auth/guard';
import { pushService } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

/** Web push: the browsers that receive it (SPEC §7 POST /api/device). docs/push.md. */
export async function pushFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const push = pushService(ctx);
  const tags = ['users'];

  api.post(
    '/api/device',
    {
      schema: {
        tags,
        summary:
          'Receive web push in this browser: its PushSubscription (`subscription.toJSON()`), for the viewer and this session; the same endpoint registered again replaces the old row, a user keeps at most 10 browsers. The endpoint must be https at a known push service (a loopback address only outside production), else invalid-request',
        body: DeviceBody,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      await push.register(viewerOf(request).id, sessionFamilyOf(request), request.body);
      return ok;
    },
  );

  api.delete(
    '/api/device',
    {
      schema: {
        tags,
        summary: 'Stop web push to one of the viewer’s browsers (its subscription’s endpoint); unknown endpoints and other people’s are no error and stay as they are',
        body: DeviceRemoveBody,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      await push.remove(viewerOf(request).id, request.body.endpoint);
      return ok;
    },
  );
}

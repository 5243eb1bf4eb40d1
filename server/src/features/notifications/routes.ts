import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import { Counts, NotificationPage, NotificationsQuery } from '../../../../lib/contract/notifications';
import type { App } from '../../context';
import { errors } from '../../errors';
import { ok, withBody } from '../../http/envelope';
import { viewerOf } from '../auth/guard';
import { notificationsPageSize, parseTypes } from './domain';
import { createNotificationService } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';
import { notificationSocketFeature } from './socket';

export async function notificationsFeature(app: App, { ctx, realtime }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  // Its websocket messages (docs/realtime.md).
  realtime.register(notificationSocketFeature(ctx));
  const service = createNotificationService(ctx);

  api.get(
    '/api/2/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary: 'The viewer’s notifications, newest first, 30 a page; `types` is a comma-separated list of types',
        querystring: NotificationsQuery,
        response: { 200: BodyEnvelope(NotificationPage) },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const parsed = parseTypes(request.query.types);
      if ('unknown' in parsed) throw errors.invalidRequest({ location: 'querystring', field: 'types', reason: 'unknown', value: parsed.unknown });
      return withBody(
        await service.page({
          viewerId: viewer.id,
          types: parsed.types,
          limit: request.query.limit ?? notificationsPageSize,
          offset: request.query.offset ?? 0,
        }),
      );
    },
  );

  api.post(
    '/api/2/notifications/read',
    {
      schema: { tags: ['notifications'], summary: 'Mark every notification up to now as read', response: { 200: OkEnvelope } },
    },
    async (request) => {
      await service.markRead(viewerOf(request).id);
      return ok;
    },
  );

  api.get(
    '/api/count/',
    {
      schema: { tags: ['notifications'], summary: 'The badge counts of the navigation', response: { 200: BodyEnvelope(Counts) } },
    },
    async (request) => withBody(await service.counts(viewerOf(request).id)),
  );
}

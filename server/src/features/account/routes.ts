import { Type } from 'typebox';
import type { App } from '../../context';
import { viewerOf } from '../auth/guard';
import { exportAccount } from './export';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

/**
 * GET /api/users/me/export: the account's own data as one JSON file to download. Only the
 * platform's own signed-in session may ask (a widget session is refused by its scope), and
 * only for itself: there is no id to ask about anyone else.
 */
export async function accountFeature(app: App, { ctx, services }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const userService = services.users;
  api.get(
    '/api/users/me/export',
    {
      schema: {
        tags: ['account'],
        summary: 'Download my data: profile, posts, comments, messages sent, follows, subscriptions and money lines, as a JSON attachment',
        response: { 200: Type.Unknown({ description: 'The export file (format `fanstage-account-export`, version 1): see docs/account.md' }) },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const data = await exportAccount(ctx, viewer.id, await userService.account(viewer.id));
      const day = data.exportedAt.slice(0, 10);
      // Sent as text, pretty-printed for a person opening the file.
      return reply
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', `attachment; filename="fanstage-${data.profile.username}-${day}.json"`)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(data, null, 2));
    },
  );
}

import { Type } from 'typebox';
import type { App, AppContext } from '../../context';
import type { UserService } from '../users/service';
import { authenticate, viewerOf } from '../auth/guard';
import { exportAccount } from './export';

/**
 * GET /api/users/me/export: the account's own data as one JSON file to download. Only the
 * platform's own signed-in session may ask (a widget session is refused by its scope), and
 * only for itself: there is no id to ask about anyone else.
 */
export function registerAccountRoutes(app: App, ctx: AppContext, userService: UserService): void {
  app.get(
    '/api/users/me/export',
    {
      schema: {
        tags: ['account'],
        summary: 'Download my data: profile, posts, comments, messages sent, follows, subscriptions and money lines, as a JSON attachment',
        response: { 200: Type.Unknown({ description: 'The export file (format `fanstage-account-export`, version 1): see docs/account.md' }) },
      },
      preHandler: authenticate,
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

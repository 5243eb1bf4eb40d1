import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { GiftList } from '../../../../lib/contract/gifts';
import type { App, AppContext } from '../../context';
import { withBody } from '../../http/envelope';
import { createGiftService } from './service';

export function registerGiftRoutes(app: App, ctx: AppContext): void {
  const service = createGiftService(ctx);
  app.get(
    '/papi/gifts',
    {
      schema: {
        tags: ['gifts'],
        summary: 'The gift catalogue; pictures are at `${mediaCDN}/gifts/${imageName}`',
        response: { 200: BodyEnvelope(GiftList) },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return withBody(await service.list());
    },
  );
}

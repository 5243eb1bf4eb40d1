import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { GiftList } from '../../../../lib/contract/gifts';
import type { App } from '../../context';
import { withBody } from '../../http/envelope';
import { createGiftService } from './service';
import type { FeatureOptions } from '../feature';

export async function giftsFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
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

import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { Release } from '../../../../lib/contract/release';
import type { App } from '../../context';
import { withBody } from '../../http/envelope';
import { createReleaseService } from './service';
import type { FeatureOptions } from '../feature';

/**
 * `GET /release?{timestamp}` (SPEC §7): which release of the site is live, so an open page on
 * an older one can offer a reload. Public and the same for everyone: the id is in the site's
 * own files anyway. The timestamp only defeats caches; it is accepted and ignored.
 */
export async function releaseFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const releases = createReleaseService(ctx);
  app.get(
    '/release',
    {
      schema: {
        tags: ['settings'],
        summary: 'The release of the site this server serves (null without a built site)',
        response: { 200: BodyEnvelope(Release) },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return withBody({ release: await releases.current() });
    },
  );
}

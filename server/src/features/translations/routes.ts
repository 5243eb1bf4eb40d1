import path from 'node:path';
import { Type } from 'typebox';
import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { TranslationsBody, TranslationsQuery } from '../../../../lib/contract/translations';
import { repoRoot } from '../../config';
import type { App } from '../../context';
import { etagMatches } from '../../http/compression';
import { loadTranslations, type Namespace } from './domain';
import type { FeatureOptions } from '../feature';

export const localesDir = path.join(repoRoot, 'lib', 'i18n', 'locales');

export async function translationsFeature(app: App, _options: FeatureOptions): Promise<void> {
  const answers = loadTranslations(localesDir);

  for (const namespace of ['client', 'enums'] as const satisfies readonly Namespace[]) {
    app.get(
      `/papi/translations/${namespace}`,
      {
        schema: {
          tags: ['translations'],
          summary: `The ${namespace} translations in the request's Language; cacheable per version \`v\``,
          querystring: TranslationsQuery,
          response: { 200: BodyEnvelope(TranslationsBody), 304: Type.Null({ description: 'Not modified (ETag matched).' }) },
        },
      },
      async (request, reply) => {
        const answer = answers.get(`${namespace}:${request.language}`);
        if (answer === undefined) throw new Error(`translations missing for ${namespace}:${request.language}`);
        reply.header('Vary', 'Language');
        reply.header('ETag', answer.etag);
        // A client asking for the current version by name may keep it forever; anyone else
        // revalidates, so a deploy with new texts reaches them at once.
        reply.header('Cache-Control', request.query.v === answer.version ? 'public, max-age=31536000, immutable' : 'no-cache');
        if (etagMatches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send(null);
        // The envelope was serialised at start; Fastify sends a JSON string as it is.
        return reply.type('application/json; charset=utf-8').send(answer.json as never);
      },
    );
  }
}

import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { OriginBody, OriginProof, OriginProofList, OriginProofToken } from '../../../../lib/contract/badge';
import type { App } from '../../context';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';
import { withBody } from '../../http/envelope';
import { viewerOf } from '../auth/guard';
import { createOriginProofService } from './service';

/** The job that looks again at proven sites (daily each) and withdraws proofs that keep failing. */
export const ORIGIN_PROOFS_JOB = 'origin-proofs-recheck';

/**
 * Proof of site ownership (docs/embedding.md, "Proving a site"): a creator who lists a site for
 * her widgets serves a token there; the server finds it, and only then does the consent screen
 * name her as listing the site. Sellers and administrators, full sessions only.
 */
export async function originProofsFeature(app: App, { ctx, jobs }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const service = createOriginProofService(ctx);
  const tags = ['account'];

  api.get(
    '/api/embed-origins',
    {
      schema: { tags, summary: 'The sites the viewer lists for her widgets, each with its proof: token, proven, method, when checked, failures', response: { 200: BodyEnvelope(OriginProofList) } },
    },
    async (request) => withBody(await service.list(viewerOf(request).id)),
  );

  api.post(
    '/api/embed-origins/token',
    {
      schema: {
        tags,
        summary:
          'The token that proves a listed site is the viewer’s: serve it as a line of /.well-known/fanstage-verification.txt on that origin, or in a <meta name="fanstage-verification"> of its home page. origin-not-listed, embed-origins-not-allowed',
        body: OriginBody,
        response: { 200: BodyEnvelope(OriginProofToken) },
      },
    },
    async (request) => withBody(await service.token(viewerOf(request).id, request.body.origin)),
  );

  api.post(
    '/api/embed-origins/prove',
    {
      schema: {
        tags,
        summary:
          'Look for the token on the site now (5 s, no redirects to other origins, no private addresses in production). origin-proof-failed with body.reason: address-refused, unreachable, timeout, http-status, redirect-refused, too-large, token-missing',
        body: OriginBody,
        response: { 200: BodyEnvelope(OriginProof) },
      },
    },
    async (request) => withBody(await service.prove(viewerOf(request).id, request.body.origin)),
  );

  jobs.add({ name: ORIGIN_PROOFS_JOB, everyMs: 15 * 60_000, run: () => service.recheckDue() });
}

import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { BadgeAnswer, BadgeJwks } from '../../../../lib/contract/badge';
import { UserIdParams } from '../../../../lib/contract/users';
import type { App } from '../../context';
import type { FeatureOptions } from '../feature';
import { withBody } from '../../http/envelope';
import { JWKS_MAX_AGE_SECONDS } from './domain';
import { publishedKeys, rotateDueBadgeKeys } from './keys';
import { issueBadge } from './service';

/** The job that replaces the badge signing key when it is due and deletes retired keys. */
export const BADGE_KEYS_JOB = 'badge-keys-rotate';

/**
 * The verified badge partner sites can check (docs/embedding.md, "Verifying a badge"): a
 * short-lived statement signed with the platform's Ed25519 key, and the public keys.
 */
export async function badgeFeature(app: App, { ctx, jobs }: FeatureOptions): Promise<void> {
  app.get(
    '/papi/users/:id/badge',
    {
      schema: {
        tags: ['users'],
        summary:
          'The verified badge of a person (username in any case, or id): a compact JWS (EdDSA, Ed25519) with sub the username, verified, partner, iss, iat and exp, 10 minutes from now; check it against /.well-known/jwks.json. badge-not-issued for a person without a verified badge',
        params: UserIdParams,
        response: { 200: BodyEnvelope(BadgeAnswer) },
      },
    },
    async (request, reply) => {
      const badge = await issueBadge(ctx, request.params.id);
      const left = Math.max(0, Math.floor((badge.expiresAt - ctx.clock.now().getTime()) / 1000));
      // Kept no longer than it verifies: a revocation reaches every copy within its expiry.
      reply.header('Cache-Control', `public, max-age=${left}`);
      return withBody(badge);
    },
  );

  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['users'],
        summary: 'The public keys of the verified badges (a JSON Web Key Set, Ed25519, by kid): the key that signs now and the ones retiring',
        response: { 200: BadgeJwks },
      },
    },
    async (_request, reply) => {
      const keys = await publishedKeys(ctx);
      // Any page may read it; a retiring key stays in it longer than this, so a cached copy still verifies.
      reply.header('Access-Control-Allow-Origin', '*').header('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
      return { keys };
    },
  );

  jobs.add({ name: BADGE_KEYS_JOB, everyMs: 60 * 60_000, run: rotateDueBadgeKeys });
}

import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import { AffiliateInfo, Invite } from '../../../../lib/contract/invites';
import { AffCodeBody, AffCodeParams } from '../../../../lib/contract/payments';
import type { App } from '../../context';
import { AppError } from '../../errors';
import { ok, withBody } from '../../http/envelope';
import { viewerOf } from '../auth/guard';
import { createInviteService } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

/** Invite codes and the affiliate relation (SPEC §5 Affiliate code, §7 aff-code). */
export async function invitesFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const invites = createInviteService(ctx);
  const tags = ['users'];

  api.get(
    '/api/users/invite',
    {
      schema: {
        tags,
        summary: 'The viewer’s 8-character invite code and invite link (`/?aff=CODE`); the code is given on the first request and never changes',
        response: { 200: BodyEnvelope(Invite) },
      },
    },
    async (request) => withBody(await invites.invite(viewerOf(request).id)),
  );

  api.post(
    '/api/users/aff-code',
    {
      schema: {
        tags,
        summary:
          'Record who invited the viewer (`affCode`: their invite code); the first inviter stays (a later code is ignored). user-not-found for an unknown code, cannot-target-self for one’s own',
        body: AffCodeBody,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      const outcome = await invites.accept(viewerOf(request).id, request.body.affCode);
      if (outcome === 'unknown') throw new AppError('user-not-found');
      if (outcome === 'self') throw new AppError('cannot-target-self');
      return ok;
    },
  );

  api.get(
    '/papi/users/aff-code/:code',
    {
      schema: {
        tags,
        summary:
          'Who is behind an invite code, for the invitation prompt: username, display name and avatar only; user-not-found for an unknown code or for someone who blocked the viewer',
        params: AffCodeParams,
        response: { 200: BodyEnvelope(AffiliateInfo) },
      },
    },
    async (request) => withBody(await invites.affiliate(request.params.code, request.viewer?.id ?? null)),
  );

}

import { Type } from 'typebox';
import multipart from '@fastify/multipart';
import { BodyEnvelope, OkEnvelope, ErrorEnvelope } from '../../../../lib/contract/envelope';
import { CheckEmailBody, CheckUsernameBody } from '../../../../lib/contract/check';
import { ProfileList, PublicProfile, UserIdParams, UserSourceQuery, WhoToFollowQuery } from '../../../../lib/contract/users';
import { usernameProblem } from '../../../../lib/contract/usernames';
import type { App } from '../../context';
import { failure, ok, withBody } from '../../http/envelope';
import { hit } from '../../http/throttle';
import { normalizeEmail } from '../auth/domain';
import { withUploadedFile } from '../../http/multipart';
import { isValidEmail } from '../settings/domain';
import { whoToFollowDefaults } from './domain';
import { Account, DeleteMeBody, UpdateMeBody, ViewedProfile } from '../../../../lib/contract/account';
import { AppError } from '../../errors';
import { avatarUploadLimits, AvatarUploadError } from '../../media/images';
import { requireVerifiedEmail, sessionFamilyOf, viewerOf, type Viewer } from '../auth/guard';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

/** A site the fan allowed learns what its widgets need of the account, not the e-mail address or the listed sites. */
function accountFor(viewer: Viewer, account: Account): Account {
  return viewer.scope === 'widget' ? { ...account, email: '', embedOrigins: [] } : account;
}

export async function usersFeature(app: App, { ctx, services }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const service = services.users;

  api.get(
    '/papi/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'A profile by username (any case) or numeric id; with a bearer token, with the viewer’s relation',
        params: UserIdParams,
        querystring: UserSourceQuery,
        response: { 200: BodyEnvelope(Type.Union([ViewedProfile, PublicProfile])) },
      },
    },
    // `source` (where the visitor came from) is accepted for the profile-visit statistics.
    async (request) =>
      withBody(request.viewer === null ? await service.profile(request.params.id) : await service.viewedProfile(request.params.id, request.viewer.id)),
  );

  api.get(
    '/api/users/me',
    {
      schema: { tags: ['account'], summary: 'The logged-in user’s own account', response: { 200: BodyEnvelope(Account) } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      return withBody(accountFor(viewer, await service.account(viewer.id)));
    },
  );

  api.put(
    '/api/users/me',
    {
      schema: {
        tags: ['account'],
        summary: 'Edit the profile; -1 with a message key, -2 verify-required for prices of a non-seller',
        body: UpdateMeBody,
        response: { 200: BodyEnvelope(Account) },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      return withBody(accountFor(viewer, await service.updateMe(viewer.id, request.body, sessionFamilyOf(request))));
    },
  );

  api.delete(
    '/api/users/me',
    {
      schema: {
        tags: ['account'],
        summary: 'Delete the account (the reason is required); ends every session',
        body: DeleteMeBody,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      await service.deleteMe(viewerOf(request).id, request.body);
      return ok;
    },
  );

  // Multipart is parsed only here, so no other route accepts uploads by accident.
  void app.register(async (uploads) => {
    await uploads.register(multipart, { limits: { fileSize: avatarUploadLimits.bytes, files: 1, fields: 0, parts: 1 } });
    const { api: scope } = await viewerScope(uploads);
    scope.post(
      '/api/users/me/avatar',
      {
        schema: {
          tags: ['account'],
          summary: 'Upload an avatar (multipart field `file`: JPEG, PNG, WebP or AVIF, ≤ 10 MB, ≤ 40 megapixels, ≥ 120 px a side)',
          consumes: ['multipart/form-data'],
          response: { 200: BodyEnvelope(Account) },
        },
      },
      async (request) => {
        const viewer = requireVerifiedEmail(request);
        const data = await withUploadedFile(request, (file) => file.toBuffer());
        try {
          return withBody(await service.setAvatar(viewer.id, data));
        } catch (error) {
          if (error instanceof AvatarUploadError) throw new AppError(error.problem);
          throw error;
        }
      },
    );
  });

  api.get(
    '/api/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'A profile by username or id, with the viewer’s relation; user-not-found for someone who blocked the viewer',
        params: UserIdParams,
        response: { 200: BodyEnvelope(ViewedProfile) },
      },
    },
    async (request) => {
      // Not a visit: the chat, the follow and call buttons and the tip button read profiles too.
      // The profile screen tells of a visit itself (the socket's profileVisit).
      return withBody(await service.viewedProfile(request.params.id, viewerOf(request).id));
    },
  );

  app.get(
    '/papi/who-to-follow',
    {
      schema: {
        tags: ['users'],
        summary: 'Creators a visitor may follow; the same seed always gives the same order',
        querystring: WhoToFollowQuery,
        response: { 200: BodyEnvelope(ProfileList) },
      },
    },
    async (request) =>
      withBody(
        await service.whoToFollow({
          limit: request.query.limit ?? whoToFollowDefaults.limit,
          offset: request.query.offset ?? 0,
          seed: request.query.seed,
        }),
      ),
  );

  // An availability check is a question, not a failed action: "taken" is a normal answer,
  // so it comes with HTTP 200 and the envelope's -1, and keeps browsers' consoles quiet
  // while a sign-up form checks as the user types.
  const checkResponses = { 200: { anyOf: [OkEnvelope, ErrorEnvelope] } } as const;

  app.post(
    '/papi/check/username',
    {
      schema: {
        tags: ['users'],
        summary: 'Is this username free? 1 yes; -1 invalid-username or username-taken',
        body: CheckUsernameBody,
        response: checkResponses,
      },
    },
    async (request) => {
      const username = request.body.username.trim();
      const problem = usernameProblem(username);
      if (problem !== null) return failure(problem);
      return (await service.isUsernameTaken(username)) ? failure('username-taken') : ok;
    },
  );

  app.post(
    '/papi/check/email',
    {
      schema: {
        tags: ['users'],
        summary: 'Is this e-mail free? 1 yes; -1 invalid-email or email-taken',
        body: CheckEmailBody,
        response: checkResponses,
      },
    },
    async (request) => {
      const email = request.body.email.trim();
      if (!isValidEmail(email)) return failure('invalid-email');
      // Whether an address has an account is worth something to a spammer: a sign-up form's
      // checks fit well within the limits, a walk through a list of addresses does not.
      await hit(ctx, 'check-email-requester', request.ip);
      await hit(ctx, 'check-email-address', normalizeEmail(email));
      return (await service.isEmailTaken(email)) ? failure('email-taken') : ok;
    },
  );

}

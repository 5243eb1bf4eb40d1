import { BodyEnvelope, OkEnvelope, ErrorEnvelope } from '../../../../lib/contract/envelope';
import { CheckEmailBody, CheckUsernameBody } from '../../../../lib/contract/check';
import { ProfileList, PublicProfile, UserIdParams, UserSourceQuery, WhoToFollowQuery } from '../../../../lib/contract/users';
import { usernameProblem } from '../../../../lib/contract/usernames';
import type { App, AppContext } from '../../context';
import { failure, ok, withBody } from '../../http/envelope';
import { isValidEmail } from '../settings/domain';
import { whoToFollowDefaults } from './domain';
import { createUserService } from './service';

export function registerUserRoutes(app: App, ctx: AppContext): void {
  const service = createUserService(ctx);

  app.get(
    '/papi/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'A public profile by username (any case) or numeric id',
        params: UserIdParams,
        querystring: UserSourceQuery,
        response: { 200: BodyEnvelope(PublicProfile) },
      },
    },
    // `source` (where the visitor came from) is accepted for the profile-visit statistics.
    async (request) => withBody(await service.profile(request.params.id)),
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
      return (await service.isEmailTaken(email)) ? failure('email-taken') : ok;
    },
  );
}

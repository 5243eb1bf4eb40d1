import { Type } from 'typebox';
import { RelationsQuery, UserRefBody, ViewedProfile } from '../../../../lib/contract/account';
import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import { ProfileList } from '../../../../lib/contract/users';
import type { App } from '../../context';
import { errors } from '../../errors';
import { ok, withBody } from '../../http/envelope';
import { requireVerifiedEmail, viewerOf } from '../auth/guard';
import { createSearchService } from '../search/service';
import { createSocialService } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

/**
 * GET /api/users (SPEC §7 `GET /api/users?listType=2`, `GET /users/?name`): the signed-in user's
 * user list. `listType` is a relation type of SPEC §5 (1 whom I follow, 2 my followers, -1 whom
 * I blocked); SPEC §4 and §6 give the viewer followers and subscribers, and 2 is the followers
 * (docs/api.md). `name` alone searches people by name; with `listType` it narrows that list.
 */
const UserListQuery = Type.Object({
  listType: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(-1)])),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
});

export async function socialFeature(app: App, { ctx, services }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const users = services.users;
  const service = createSocialService(ctx, users);
  const search = createSearchService(ctx);
  const action = (summary: string) => ({
    schema: { tags: ['social'], summary, body: UserRefBody, response: { 200: OkEnvelope } },
  });

  api.post('/api/users/follow', action('Follow a user (verified e-mail needed); following twice is one follow'), async (request) => {
    const viewer = requireVerifiedEmail(request);
    await service.follow(viewer.id, request.body.id);
    return ok;
  });

  api.delete('/api/users/follow', action('Stop following a user'), async (request) => {
    await service.unfollow(viewerOf(request).id, request.body.id);
    return ok;
  });

  api.post('/api/users/block', action('Block a user: both stop following each other and vanish from each other'), async (request) => {
    await service.block(viewerOf(request).id, request.body.id);
    return ok;
  });

  api.delete('/api/users/block', action('Unblock a user'), async (request) => {
    await service.unblock(viewerOf(request).id, request.body.id);
    return ok;
  });

  api.post('/api/users/hide', action('Hide a user from the viewer’s suggestions and timelines'), async (request) => {
    await service.hide(viewerOf(request).id, request.body.id);
    return ok;
  });

  api.get(
    '/api/users/relations',
    {
      schema: {
        tags: ['social'],
        summary: 'People I (or `userId`) follow (1), followers (2), or people I blocked (-1), 30 a page, filtered by `q`',
        querystring: RelationsQuery,
        response: { 200: BodyEnvelope(Type.Array(ViewedProfile)) },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const { query } = request;
      const rows = await service.relations({
        ownerId: query.userId ?? viewer.id,
        kind: query.relationType,
        offset: query.offset ?? 0,
        q: query.q,
        viewerId: viewer.id,
      });
      return withBody(await service.viewedProfiles(rows, viewer.id));
    },
  );

  api.get(
    '/api/users',
    {
      schema: {
        tags: ['social'],
        summary:
          'The viewer’s user list, 30 a page: `listType` 2 my followers, 1 whom I follow, -1 whom I blocked, narrowed by `name`; or `name` alone: people by name. -1 invalid-request with neither',
        querystring: UserListQuery,
        response: { 200: BodyEnvelope(Type.Array(ViewedProfile)) },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const { listType, name, offset = 0 } = request.query;
      if (listType !== undefined) {
        // Always the viewer's own list: there is no user parameter to ask for someone else's.
        const rows = await service.relations({ ownerId: viewer.id, kind: listType, offset, q: name, viewerId: viewer.id });
        return withBody(await service.viewedProfiles(rows, viewer.id));
      }
      if (name === undefined) throw errors.invalidRequest({ location: 'querystring', field: 'listType', reason: 'listType or name is required' });
      return withBody(await service.viewedProfiles(await search.userRows(name, viewer.id, 30, offset), viewer.id));
    },
  );

  api.get(
    '/papi/users/relations',
    {
      schema: {
        tags: ['social'],
        summary: 'Whom `userId` follows (1) or who follows them (2), 30 a page, filtered by `q`',
        querystring: RelationsQuery,
        response: { 200: BodyEnvelope(ProfileList) },
      },
    },
    async (request) => {
      const { query } = request;
      if (query.userId === undefined) throw errors.invalidRequest({ location: 'querystring', field: 'userId', reason: 'required' });
      const rows = await service.relations({
        ownerId: query.userId,
        kind: query.relationType,
        offset: query.offset ?? 0,
        q: query.q,
        // The blocked list is never public, even for its owner with a token on /papi.
        viewerId: query.relationType === -1 ? null : (request.viewer?.id ?? null),
      });
      return withBody(service.publicProfiles(rows));
    },
  );
}

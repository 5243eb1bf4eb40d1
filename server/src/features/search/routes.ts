import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { PageQuery, PostList } from '../../../../lib/contract/posts';
import { SearchFilter, SearchQuery, SearchTips, TagResult } from '../../../../lib/contract/search';
import { ProfileList } from '../../../../lib/contract/users';
import type { App } from '../../context';
import { AppError, errors } from '../../errors';
import { withBody } from '../../http/envelope';
import { pageOf } from '../timeline/domain';
import { visitorPagesOf } from '../timeline/visitor-pages';
import { searchSizes } from './domain';
import { createSearchService } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

const ActiveUsersQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
});
const QueryOnly = Type.Object({ q: Type.String({ maxLength: 100 }) });

/**
 * POST /papi/search/users: SPEC §7's "query with variables, count or search" — `search` is what
 * to look for and `count` how many people to answer (30 by default, 50 at most), with `offset`
 * for the next page. The variables may come bare or inside `variables` (the GraphQL-style body
 * some clients send); the answer is the one of GET /papi/search/users?q.
 */
const SearchVariables = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 100 })),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
});
const SearchUsersBody = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 100 })),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  variables: Type.Optional(SearchVariables),
});

const people = { 200: BodyEnvelope(ProfileList) };
const postList = { 200: BodyEnvelope(PostList) };

export async function searchFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const service = createSearchService(ctx);
  const visitorPages = visitorPagesOf(app, ctx);
  const viewerOf = (request: { viewer: { id: number } | null }) => request.viewer?.id ?? null;

  api.get(
    '/papi/discover/search',
    {
      schema: {
        tags: ['discover'],
        summary: 'Creators by the search filter and discover tab, the most followed first, 30 a page',
        querystring: SearchFilter,
        response: people,
      },
    },
    async (request) => {
      // SPEC §3, §5: gender 0 (everyone) is for logged-in people only, as on the timeline.
      if (request.query.gender === 0 && request.viewer === null) throw errors.invalidRequest({ location: 'querystring', field: 'gender', reason: 'gender 0 needs a login' });
      return withBody(await service.discover(request.query, viewerOf(request)));
    },
  );

  api.get(
    '/papi/discover/new-posts',
    {
      schema: { tags: ['discover'], summary: 'The newest posts with media, 30 a page by offset or ts', querystring: PageQuery, response: postList },
    },
    async (request) => withBody(await service.newPosts(viewerOf(request), pageOf(request.query, searchSizes.newPosts))),
  );

  api.get(
    '/papi/discover/active-users',
    {
      schema: { tags: ['discover'], summary: 'Creators by when they were last seen, 30 a page', querystring: ActiveUsersQuery, response: people },
    },
    async (request) => withBody(await service.activeUsers(viewerOf(request), request.query.limit ?? searchSizes.activeUsers, request.query.offset ?? 0)),
  );

  api.get(
    '/papi/search/users',
    {
      schema: {
        tags: ['search'],
        summary: 'People whose username or display name has words starting with the words of q, 30 a page',
        querystring: SearchQuery,
        response: people,
      },
    },
    async (request) =>
      withBody(await service.users(request.query.q, viewerOf(request), request.query.limit ?? searchSizes.users, request.query.offset ?? 0)),
  );

  api.post(
    '/papi/search/users',
    {
      schema: {
        tags: ['search'],
        summary:
          'People search with a body of variables: `search` (the words, as q of GET /papi/search/users) and `count` (how many, 30 by default, 50 at most), bare or inside `variables`; -1 invalid-request without `search`',
        body: SearchUsersBody,
        response: people,
      },
    },
    async (request) => {
      const variables = { ...request.body, ...request.body.variables };
      if (variables.search === undefined) throw new AppError('invalid-request', { body: { location: 'body', field: 'search', reason: 'required' } });
      return withBody(await service.users(variables.search, viewerOf(request), variables.count ?? searchSizes.users, variables.offset ?? 0));
    },
  );

  api.get(
    '/papi/search/tips',
    {
      schema: { tags: ['search'], summary: 'Quick-search suggestions: at most 8 people and tags in all', querystring: QueryOnly, response: { 200: BodyEnvelope(SearchTips) } },
    },
    async (request) => withBody(await service.tips(request.query.q, viewerOf(request))),
  );

  app.get(
    '/papi/search/tags',
    {
      schema: {
        tags: ['search'],
        summary: 'Hashtags starting with q, with their post counts, the most used first',
        querystring: SearchQuery,
        response: { 200: BodyEnvelope(Type.Array(TagResult)) },
      },
    },
    async (request) => withBody(await service.tags(request.query.q, request.query.limit ?? searchSizes.tags)),
  );

  api.get(
    '/papi/search/posts',
    {
      schema: {
        tags: ['search'],
        summary: 'Posts whose text matches q (web-search syntax), newest first, 15 a page by ts or offset',
        querystring: SearchQuery,
        response: postList,
      },
    },
    async (request, reply) => {
      const viewerId = viewerOf(request);
      const page = pageOf(request.query, searchSizes.posts);
      if (viewerId === null) {
        // A visitor's search is the same for every visitor: see VisitorPages.
        const key = `search:${page.limit}:${page.offset}:${page.before?.getTime() ?? ''}:${request.query.q}`;
        return (await visitorPages.get(key, () => service.posts(request.query.q, null, page))).send(request, reply as FastifyReply);
      }
      return withBody(await service.posts(request.query.q, viewerId, page));
    },
  );

}

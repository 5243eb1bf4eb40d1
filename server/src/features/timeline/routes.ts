import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { BodyEnvelope } from '../../../../lib/contract/envelope';
import { Int } from '../../../../lib/contract/bounds';
import { HashtagParams, PageQuery, PostList, TimelineQuery, UserPostsQuery } from '../../../../lib/contract/posts';
import { ProfileList, UserIdParams } from '../../../../lib/contract/users';
import type { App } from '../../context';
import { errors } from '../../errors';
import { withBody } from '../../http/envelope';
import { viewerOf } from '../auth/guard';
import { pageOf, pageSizes, resolveGenderFilter } from './domain';
import { createTimelineService } from './service';
import { visitorPagesOf } from './visitor-pages';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

const TourQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })) });
const OnlineUsersQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  seed: Type.Optional(Int({ minimum: 0 })),
});

const posts = BodyEnvelope(PostList);
const tags = ['feeds'];

export async function timelineFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const service = createTimelineService(ctx);
  const visitorPages = visitorPagesOf(app, ctx);

  api.get(
    '/papi/2/timeline',
    {
      schema: {
        tags,
        summary: 'The public timeline, 15 a page by offset or ts; gender 0 everyone (logged-in only), 1 women (default), 2 men, 3 couples, 4 trans',
        querystring: TimelineQuery,
        response: { 200: posts },
      },
    },
    async (request, reply) => {
      const viewerId = request.viewer?.id ?? null;
      const filter = resolveGenderFilter(request.query.gender, viewerId !== null);
      if (filter === null) throw errors.invalidRequest({ location: 'querystring', field: 'gender', reason: 'gender 0 needs a login' });
      const page = pageOf(request.query, pageSizes.timeline);
      if (viewerId === null) {
        // Nothing in a visitor's page is per viewer: one answer serves them all for a moment,
        // already the envelope's JSON, compressed once per encoding asked for.
        const key = `timeline:${filter}:${page.limit}:${page.offset}:${page.before?.getTime() ?? ''}`;
        return (await visitorPages.get(key, () => service.publicTimeline(null, filter, page))).send(request, reply as FastifyReply);
      }
      return withBody(await service.publicTimeline(viewerId, filter, page));
    },
  );

  api.get(
    '/api/2/timeline',
    {
      schema: {
        tags,
        summary: 'The private timeline: own posts and those of followed people, 15 a page by offset or ts',
        querystring: PageQuery,
        response: { 200: posts },
      },
    },
    async (request, reply) => {
      const viewerId = viewerOf(request).id;
      const page = pageOf(request.query, pageSizes.timeline);
      // Hers alone, held a moment: see VisitorPages.getForViewer.
      const key = `private:${page.limit}:${page.offset}:${page.before?.getTime() ?? ''}`;
      return (await visitorPages.getForViewer(viewerId, key, () => service.privateTimeline(viewerId, page))).send(request, reply as FastifyReply);
    },
  );

  api.get(
    '/papi/2/posts',
    {
      schema: {
        tags,
        summary: 'A profile’s published posts (username or id), 15 a page; scheduled ones come from /api/scheduled-posts',
        querystring: UserPostsQuery,
        response: { 200: posts },
      },
    },
    async (request) =>
      withBody(await service.profilePosts(request.query.username, request.viewer?.id ?? null, pageOf(request.query, pageSizes.profilePosts), false)),
  );

  for (const prefix of ['/papi', '/api'] as const) {
    api.get(
      `${prefix}/posts/media/timeline/:id`,
      {
        schema: {
          tags,
          summary: 'A profile’s posts with media (the profile grid), 30 a page by ts or offset',
          params: UserIdParams,
          querystring: PageQuery,
          response: { 200: posts },
        },
      },
      async (request) => withBody(await service.profilePosts(request.params.id, request.viewer?.id ?? null, pageOf(request.query, pageSizes.feed), true)),
    );
  }

  api.get(
    '/api/unlocked-posts',
    {
      schema: { tags, summary: 'Posts with media the viewer unlocked, newest first, 30 a page', querystring: PageQuery, response: { 200: posts } },
    },
    async (request) => withBody(await service.unlockedPosts(viewerOf(request).id, pageOf(request.query, pageSizes.feed))),
  );

  api.get(
    '/api/scheduled-posts',
    {
      schema: {
        tags,
        summary: 'The viewer’s scheduled posts, the next to go live first, 30 a page; ts pages to later ones',
        querystring: PageQuery,
        response: { 200: posts },
      },
    },
    async (request) => withBody(await service.scheduledPosts(viewerOf(request).id, pageOf(request.query, pageSizes.feed))),
  );

  api.get(
    '/papi/posts/hashtag/:tag',
    {
      schema: {
        tags,
        summary: 'Posts with a hashtag (without #, any case), newest first, 30 a page by ts or offset',
        params: HashtagParams,
        querystring: PageQuery,
        response: { 200: posts },
      },
    },
    async (request) => withBody(await service.hashtagPosts(request.params.tag, request.viewer?.id ?? null, pageOf(request.query, pageSizes.feed))),
  );

  api.get(
    '/papi/posts/media/tour',
    {
      schema: { tags, summary: 'A random set of recent posts with media (7 by default), held 30 s', querystring: TourQuery, response: { 200: posts } },
    },
    async (request) => withBody(await service.tour(request.viewer?.id ?? null, request.query.limit ?? pageSizes.tour)),
  );

  api.get(
    '/papi/online-users',
    {
      schema: {
        tags,
        summary: 'Creators online now, 20 a page; a seed gives a stable shuffle',
        querystring: OnlineUsersQuery,
        response: { 200: BodyEnvelope(ProfileList) },
      },
    },
    async (request) =>
      withBody(
        await service.onlineUsers(request.viewer?.id ?? null, {
          limit: request.query.limit ?? pageSizes.onlineUsers,
          offset: request.query.offset ?? 0,
          seed: request.query.seed,
        }),
      ),
  );

}

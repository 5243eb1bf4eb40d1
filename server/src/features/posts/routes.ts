import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import {
  Comment,
  CommentIdParams,
  CommentList,
  CommentRepliesParams,
  CreateCommentBody,
  CreatedPost,
  CreatePostBody,
  LikeState,
  PageQuery,
  Post,
  PostIdParams,
  PostStatsBody,
  ReportCommentBody,
  UpdatePostBody,
} from '../../../../lib/contract/posts';
import { ProfileList } from '../../../../lib/contract/users';
import type { App } from '../../context';
import { ok, withBody } from '../../http/envelope';
import { requireVerifiedEmail, viewerOf } from '../auth/guard';
import { visiblePost } from './access';
import { createCommentService } from './comments';
import { pageSizes } from './domain';
import { createPostService } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';
import { postSocketFeature } from './socket';

/** Posts, likes, comments and post statistics (SPEC §7 Posts). */
export async function postsFeature(app: App, { ctx, realtime }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  // Its websocket messages (docs/realtime.md).
  realtime.register(postSocketFeature(ctx));
  const posts = createPostService(ctx);
  const comments = createCommentService(ctx);
  const tags = ['posts'];

  api.post(
    '/api/posts',
    {
      schema: {
        tags,
        summary:
          'Create a post from text and ready media of one’s own; a future `startDate` schedules it; `price` (a post-media step) goes to every media, and from a non-seller is dropped with `notASeller`',
        body: CreatePostBody,
        response: { 200: BodyEnvelope(CreatedPost) },
      },
    },
    async (request) => withBody(await posts.create(requireVerifiedEmail(request).id, request.body)),
  );

  const getPost = async (viewerId: number | null, id: number) => {
    await visiblePost(ctx.db, id, viewerId);
    return withBody(await posts.one(id, viewerId));
  };
  const getPostSchema = { tags, summary: 'A post; scheduled posts exist for their owner only', params: PostIdParams, response: { 200: BodyEnvelope(Post) } };
  api.get('/papi/posts/:id', { schema: getPostSchema }, async (request) => getPost(request.viewer?.id ?? null, request.params.id));
  api.get('/api/posts/:id', { schema: getPostSchema }, async (request) => getPost(viewerOf(request).id, request.params.id));

  api.put(
    '/api/posts/:id',
    {
      schema: { tags, summary: 'Change a post’s text (its owner only); hashtags are read again', params: PostIdParams, body: UpdatePostBody, response: { 200: BodyEnvelope(Post) } },
    },
    async (request) => withBody(await posts.update(viewerOf(request).id, request.params.id, request.body.text)),
  );

  api.delete(
    '/api/posts/:id',
    { schema: { tags, summary: 'Delete a post (its owner only)', params: PostIdParams, response: { 200: OkEnvelope } } },
    async (request) => {
      await posts.remove(viewerOf(request).id, request.params.id);
      return ok;
    },
  );

  api.post(
    '/api/posts/:id/likes',
    {
      schema: { tags, summary: 'Like a post (verified e-mail); liking twice is one like', params: PostIdParams, response: { 200: BodyEnvelope(LikeState) } },
    },
    async (request) => withBody(await posts.setLike(requireVerifiedEmail(request).id, request.params.id, true)),
  );

  api.delete(
    '/api/posts/:id/likes',
    { schema: { tags, summary: 'Take a like back', params: PostIdParams, response: { 200: BodyEnvelope(LikeState) } } },
    async (request) => withBody(await posts.setLike(viewerOf(request).id, request.params.id, false)),
  );

  api.get(
    '/api/posts/:id/likes',
    {
      schema: { tags, summary: 'Who liked the post, newest first, 15 a page (the post’s owner only)', params: PostIdParams, querystring: PageQuery, response: { 200: BodyEnvelope(ProfileList) } },
    },
    async (request) =>
      withBody(await posts.likers(viewerOf(request).id, request.params.id, request.query.limit ?? pageSizes.likes, request.query.offset ?? 0)),
  );

  const listSchema = {
    tags,
    summary: 'Top-level comments, newest first, 30 a page (`ts`: older than), each with its first three replies',
    params: PostIdParams,
    querystring: PageQuery,
    response: { 200: BodyEnvelope(CommentList) },
  };
  api.get('/papi/posts/:id/comments', { schema: listSchema }, async (request) =>
    withBody(await comments.list(request.viewer?.id ?? null, request.params.id, request.query.limit ?? pageSizes.comments, request.query.ts)),
  );
  api.get('/api/posts/:id/comments', { schema: listSchema }, async (request) =>
    withBody(await comments.list(viewerOf(request).id, request.params.id, request.query.limit ?? pageSizes.comments, request.query.ts)),
  );

  const repliesSchema = {
    tags,
    summary: 'Replies of a comment, oldest first, 30 a page (`ts`: newer than)',
    params: CommentRepliesParams,
    querystring: PageQuery,
    response: { 200: BodyEnvelope(CommentList) },
  };
  api.get('/papi/posts/comments/:commentId', { schema: repliesSchema }, async (request) =>
    withBody(await comments.replies(request.viewer?.id ?? null, request.params.commentId, request.query.limit ?? pageSizes.replies, request.query.ts)),
  );
  api.get('/api/posts/comments/:commentId', { schema: repliesSchema }, async (request) =>
    withBody(await comments.replies(viewerOf(request).id, request.params.commentId, request.query.limit ?? pageSizes.replies, request.query.ts)),
  );

  api.post(
    '/api/posts/comments',
    {
      schema: {
        tags,
        summary: 'Comment on a post, or reply with `parentId` (a reply to a reply joins its thread); verified e-mail',
        body: CreateCommentBody,
        response: { 200: BodyEnvelope(Comment) },
      },
    },
    async (request) => withBody(await comments.create(requireVerifiedEmail(request).id, request.body)),
  );

  api.delete(
    '/api/posts/comments/:id',
    {
      schema: { tags, summary: 'Delete a comment (its author or the post’s owner) with its replies', params: CommentIdParams, response: { 200: OkEnvelope } },
    },
    async (request) => {
      await comments.remove(viewerOf(request).id, request.params.id);
      return ok;
    },
  );

  api.post(
    '/api/posts/comments/:id/like',
    { schema: { tags, summary: 'Like a comment (verified e-mail)', params: CommentIdParams, response: { 200: OkEnvelope } } },
    async (request) => {
      await comments.setLike(requireVerifiedEmail(request).id, request.params.id, true);
      return ok;
    },
  );

  api.delete(
    '/api/posts/comments/:id/like',
    { schema: { tags, summary: 'Take a comment like back', params: CommentIdParams, response: { 200: OkEnvelope } } },
    async (request) => {
      await comments.setLike(viewerOf(request).id, request.params.id, false);
      return ok;
    },
  );

  api.post(
    '/api/posts/comments/:id/report',
    {
      schema: {
        tags,
        summary: 'Report someone else’s comment for moderation',
        params: CommentIdParams,
        body: ReportCommentBody,
        response: { 200: OkEnvelope },
      },
      // The reason is optional, and so is a body holding nothing but it.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      await comments.report(viewerOf(request).id, request.params.id, request.body.reason);
      return ok;
    },
  );

  api.post(
    '/papi/posts/:id/visit',
    { schema: { tags, summary: 'Count a visit of a post’s own page', params: PostIdParams, response: { 200: OkEnvelope } } },
    async (request) => {
      await posts.visit(request.viewer?.id ?? null, request.params.id);
      return ok;
    },
  );

  api.post(
    '/papi/ga/',
    {
      schema: { tags, summary: 'Report what a viewer saw of a post in a list (duration, visible ratio, full screen, call to action)', body: PostStatsBody, response: { 200: OkEnvelope } },
    },
    async (request) => {
      await posts.seen(request.viewer?.id ?? null, request.body);
      return ok;
    },
  );
}

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
import type { App, AppContext } from '../../context';
import { ok, withBody } from '../../http/envelope';
import { authenticate, optionalViewer, requireVerifiedEmail, viewerOf } from '../auth/guard';
import { visiblePost } from './access';
import { createCommentService } from './comments';
import { pageSizes } from './domain';
import { createPostService } from './service';

/** Posts, likes, comments and post statistics (SPEC §7 Posts). */
export function registerPostRoutes(app: App, ctx: AppContext): void {
  const posts = createPostService(ctx);
  const comments = createCommentService(ctx);
  const tags = ['posts'];

  app.post(
    '/api/posts',
    {
      schema: {
        tags,
        summary:
          'Create a post from text and ready media of one’s own; a future `startDate` schedules it; `price` (a post-media step) goes to every media, and from a non-seller is dropped with `notASeller`',
        body: CreatePostBody,
        response: { 200: BodyEnvelope(CreatedPost) },
      },
      preHandler: authenticate,
    },
    async (request) => withBody(await posts.create(requireVerifiedEmail(request).id, request.body)),
  );

  const getPost = async (viewerId: number | null, id: number) => {
    await visiblePost(ctx.db, id, viewerId);
    return withBody(await posts.one(id, viewerId));
  };
  const getPostSchema = { tags, summary: 'A post; scheduled posts exist for their owner only', params: PostIdParams, response: { 200: BodyEnvelope(Post) } };
  app.get('/papi/posts/:id', { schema: getPostSchema, preHandler: optionalViewer }, async (request) => getPost(request.viewer?.id ?? null, request.params.id));
  app.get('/api/posts/:id', { schema: getPostSchema, preHandler: authenticate }, async (request) => getPost(viewerOf(request).id, request.params.id));

  app.put(
    '/api/posts/:id',
    {
      schema: { tags, summary: 'Change a post’s text (its owner only); hashtags are read again', params: PostIdParams, body: UpdatePostBody, response: { 200: BodyEnvelope(Post) } },
      preHandler: authenticate,
    },
    async (request) => withBody(await posts.update(viewerOf(request).id, request.params.id, request.body.text)),
  );

  app.delete(
    '/api/posts/:id',
    { schema: { tags, summary: 'Delete a post (its owner only)', params: PostIdParams, response: { 200: OkEnvelope } }, preHandler: authenticate },
    async (request) => {
      await posts.remove(viewerOf(request).id, request.params.id);
      return ok;
    },
  );

  app.post(
    '/api/posts/:id/likes',
    {
      schema: { tags, summary: 'Like a post (verified e-mail); liking twice is one like', params: PostIdParams, response: { 200: BodyEnvelope(LikeState) } },
      preHandler: authenticate,
    },
    async (request) => withBody(await posts.setLike(requireVerifiedEmail(request).id, request.params.id, true)),
  );

  app.delete(
    '/api/posts/:id/likes',
    { schema: { tags, summary: 'Take a like back', params: PostIdParams, response: { 200: BodyEnvelope(LikeState) } }, preHandler: authenticate },
    async (request) => withBody(await posts.setLike(viewerOf(request).id, request.params.id, false)),
  );

  app.get(
    '/api/posts/:id/likes',
    {
      schema: { tags, summary: 'Who liked the post, newest first, 15 a page (the post’s owner only)', params: PostIdParams, querystring: PageQuery, response: { 200: BodyEnvelope(ProfileList) } },
      preHandler: authenticate,
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
  app.get('/papi/posts/:id/comments', { schema: listSchema, preHandler: optionalViewer }, async (request) =>
    withBody(await comments.list(request.viewer?.id ?? null, request.params.id, request.query.limit ?? pageSizes.comments, request.query.ts)),
  );
  app.get('/api/posts/:id/comments', { schema: listSchema, preHandler: authenticate }, async (request) =>
    withBody(await comments.list(viewerOf(request).id, request.params.id, request.query.limit ?? pageSizes.comments, request.query.ts)),
  );

  const repliesSchema = {
    tags,
    summary: 'Replies of a comment, oldest first, 30 a page (`ts`: newer than)',
    params: CommentRepliesParams,
    querystring: PageQuery,
    response: { 200: BodyEnvelope(CommentList) },
  };
  app.get('/papi/posts/comments/:commentId', { schema: repliesSchema, preHandler: optionalViewer }, async (request) =>
    withBody(await comments.replies(request.viewer?.id ?? null, request.params.commentId, request.query.limit ?? pageSizes.replies, request.query.ts)),
  );
  app.get('/api/posts/comments/:commentId', { schema: repliesSchema, preHandler: authenticate }, async (request) =>
    withBody(await comments.replies(viewerOf(request).id, request.params.commentId, request.query.limit ?? pageSizes.replies, request.query.ts)),
  );

  app.post(
    '/api/posts/comments',
    {
      schema: {
        tags,
        summary: 'Comment on a post, or reply with `parentId` (a reply to a reply joins its thread); verified e-mail',
        body: CreateCommentBody,
        response: { 200: BodyEnvelope(Comment) },
      },
      preHandler: authenticate,
    },
    async (request) => withBody(await comments.create(requireVerifiedEmail(request).id, request.body)),
  );

  app.delete(
    '/api/posts/comments/:id',
    {
      schema: { tags, summary: 'Delete a comment (its author or the post’s owner) with its replies', params: CommentIdParams, response: { 200: OkEnvelope } },
      preHandler: authenticate,
    },
    async (request) => {
      await comments.remove(viewerOf(request).id, request.params.id);
      return ok;
    },
  );

  app.post(
    '/api/posts/comments/:id/like',
    { schema: { tags, summary: 'Like a comment (verified e-mail)', params: CommentIdParams, response: { 200: OkEnvelope } }, preHandler: authenticate },
    async (request) => {
      await comments.setLike(requireVerifiedEmail(request).id, request.params.id, true);
      return ok;
    },
  );

  app.delete(
    '/api/posts/comments/:id/like',
    { schema: { tags, summary: 'Take a comment like back', params: CommentIdParams, response: { 200: OkEnvelope } }, preHandler: authenticate },
    async (request) => {
      await comments.setLike(viewerOf(request).id, request.params.id, false);
      return ok;
    },
  );

  app.post(
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
      preHandler: authenticate,
    },
    async (request) => {
      await comments.report(viewerOf(request).id, request.params.id, request.body.reason);
      return ok;
    },
  );

  app.post(
    '/papi/posts/:id/visit',
    { schema: { tags, summary: 'Count a visit of a post’s own page', params: PostIdParams, response: { 200: OkEnvelope } }, preHandler: optionalViewer },
    async (request) => {
      await posts.visit(request.viewer?.id ?? null, request.params.id);
      return ok;
    },
  );

  app.post(
    '/papi/ga/',
    {
      schema: { tags, summary: 'Report what a viewer saw of a post in a list (duration, visible ratio, full screen, call to action)', body: PostStatsBody, response: { 200: OkEnvelope } },
      preHandler: optionalViewer,
    },
    async (request) => {
      await posts.seen(request.viewer?.id ?? null, request.body);
      return ok;
    },
  );
}

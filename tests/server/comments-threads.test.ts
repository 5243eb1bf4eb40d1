import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { and, eq } from '../support/db';
import { commentReports, comments, posts } from '../../server/src/db/schema';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const call = apiCaller(() => app);

async function newPost(author: TestAccount, extra: Record<string, unknown> = {}): Promise<number> {
  const { json } = await call('POST', '/api/posts', author, { text: 'a post to talk about', ...extra });
  return json.body.id;
}

async function comment(author: TestAccount, postId: number, text: string, parentId?: number) {
  const { json } = await call('POST', '/api/posts/comments', author, { postId, text, ...(parentId === undefined ? {} : { parentId }) });
  expect(json.statusCode, JSON.stringify(json)).toBe(2);
  return json.body as { id: number; parentId: number | null; ts: number };
}

async function counts(postId: number) {
  const [row] = await app.fanstage.db.select({ all: posts.commentsCount, top: posts.rootCommentsCount }).from(posts).where(eq(posts.id, postId));
  return row!;
}

async function children(commentId: number): Promise<number> {
  const [row] = await app.fanstage.db.select({ n: comments.childrenCount }).from(comments).where(eq(comments.id, commentId));
  return row!.n;
}

/** Comments a millisecond apart at least, so their order is their time. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

describe('commenting', () => {
  it('adds comments and replies, attaching a reply to a reply to its top-level comment, with the counts agreeing', async () => {
    const creator = await createAccount(app, { seller: true });
    const [a, b] = [await createAccount(app), await createAccount(app)];
    const postId = await newPost(creator);
    const top = await comment(a, postId, '  Lovely!  ');
    const reply = await comment(creator, postId, 'Thanks', top.id);
    const replyToReply = await comment(b, postId, 'Agreed', reply.id);
    expect([top.parentId, reply.parentId, replyToReply.parentId]).toEqual([null, top.id, top.id]);
    expect(await counts(postId)).toEqual({ all: 3, top: 1 });
    expect(await children(top.id)).toBe(2);
    const post = (await call('GET', `/papi/posts/${postId}`)).json.body;
    expect([post.totalCommentsCount, post.commentsCount]).toEqual([3, 1]);

    const list = (await call('GET', `/api/posts/${postId}/comments`, a)).json.body;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: top.id, text: 'Lovely!', childrenCount: 2, likesCount: 0, isLiked: false, canDelete: true, user: { id: a.id } });
    expect(list[0].replies.map((r: { id: number }) => r.id)).toEqual([reply.id, replyToReply.id]);
    expect(list[0].replies[0]).toMatchObject({ canDelete: false, parentId: top.id, replies: [] });
  });

  it('refuses empty text, unknown parents, parents of another post, scheduled posts and unverified e-mails', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const postId = await newPost(creator);
    const otherPost = await newPost(creator);
    const top = await comment(fan, otherPost, 'elsewhere');
    expect((await call('POST', '/api/posts/comments', fan, { postId, text: '   ' })).json.statusText).toBe('invalid-request');
    expect((await call('POST', '/api/posts/comments', fan, { postId, text: 'x', parentId: 2_000_000 })).json.statusText).toBe('comment-not-found');
    expect((await call('POST', '/api/posts/comments', fan, { postId, text: 'x', parentId: top.id })).json.statusText).toBe('comment-not-found');
    const scheduled = await newPost(creator, { startDate: Date.now() + 3_600_000 });
    expect((await call('POST', '/api/posts/comments', creator, { postId: scheduled, text: 'x' })).json.statusText).toBe('post-scheduled');
    expect((await call('POST', '/api/posts/comments', fan, { postId: scheduled, text: 'x' })).json.statusText).toBe('post-doesnt-exists');
    expect((await call('GET', `/papi/posts/${scheduled}/comments`)).json.statusText).toBe('post-doesnt-exists');
    const unverified = await createAccount(app, { verified: false });
    expect((await call('POST', '/api/posts/comments', unverified, { postId, text: 'x' })).json.statusText).toBe('email-not-verified');
    expect(await counts(postId)).toEqual({ all: 0, top: 0 });
  });

  it('pages top-level comments newest first by ts, with at most three replies each', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const postId = await newPost(creator);
    const tops: { id: number; ts: number }[] = [];
    for (let i = 0; i < 33; i++) {
      tops.push(await comment(fan, postId, `comment ${i}`));
      await tick();
    }
    const replies: number[] = [];
    for (let i = 0; i < 5; i++) {
      replies.push((await comment(creator, postId, `reply ${i}`, tops[32]!.id)).id);
      await tick();
    }
    const first = (await call('GET', `/papi/posts/${postId}/comments`)).json.body;
    expect(first).toHaveLength(30);
    expect(first[0]).toMatchObject({ id: tops[32]!.id, childrenCount: 5, canDelete: false });
    expect(first[0].replies.map((r: { id: number }) => r.id)).toEqual(replies.slice(0, 3));
    const last = first[29];
    const second = (await call('GET', `/papi/posts/${postId}/comments?ts=${last.ts}`)).json.body;
    expect(second.map((c: { id: number }) => c.id)).toEqual([tops[2]!.id, tops[1]!.id, tops[0]!.id]);

    const thread = (await call('GET', `/papi/posts/comments/${tops[32]!.id}`)).json.body;
    expect(thread.map((c: { id: number }) => c.id)).toEqual(replies);
    const newer = (await call('GET', `/api/posts/comments/${tops[32]!.id}?ts=${thread[2].ts}`, fan)).json.body;
    expect(newer.map((c: { id: number }) => c.id)).toEqual(replies.slice(3));
    // A reply's id opens its whole thread.
    expect((await call('GET', `/papi/posts/comments/${replies[4]}?limit=2`)).json.body.map((c: { id: number }) => c.id)).toEqual(replies.slice(0, 2));
    expect((await call('GET', '/papi/posts/comments/2000000')).json.statusText).toBe('comment-not-found');
  });

  it('hides the comments of people in a block with the viewer', async () => {
    const creator = await createAccount(app, { seller: true });
    const [fan, troll] = [await createAccount(app), await createAccount(app)];
    const postId = await newPost(creator);
    await comment(troll, postId, 'rude');
    await comment(fan, postId, 'kind');
    await call('POST', '/api/users/block', fan, { id: troll.id });
    expect((await call('GET', `/api/posts/${postId}/comments`, fan)).json.body.map((c: { text: string }) => c.text)).toEqual(['kind']);
    expect((await call('GET', `/papi/posts/${postId}/comments`)).json.body).toHaveLength(2);
  });
});

describe('deleting comments', () => {
  it('is allowed to the author and to the post’s owner, forbidden to others, and fixes every count', async () => {
    const creator = await createAccount(app, { seller: true });
    const [a, b] = [await createAccount(app), await createAccount(app)];
    const postId = await newPost(creator);
    const top = await comment(a, postId, 'top');
    const r1 = await comment(b, postId, 'reply one', top.id);
    const r2 = await comment(creator, postId, 'reply two', top.id);
    const other = await comment(b, postId, 'another top');
    expect(await counts(postId)).toEqual({ all: 4, top: 2 });

    const forbidden = await call('DELETE', `/api/posts/comments/${r2.id}`, a);
    expect([forbidden.status, forbidden.json.statusText]).toEqual([403, 'forbidden']);
    expect((await call('DELETE', `/api/posts/comments/${r1.id}`, b)).json).toEqual({ statusCode: 1 });
    expect(await children(top.id)).toBe(1);
    expect(await counts(postId)).toEqual({ all: 3, top: 2 });
    expect((await call('DELETE', `/api/posts/comments/${r1.id}`, b)).json.statusText).toBe('comment-not-found');

    // The owner removes a whole thread: the comment and its remaining reply.
    expect((await call('DELETE', `/api/posts/comments/${top.id}`, creator)).json).toEqual({ statusCode: 1 });
    expect(await counts(postId)).toEqual({ all: 1, top: 1 });
    const left = await app.fanstage.db.select({ id: comments.id }).from(comments).where(eq(comments.postId, postId));
    expect(left.map((c) => c.id)).toEqual([other.id]);
    expect((await call('GET', `/papi/posts/${postId}`)).json.body).toMatchObject({ totalCommentsCount: 1, commentsCount: 1 });
  });
});

describe('comment likes and reports', () => {
  it('like and unlike idempotently with the count on the comment', async () => {
    const creator = await createAccount(app, { seller: true });
    const [a, b] = [await createAccount(app), await createAccount(app)];
    const postId = await newPost(creator);
    const top = await comment(a, postId, 'like me');
    for (let i = 0; i < 2; i++) expect((await call('POST', `/api/posts/comments/${top.id}/like`, b)).json).toEqual({ statusCode: 1 });
    await call('POST', `/api/posts/comments/${top.id}/like`, creator);
    const seen = (await call('GET', `/api/posts/${postId}/comments`, b)).json.body[0];
    expect([seen.likesCount, seen.isLiked]).toEqual([2, true]);
    for (let i = 0; i < 2; i++) expect((await call('DELETE', `/api/posts/comments/${top.id}/like`, b)).json).toEqual({ statusCode: 1 });
    const after = (await call('GET', `/api/posts/${postId}/comments`, b)).json.body[0];
    expect([after.likesCount, after.isLiked]).toEqual([1, false]);
    expect((await call('POST', '/api/posts/comments/2000000/like', b)).json.statusText).toBe('comment-not-found');
  });

  it('take reports from readers but not from the author', async () => {
    const creator = await createAccount(app, { seller: true });
    const [a, b] = [await createAccount(app), await createAccount(app)];
    const postId = await newPost(creator);
    const top = await comment(a, postId, 'questionable');
    const own = await call('POST', `/api/posts/comments/${top.id}/report`, a, {});
    expect([own.status, own.json.statusText]).toEqual([403, 'forbidden']);
    expect((await call('POST', `/api/posts/comments/${top.id}/report`, b, { reason: ' spam ' })).json).toEqual({ statusCode: 1 });
    expect((await call('POST', `/api/posts/comments/${top.id}/report`, b, { reason: 'again' })).json).toEqual({ statusCode: 1 });
    expect((await call('POST', `/api/posts/comments/${top.id}/report`, creator)).json).toEqual({ statusCode: 1 });
    const reports = await app.fanstage.db.select().from(commentReports).where(and(eq(commentReports.commentId, top.id), eq(commentReports.userId, b.id)));
    expect(reports.map((r) => r.reason)).toEqual(['spam']);
  });
});
